"""The one registry of stores (`storage.backend.STORES`): complete, opened by backend, and every
entry exercised by the contract suite on both backends."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from storage import backend as stores
from tests.backends import Backend

STORAGE = Path(__file__).resolve().parents[2] / "storage"
CONTRACT_SUITE = Path(__file__).resolve().parent


def _store_classes(prefix: str) -> set[str]:
    """Every `{prefix}…Store` class defined under storage/, and every store written once for
    both backends (any `…Store` class of a `store.py`)."""
    return {node.name for path in STORAGE.rglob("*.py")
            for node in ast.parse(path.read_text(encoding="utf-8")).body
            if isinstance(node, ast.ClassDef) and node.name.endswith("Store")
            and (node.name.startswith(prefix) or path.name == "store.py")}


def _class_name(opener: object) -> str:
    name = getattr(opener, "__name__", None)
    assert isinstance(name, str), opener
    return name


def test_the_registry_lists_every_store_once() -> None:
    """Each class once, but a class written once for several tables (given as its `args`)
    once per table."""
    assert len({pair.name for pair in stores.STORES}) == len(stores.STORES)
    for prefix, side in (("Sqlite", "sqlite"), ("Pg", "postgres")):
        listed = [(_class_name(getattr(pair, side)), pair.args) for pair in stores.STORES]
        assert len(set(listed)) == len(listed), side
        assert {name for name, _ in listed} == _store_classes(prefix), side


async def test_each_entry_opens_its_backends_store(backend: Backend) -> None:
    """The accessor of each entry (same name) returns that entry's class for the backend."""
    for pair in stores.STORES:
        assert pair.shared == (pair.sqlite is pair.postgres), pair.name
        store = getattr(backend, pair.name)()
        expected: object = pair.postgres if backend.kind == "postgres" else pair.sqlite
        assert type(store) is expected, pair.name
        assert type(pair.open(backend.db)) is expected, pair.name


def _contract_tests_using(accessor: str) -> list[str]:
    """Contract tests (taking the `backend` fixture: both backends) that open `accessor`."""
    call = re.compile(rf"\bbackend\.{accessor}\(\)")
    found = []
    for path in sorted(CONTRACT_SUITE.glob("test_*.py")):
        if path.name == Path(__file__).name:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.AsyncFunctionDef | ast.FunctionDef)
                    and node.name.startswith("test_")
                    and "backend" in {arg.arg for arg in node.args.args}
                    and call.search(ast.unparse(node))):
                found.append(f"{path.name}::{node.name}")
    return found


def test_the_contract_suite_exercises_every_entry() -> None:
    unexercised = [pair.name for pair in stores.STORES if not _contract_tests_using(pair.name)]
    assert unexercised == []
