"""Structural rules: storage and the pure core never import discord; SQL stays in storage;
the Discord stand-in is a separate package that the bot loads only in local mode; the
Discord side reaches storage only through services, and services only through protocols."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DISCORD_SIDE = frozenset({"cog", "bookmarks_cog", "history_cog", "card_view", "results_view",
                          "poster", "answer", "sender", "notices", "web",
                          "views"})
"""Modules of a feature folder that speak Discord: its cogs, views, posters and senders."""
SERVICE_SIDE = frozenset({"service", "delivery", "search", "lookup", "loader", "pipeline", "files",
                          "load_report", "arxiv_port", "arxiv_client", "outbox", "notifier",
                          "forget", "reminders", "bookmarks", "history", "store", "scheduler",
                          "followers", "tally", "source_watch", "transfer", "keeper", "worker",
                          "llm_client", "announcements"})
"""Modules of a feature folder that run its use cases: services, ports and their stores."""


def _feature_modules(side: frozenset[str] | None) -> list[Path]:
    """The modules of every feature folder of one side (None: the pure rules, neither side)."""
    found = []
    for path in sorted((ROOT / "bot" / "features").rglob("*.py")):
        if path.stem == "__init__":
            continue
        in_side = path.stem in (DISCORD_SIDE | SERVICE_SIDE)
        if (side is None and not in_side) or (side is not None and path.stem in side):
            found.append(path)
    return found


def _pure_modules() -> list[Path]:
    """Pure rules: the shared domain, the shared message data, each feature's rules."""
    shared = [p for p in _modules("bot/shared")
              if p.stem in ("lang", "messages", "mentions", "pages") or p.parent.name == "strings"]
    return _modules("domain") + shared + _feature_modules(None)


PURE_PACKAGES = ("domain", "storage", "bot/shared")
SQL = re.compile(r"\b(SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM|CREATE TABLE)\b")


STANDIN = "discord_standin"
OUTSIDE_STANDIN = ("bot", "storage", "tests", "bench")


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


@pytest.mark.parametrize("package", [*PURE_PACKAGES, "features"])
def test_no_discord_imports(package: str) -> None:
    modules = (_modules(package) if package != "features"
               else _feature_modules(None) + _feature_modules(SERVICE_SIDE))
    assert modules
    for path in modules:
        offending = {n for n in _imports(path) if n.split(".")[0] == "discord"}
        assert not offending, f"{path.relative_to(ROOT)} imports {offending}"


def test_core_does_no_io() -> None:
    banned = {"aiosqlite", "sqlite3", "aiohttp", "discord", "storage", "asyncio", "os"}
    modules = _pure_modules()
    assert len(modules) > 40
    for path in modules:
        offending = {n for n in _imports(path) if n.split(".")[0] in banned}
        assert not offending, f"{path.relative_to(ROOT)} imports {offending}"


def test_sql_lives_only_in_storage() -> None:
    for path in sorted((ROOT / "bot").rglob("*.py")):
        assert not SQL.search(path.read_text(encoding="utf-8")), (
            f"{path.relative_to(ROOT)} contains SQL")


def test_storage_is_importable_without_discord_loaded() -> None:
    import subprocess
    import sys

    code = ("import sys, storage, storage.papers.sqlite, bot.features.catalog.listing, "
            "bot.features.papers.search, "
            "bot.features.catalog.loader, bot.bundle, bot.features.digest.service, "
            "bot.features.subscriptions.service; sys.exit('discord' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False).returncode == 0


def _imported(node: ast.AST) -> list[str]:
    """Absolute modules an import statement names (``from a import b`` names ``a`` and ``a.b``)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
        return [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
    return []


def _module_level_imports(statements: list[ast.stmt]) -> list[str]:
    """Modules imported when the module loads: not in function bodies, not under TYPE_CHECKING."""
    found: list[str] = []
    for node in statements:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if isinstance(node, ast.If) and ast.unparse(node.test) in (
            "TYPE_CHECKING", "typing.TYPE_CHECKING"):
            found += _module_level_imports(node.orelse)
            continue
        found += _imported(node)
        for field in ("body", "orelse", "finalbody", "handlers"):
            found += _module_level_imports(getattr(node, field, []))
    return found


def _is_standin(name: str) -> bool:
    return name == STANDIN or name.startswith(STANDIN + ".")


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def test_standin_imports_nothing_from_the_bot() -> None:
    modules = _modules(STANDIN)
    assert len(modules) > 10
    for path in modules:
        names = {n for node in ast.walk(_tree(path)) for n in _imported(node)}
        offending = {n for n in names if n.split(".")[0] in ("bot", "storage")}
        assert not offending, f"{path.relative_to(ROOT)} imports {offending}"


def test_only_the_standin_package_is_imported_not_its_submodules() -> None:
    import discord_standin

    public = {f"{STANDIN}.{name}" for name in discord_standin.__all__}
    modules = [p for package in OUTSIDE_STANDIN for p in _modules(package)]
    users = 0
    for path in modules:
        names = {n for node in ast.walk(_tree(path)) for n in _imported(node) if _is_standin(n)}
        users += bool(names)
        offending = names - public - {STANDIN}
        assert not offending, f"{path.relative_to(ROOT)} imports {offending}"
    assert users > 5


def test_bot_imports_the_standin_only_inside_functions() -> None:
    modules = _modules("bot")
    assert modules
    lazy = 0
    for path in modules:
        tree = _tree(path)
        eager = {n for n in _module_level_imports(tree.body) if _is_standin(n)}
        assert not eager, f"{path.relative_to(ROOT)} imports {eager} when it loads"
        lazy += any(_is_standin(n) for node in ast.walk(tree) for n in _imported(node))
    assert lazy, "local mode should import the stand-in (inside functions)"


def test_the_command_line_loads_without_the_standin() -> None:
    import subprocess
    import sys

    code = ("import sys\nfrom bot.cli.main import cli\n"
            "try:\n    cli(['--help'], prog_name='paperclub')\nexcept SystemExit:\n    pass\n"
            "sys.exit(3 if 'discord_standin' in sys.modules else 0)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, check=False)
    assert done.returncode == 0, done.stderr.decode()
    assert b"local" in done.stdout


def _storage_imports(path: Path) -> set[str]:
    return {n for n in _imports(path) if n.split(".")[0] == "storage"}


def test_the_discord_side_never_imports_storage() -> None:
    for path in _modules("bot/client") + _feature_modules(DISCORD_SIDE):
        offending = _storage_imports(path)
        assert not offending, f"{path.relative_to(ROOT)} imports {offending}: use a service"


PREPARED = "storage.papers.prepared"
"""Pure row preparation (no SQL, no database): the one storage module a service may import."""


def test_services_see_storage_only_through_its_protocols() -> None:
    """Services depend on their feature's `store.py` protocols, never on a store."""
    for path in _feature_modules(SERVICE_SIDE) + _modules("bot/shared"):
        offending = _storage_imports(path) - {PREPARED}
        assert not offending, f"{path.relative_to(ROOT)} imports {offending}"


def _classes(path: Path) -> dict[str, ast.ClassDef]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}


def _public_methods(cls: ast.ClassDef, bases: dict[str, ast.ClassDef] | None = None) -> set[str]:
    """Its public methods, with those of its `bases` it derives from (a store's, in storage)."""
    inherited = [_public_methods(bases[base.id], bases) for base in cls.bases
                 if bases and isinstance(base, ast.Name) and base.id in bases]
    return set().union(*inherited, {node.name for node in cls.body
                                    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
                                    and not node.name.startswith("_")})


def _stores(prefix: str) -> dict[str, ast.ClassDef]:
    """The `{prefix}…Store` classes in storage, by protocol name; with the stores written once
    for both backends (each `…Store` of a `store.py`, named after its protocol)."""
    return {name.removeprefix(prefix): cls for path in _modules("storage")
            for name, cls in _classes(path).items()
            if name.endswith("Store") and (name.startswith(prefix) or path.name == "store.py")}


def _protocols() -> dict[str, ast.ClassDef]:
    """The store protocols, beside their features (`bot/features/*/store.py`) and the shared
    state store (`bot/shared/state_store.py`), by name."""
    paths = [*sorted((ROOT / "bot" / "features").glob("*/store.py")),
             ROOT / "bot" / "shared" / "state_store.py", ROOT / "bot" / "shared" / "link_store.py"]
    return {name: cls for path in paths for name, cls in _classes(path).items()
            if name.endswith("Store")}


def test_every_store_has_a_protocol_with_its_methods() -> None:
    protocols = _protocols()
    classes = {name: cls for path in _modules("storage") for name, cls in _classes(path).items()}
    for prefix in ("Sqlite", "Pg"):
        stores = _stores(prefix)
        assert stores
        for name, cls in stores.items():
            protocol = protocols.get(name)
            assert protocol is not None, f"{prefix}{name} has no protocol in a store.py"
            assert _public_methods(protocol) == _public_methods(cls, classes), prefix + name


def test_every_protocol_has_both_backends() -> None:
    """Every store protocol has a SQLite and a PostgreSQL implementation (one class, for a
    store written once over `storage.db`)."""
    protocols = set(_protocols())
    assert len(protocols) >= 13
    assert protocols == set(_stores("Sqlite")) == set(_stores("Pg"))


def test_storage_imports_nothing_from_the_bot_or_discord() -> None:
    """The top-level packages form a line: `domain/`, then `storage/`, then `bot/`."""
    modules = _modules("storage")
    assert len(modules) > 30
    for path in modules:
        names = {n for node in ast.walk(_tree(path)) for n in _imported(node)}
        offending = {n for n in names if n.split(".")[0] in ("bot", "discord")}
        assert not offending, f"{path.relative_to(ROOT)} imports {offending}"


def _backend_of(module: str) -> str | None:
    """`sqlite` or `postgres` when a storage module's dotted path names one backend."""
    found = {kind for kind in ("sqlite", "postgres") if kind in module}
    return found.pop() if len(found) == 1 else None


def test_no_backend_imports_the_other() -> None:
    """PostgreSQL sits beside SQLite, not above it: what both need is in a neutral module."""
    checked = 0
    for path in _modules("storage"):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        own = _backend_of(module)
        if own is None:
            continue
        checked += 1
        other = "postgres" if own == "sqlite" else "sqlite"
        names = {n for node in ast.walk(_tree(path)) for n in _imported(node)}
        offending = {n for n in names if n.split(".")[0] == "storage" and other in n}
        assert not offending, f"{path.relative_to(ROOT)} imports {offending}"
    assert checked >= 10


def test_storage_defines_no_domain_records() -> None:
    """Records the services see live in domain/; storage keeps only private row plumbing."""
    for path in _modules("storage"):
        if path.name in ("migrations.py", "schema.py", "dialect.py"):  # schema plumbing
            continue
        for name, cls in _classes(path).items():
            decorated = any("dataclass" in ast.unparse(d) for d in cls.decorator_list)
            assert not (decorated and not name.startswith("_")), (
                f"{path.relative_to(ROOT)} defines the record {name}: move it to domain/")


ARXIV_STANDIN = "arxiv_standin"


def test_the_arxiv_standin_imports_nothing_from_the_bot() -> None:
    modules = _modules(ARXIV_STANDIN)
    assert len(modules) > 3
    for path in modules:
        names = {n for node in ast.walk(_tree(path)) for n in _imported(node)}
        offending = {n for n in names if n.split(".")[0] in ("bot", "storage", "discord_standin")}
        assert not offending, f"{path.relative_to(ROOT)} imports {offending}"


def test_the_arxiv_standin_is_used_through_its_public_api_and_lazily_by_the_bot() -> None:
    import arxiv_standin

    public = {f"{ARXIV_STANDIN}.{name}" for name in arxiv_standin.__all__} | {ARXIV_STANDIN}
    for package in OUTSIDE_STANDIN:
        for path in _modules(package):
            tree = _tree(path)
            names = {n for node in ast.walk(tree) for n in _imported(node)
                     if n.split(".")[0] == ARXIV_STANDIN}
            assert names <= public, f"{path.relative_to(ROOT)} imports {names - public}"
            if package == "bot":
                eager = {n for n in _module_level_imports(tree.body)
                         if n.split(".")[0] == ARXIV_STANDIN}
                assert not eager, f"{path.relative_to(ROOT)} imports {eager} when it loads"


def test_services_never_import_http_clients() -> None:
    for path in _feature_modules(SERVICE_SIDE):
        if path.stem == "arxiv_client":
            continue
        offending = {n for n in _imports(path) if n.split(".")[0] == "aiohttp"
                     or n.startswith("bot.features.adding.arxiv_client")}
        assert not offending, f"{path.relative_to(ROOT)} imports {offending}: use a port"


# Cog handlers: options -> one service call -> ui. The exceptions, each for a reason:
SEVERAL_SERVICE_CALLS = {
    ("catalog", "stats"): "the bot's owner also sees the AI summaries' coverage and today's "
                          "tokens (another feature's figures)",
    ("papers", "paper"): "a paper id that is not in the catalog is searched for as words "
                            "(the search service's two entry points)",
    ("queue", "suggest"): "an arXiv id is added to the catalog (`/add`'s service) before "
                             "it is suggested",
    ("sessions", "done"): "one call on each path: with notes the session is marked done, "
                             "without them the form opens once the member may finish it",
    ("subscriptions", "subscribe"): "one call on each path: `kind:topic` subscribes to a "
                                    "topic, `kind:similar` follows papers like the member's",
    ("subscriptions", "unsubscribe"): "one call on each path: a topic, or papers like the "
                                      "member's",
    ("corrections", "submit"): "the review message exists only once the proposal is stored: "
                               "`set_review_message` records its id",
}


def _service_calls(cls: ast.ClassDef, method: ast.AsyncFunctionDef | ast.FunctionDef,
                   seen: frozenset[str] = frozenset()) -> list[str]:
    """`self.services.…(…)` calls a method makes, through the class's own helpers too."""
    helpers = {node.name: node for node in cls.body
               if isinstance(node, ast.AsyncFunctionDef | ast.FunctionDef)}
    calls: list[str] = []
    for node in ast.walk(method):
        if not isinstance(node, ast.Call):
            continue
        called = ast.unparse(node.func)
        if called.startswith("self.services."):
            calls.append(called)
        elif called.startswith("self.") and (name := called[5:]) in helpers \
                and name not in seen and name != method.name:
            calls += _service_calls(cls, helpers[name], seen | {method.name})
    return calls


def _handlers(cls: ast.ClassDef) -> list[ast.AsyncFunctionDef]:
    """The class's interaction handlers: public coroutines that take an interaction."""
    return [node for node in cls.body if isinstance(node, ast.AsyncFunctionDef)
            and not node.name.startswith("_") and node.name != "interaction_check"
            and any(arg.arg == "interaction" for arg in node.args.args)]


def test_each_command_makes_one_service_call() -> None:
    several = {}
    cogs = [p for p in _feature_modules(DISCORD_SIDE) if p.stem.endswith("cog")]
    assert len(cogs) >= 12
    for path in cogs:
        feature = path.parent.name
        for cls in _classes(path).values():
            for handler in _handlers(cls):
                calls = _service_calls(cls, handler)
                if len(calls) > 1 and (feature, handler.name) not in SEVERAL_SERVICE_CALLS:
                    several[f"{feature}/{path.name} {cls.name}.{handler.name}"] = calls
    assert several == {}


MODULE_LINE_LIMIT = 450
CLASS_LINE_LIMIT = 250
SIZED_PACKAGES = ("bot", "domain", "storage", "discord_standin", "arxiv_standin")
def _oversized() -> tuple[dict[str, int], dict[str, int]]:
    """Production modules over `MODULE_LINE_LIMIT` lines and classes over `CLASS_LINE_LIMIT`."""
    modules: dict[str, int] = {}
    classes: dict[str, int] = {}
    for package in SIZED_PACKAGES:
        for path in _modules(package):
            where = path.relative_to(ROOT).as_posix()
            text = path.read_text(encoding="utf-8")
            if (lines := len(text.splitlines())) > MODULE_LINE_LIMIT:
                modules[where] = lines
            for node in ast.walk(ast.parse(text)):
                if isinstance(node, ast.ClassDef) and node.end_lineno is not None and (
                        size := node.end_lineno - node.lineno + 1) > CLASS_LINE_LIMIT:
                    classes[f"{where}:{node.name}"] = size
    return modules, classes


def test_no_module_or_class_is_too_long() -> None:
    """No production module over 450 lines, no class over 250: a longer one does two jobs."""
    modules, classes = _oversized()
    assert modules == {}
    assert classes == {}
