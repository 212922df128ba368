"""The one registry of stores (`storage.backend.STORES`): complete, opened by backend, and every
entry exercised by the contract suite on both backends."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from storage import backend as stores
from storage.papers.postgres import PgPaperStore
from storage.papers.sqlite import SqlitePaperStore
from tests.backends import Backend

STORAGE = Path(__file__).resolve().parents[2] / "storage"
CONTRACT_SUITE = Path(__file__).resolve().parent


def _store_classes() -> set[str]:
    """Every `…Store` class of a `store.py` under storage/ (written once for both backends),
    and the catalog's `Sqlite…Store` and `Pg…Store`."""
    return {node.name for path in STORAGE.rglob("*.py")
            for node in ast.parse(path.read_text(encoding="utf-8")).body
            if isinstance(node, ast.ClassDef) and node.name.endswith("Store")
            and (node.name.startswith(("Sqlite", "Pg")) or path.name == "store.py")}


def test_the_registry_lists_every_store_once() -> None:
    """Each class once, but a class written once for several tables (given as its `args`)
    once per table; the catalog's entry opens its backend's class."""
    assert len({entry.name for entry in stores.STORES}) == len(stores.STORES)
    listed = [(entry.store.__name__, entry.args) for entry in stores.STORES
              if entry is not stores.PAPERS]
    assert len(set(listed)) == len(listed)
    catalog = {SqlitePaperStore.__name__, PgPaperStore.__name__}
    assert {name for name, _ in listed} | catalog == _store_classes()


async def test_each_entry_opens_its_backends_store(backend: Backend) -> None:
    """The accessor of each entry (same name) returns what the entry opens; the catalog is
    the backend's own class."""
    for entry in stores.STORES:
        store = getattr(backend, entry.name)()
        assert type(store) is type(entry.open(backend.db)), entry.name
    catalog = PgPaperStore if backend.kind == "postgres" else SqlitePaperStore
    assert type(stores.PAPERS.open(backend.db)) is catalog
    assert type(backend.papers()) is catalog


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
    unexercised = [entry.name for entry in stores.STORES
                   if not _contract_tests_using(entry.name)]
    assert unexercised == []
