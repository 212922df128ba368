"""Structural rules: storage and the pure core never import discord; SQL stays in storage."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PURE_PACKAGES = ("storage", "bot/core", "bot/services")
SQL = re.compile(r"\b(SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM|CREATE TABLE)\b")


def _modules(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("package", PURE_PACKAGES)
def test_no_discord_imports(package: str) -> None:
    modules = _modules(package)
    assert modules
    for path in modules:
        offending = {n for n in _imports(path) if n.split(".")[0] == "discord"}
        assert not offending, f"{path.relative_to(ROOT)} imports {offending}"


def test_core_does_no_io() -> None:
    banned = {"aiosqlite", "sqlite3", "aiohttp", "discord", "storage", "asyncio", "os"}
    for path in _modules("bot/core"):
        offending = {n for n in _imports(path) if n.split(".")[0] in banned}
        assert not offending, f"{path.relative_to(ROOT)} imports {offending}"


def test_sql_lives_only_in_storage() -> None:
    for path in sorted((ROOT / "bot").rglob("*.py")):
        assert not SQL.search(path.read_text(encoding="utf-8")), (
            f"{path.relative_to(ROOT)} contains SQL")


def test_storage_is_importable_without_discord_loaded() -> None:
    import subprocess
    import sys

    code = ("import sys, storage, storage.papers, bot.core.listing, bot.services.search, "
            "bot.services.catalog_loader; sys.exit('discord' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False).returncode == 0
