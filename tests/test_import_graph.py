"""The import graph of the project's packages: no cycles (typing-only and function-level imports
included), and the top-level packages in a line: the shared domain, then storage, then the bot;
the two stand-ins import none of them."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("domain", "storage", "bot", "discord_standin", "arxiv_standin")
ALLOWED = {
    "domain": set(),
    "storage": {"domain"},
    "bot": {"domain", "storage", "discord_standin", "arxiv_standin"},
    "discord_standin": set(),
    "arxiv_standin": set(),
}
"""Which of the project's top-level packages each one may import (the bot imports the stand-ins
only in local mode, inside functions: tests/test_architecture.py checks that)."""


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for package in PACKAGES
            for p in sorted((ROOT / package).rglob("*.py"))}


def _absolute(node: ast.ImportFrom, package: str) -> str:
    """The module a `from … import` names, relative imports (`from .model import`) resolved."""
    if node.level == 0:
        return node.module or ""
    parts = package.split(".")
    base = ".".join(parts[: len(parts) - node.level + 1])
    return f"{base}.{node.module}" if node.module else base


def _graph() -> dict[str, set[str]]:
    """Module -> the project modules it imports anywhere in its text."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        edges: set[str] = set()
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                edges.update(alias.name for alias in node.names if alias.name in modules)
            elif isinstance(node, ast.ImportFrom):
                base = _absolute(node, package)
                for alias in node.names:
                    child = f"{base}.{alias.name}" if base else alias.name
                    if child in modules:
                        edges.add(child)
                    elif base in modules:
                        edges.add(base)
        graph[name] = edges - {name}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_graph_is_read_from_the_whole_tree() -> None:
    graph = _graph()
    assert len(graph) > 250
    assert "domain.paper" in graph["storage.papers.sqlite"]
    assert "bot.shared.messages" in graph["bot.features.papers.query"]
    assert "discord_standin.model" in graph["discord_standin.state"]  # `from .model import`


def test_no_import_cycles() -> None:
    assert _cycles(_graph()) == []


def test_a_cycle_would_be_found() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_top_level_packages_form_a_line() -> None:
    offending = {
        f"{module} -> {target}"
        for module, targets in _graph().items() for target in targets
        if (top := module.split(".")[0]) != (other := target.split(".")[0])
        and other not in ALLOWED[top]
    }
    assert offending == set()
