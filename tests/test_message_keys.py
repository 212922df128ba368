"""Every catalogue lookup in bot/ names a key that exists, and every key is used somewhere."""

from __future__ import annotations

import ast
import builtins
import re
from pathlib import Path

from bot.shared.messages import CATALOGUE
from domain.reasons import ReasonCode

ROOT = Path(__file__).resolve().parent.parent
DISCORD_SIDE = ("cog", "_cog", "ui", "_view", "poster", "announcer", "answer", "sender",
                "notices")
"""A feature module whose name ends so speaks Discord (see tests/test_architecture.py)."""


def _is_data(path: Path) -> bool:
    """The catalogue's data: each feature's strings modules and bot/shared/strings/."""
    return path.stem.endswith("strings") or path.parent.name == "strings"


def _is_discord_side(path: Path) -> bool:
    return ROOT / "bot" / "client" in path.parents or (
        ROOT / "bot" / "features" in path.parents and path.stem.endswith(DISCORD_SIDE))
LOOKUPS = {"t", "tn"}
KEY_LIKE = re.compile(r"^[a-z_]+(\.[a-z_]+)+$")
FAMILIES = {key.split(".")[0] for key in CATALOGUE}
# Looked up by computed key: command strings by the Translator (tests/e2e/test_command_structure
# checks them against the command tree), reasons by `render_reason` from the ReasonCode.
COMMAND_KEYS = {key for key in CATALOGUE if key.startswith("cmd.")}
REASON_KEYS = {f"reason.{code.value}" for code in ReasonCode}


def _sources() -> list[Path]:
    return [p for p in sorted((ROOT / "bot").rglob("*.py")) if not _is_data(p)]


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


RAW_SHOWN_ALLOWED = {"CatalogFileError": "the owner's own file's problem (`/catalog reload` is "
                                         "owner-only), the same line `paperclub import` prints"}
"""Errors the client shows as their English `str()` on purpose, with why."""


def _raw_shown(tree: ast.AST) -> set[str]:
    """Exception classes a handler shows as their own text: `except X as e: … str(e) …` or
    `refusal_text(e, lang)` (which is `str(e)` for anything not a `Refusal`)."""
    shown: set[str] = set()
    for handler in ast.walk(tree):
        if not isinstance(handler, ast.ExceptHandler) or handler.name is None:
            continue
        caught = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        for node in ast.walk(ast.Module(body=handler.body, type_ignores=[])):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in {"str", "refusal_text"} and node.args
                    and isinstance(node.args[0], ast.Name) and node.args[0].id == handler.name):
                shown |= {ast.unparse(c).split(".")[-1] for c in caught if c is not None}
    return shown


def _classes(trees: list[ast.AST]) -> dict[str, set[str]]:
    """Each class defined in the trees with the names of its bases."""
    return {node.name: {ast.unparse(b).split(".")[-1] for b in node.bases}
            for tree in trees for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}


def _bypassing(trees: dict[str, ast.AST], shown: set[str]) -> list[str]:
    """`raise X("an English sentence")` in the service layer where X is shown as its own text
    (or is a subclass of such a class) and is not a `Refusal` (which takes a catalogue key)."""
    classes = _classes(list(trees.values()))

    def lineage(name: str) -> set[str]:
        bases, found = {name}, set()
        while bases:
            found |= bases
            bases = {b for n in bases for b in classes.get(n, set())} - found
        return found

    problems = []
    for where, tree in trees.items():
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)
                    and node.exc.args and isinstance(node.exc.args[0],
                                                     ast.Constant | ast.JoinedStr)):
                continue
            name = ast.unparse(node.exc.func).split(".")[-1]
            family = lineage(name)
            if name in classes and "Refusal" not in family and family & shown:
                problems.append(f"{where}:{node.lineno}: {name}({ast.unparse(node.exc.args[0])})"
                                " shows English to every reader; raise a Refusal with a key")
    return problems


def _service_trees() -> dict[str, ast.AST]:
    return {str(p.relative_to(ROOT)): ast.parse(p.read_text(encoding="utf-8"))
            for layer in ("bot/features", "bot/shared", "domain")
            for p in sorted((ROOT / layer).rglob("*.py"))
            if not _is_data(p) and not _is_discord_side(p)}


def test_no_service_layer_message_bypasses_the_catalogue() -> None:
    shown = set().union(*(_raw_shown(ast.parse(p.read_text(encoding="utf-8")))
                          for p in sorted((ROOT / "bot").rglob("*.py")) if _is_discord_side(p)))
    assert "UserFacingError" in shown  # the checker reads the client's handlers
    # A builtin caught broadly (`except ValueError` around `parse_local_time`) is not a claim
    # that every ValueError subclass reaches a reader: only the project's own classes count.
    problems = _bypassing(_service_trees(),
                          shown - RAW_SHOWN_ALLOWED.keys() - set(dir(builtins)))
    assert not problems, "\n".join(problems)


def test_the_bypass_checker_sees_an_english_error_shown_as_is() -> None:
    client = ast.parse("try:\n    x()\nexcept (TopicError, KeyError) as exc:\n"
                       "    raise UserFacingError(str(exc))")
    service = ast.parse("class TopicError(ValueError): ...\nclass Refused(Refusal): ...\n"
                        "class Sub(TopicError): ...\n"
                        "raise TopicError(f'A topic can be at most {n} characters.')\n"
                        "raise Sub('too long')\nraise Refused('subs.topic_empty')\n"
                        "raise KeyError('internal')")
    shown = _raw_shown(client)
    assert shown == {"TopicError", "KeyError"}
    assert [p.split(":")[1] for p in _bypassing({"s.py": service}, shown)] == ["4", "5"]
