"""Every catalogue lookup in bot/ names a key that exists, and every key is used somewhere."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from bot.shared.messages import CATALOGUE
from domain.reasons import ReasonCode

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "bot" / "core" / "strings"
LOOKUPS = {"t", "tn"}
KEY_LIKE = re.compile(r"^[a-z_]+(\.[a-z_]+)+$")
FAMILIES = {key.split(".")[0] for key in CATALOGUE}
# Looked up by computed key: command strings by the Translator (tests/e2e/test_command_structure
# checks them against the command tree), reasons by `render_reason` from the ReasonCode.
COMMAND_KEYS = {key for key in CATALOGUE if key.startswith("cmd.")}
REASON_KEYS = {f"reason.{code.value}" for code in ReasonCode}


def _sources() -> list[Path]:
    return [p for p in sorted((ROOT / "bot").rglob("*.py")) if DATA not in p.parents]


def _literals(node: ast.expr) -> list[str]:
    """The string constants a key argument can evaluate to (both arms of `a if c else b`)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _literals(node.body) + _literals(node.orelse)
    return []


def _lookups(tree: ast.AST) -> list[tuple[str, str, int]]:
    """(function, literal key, line) for each `t(lang, "key")` / `tn(lang, "key", n)`."""
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in LOOKUPS and len(node.args) >= 2):
            found += [(node.func.id, key, node.lineno) for key in _literals(node.args[1])]
    return found


def _expand(function: str, key: str) -> set[str]:
    return {f"{key}.one", f"{key}.other"} if function == "tn" else {key}


def _used_keys() -> tuple[set[str], list[str]]:
    """Keys named in bot/ (lookups and key tables), and problems found on the way."""
    used: set[str] = set()
    problems: list[str] = []
    for path in _sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = path.relative_to(ROOT)
        for function, key, line in _lookups(tree):
            missing = _expand(function, key) - CATALOGUE.keys()
            if missing:
                problems.append(f"{where}:{line}: {function}() with unknown key {sorted(missing)}")
            used |= _expand(function, key)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
                if KEY_LIKE.match(text) and text.split(".")[0] in FAMILIES:
                    known = {text, f"{text}.one", f"{text}.other"} & CATALOGUE.keys()
                    if not known:
                        problems.append(f"{where}:{node.lineno}: {text!r} is not a message key")
                    used |= known
    return used, problems


def test_lookups_name_existing_keys_and_no_key_is_dead() -> None:
    used, problems = _used_keys()
    assert not problems, "\n".join(problems)
    assert CATALOGUE.keys() >= REASON_KEYS
    dead = CATALOGUE.keys() - used - COMMAND_KEYS - REASON_KEYS
    assert not dead, f"catalogue keys used nowhere in bot/: {sorted(dead)}"


def test_the_checker_sees_bad_and_dead_keys() -> None:
    tree = ast.parse('t(lang, "card.authors" if x else "card.nope")\ntn(lang, "count.papers", 2)')
    assert _lookups(tree) == [("t", "card.authors", 1), ("t", "card.nope", 1),
                              ("tn", "count.papers", 2)]
    assert _expand("tn", "count.papers") <= CATALOGUE.keys()
    assert "card.nope" not in CATALOGUE
