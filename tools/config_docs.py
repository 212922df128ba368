"""Write the configuration reference (docs/operators/configuration.md) from the settings model.

    python -m tools.config_docs           # rewrite the page
    python -m tools.config_docs --check   # exit 1 when the committed page is out of date

Each setting's type and default come from `bot.settings.Settings`; its meaning from the comment
above it in `config.example.toml`, which documents every key for people editing a file.
"""

from __future__ import annotations

import re
import sys
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import annotated_types
from pydantic import BaseModel, HttpUrl, WebsocketUrl
from pydantic.fields import FieldInfo

from bot.settings import ENV_PREFIX, TOKEN_ENV, Settings

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "operators" / "configuration.md"
EXAMPLE = ROOT / "config.example.toml"
COMMAND = "python -m tools.config_docs"
_SECTION = re.compile(r"^\[([a-z_]+)\]\s*$")
_KEY = re.compile(r"^([a-z_]+)\s*=")
_COMMENTED_KEY = re.compile(r"^#\s*([a-z_]+)\s*=\s")

INTRO = f"""\
A TOML file (`--config FILE`; `config.example.toml` beside the code is a commented copy of
every key with its default) plus environment overrides `{ENV_PREFIX}<SECTION>__<KEY>`. A wrong
key, type or value is refused at start with a message naming the key (`search.limit: Input
should be greater than or equal to 1`). The Discord token is read only from `{TOKEN_ENV}` — a
token in a file is refused, and so is a `token` key anywhere or `{ENV_PREFIX}DISCORD__TOKEN`,
with that hint. Numbers must be numbers (`limit = true` is refused); an error from the
environment names the variable (`{ENV_PREFIX}SEARCH__LIMIT: …`).

Environment values are TOML literals where they parse as one:
`{ENV_PREFIX}DISCORD__OWNER_IDS="[1234]"`; a whole section may come as one inline table
(`{ENV_PREFIX}SEARCH="{{limit = 7}}"`), variable names match in any case, and the environment
wins over the file, the file over the defaults (pydantic-settings sources in `bot/settings.py`).
Bad configuration is one line and exit 2 at the command line. A relative `database.path` or
`catalog.path` in the file is relative to the file's folder.
"""


@dataclass(frozen=True)
class Setting:
    """One key of the configuration, as the reference shows it."""

    section: str
    key: str
    type: str
    default: str
    meaning: str

    @property
    def dotted(self) -> str:
        """`section.key`, as error messages name it."""
        return f"{self.section}.{self.key}"

    @property
    def variable(self) -> str:
        """The environment variable that overrides it."""
        return f"{ENV_PREFIX}{self.section.upper()}__{self.key.upper()}"

    def row(self) -> str:
        """The reference's table row."""
        cells = (f"`{self.key}`", self.type, self.default, f"`{self.variable}`",
                 self.meaning or "**undocumented**")
        return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"


def example_comments(text: str) -> dict[tuple[str, str], str]:
    """(section, key) -> the comment block above the key in a commented TOML example; keys
    that follow one another share the comment above the first."""
    found: dict[tuple[str, str], str] = {}
    section = ""
    block: list[str] = []
    after_key = False
    for raw in text.splitlines():
        line = raw.strip()
        if match := _SECTION.match(line):
            section, block, after_key = match.group(1), [], False
        elif (match := _COMMENTED_KEY.match(line)) or (match := _KEY.match(line)):
            note = line.lstrip("#").partition("#")[2].strip()  # a comment after the value
            if section:
                found[(section, match.group(1))] = " ".join([*block, note]).strip()
            after_key = True
        elif line.startswith("#"):
            if after_key:
                block, after_key = [], False
            block.append(line.lstrip("#").strip())
    return found


def _bounds(field: FieldInfo) -> str:
    parts: list[str] = []
    for item in field.metadata:
        for name, sign in (("ge", "≥"), ("gt", ">"), ("le", "≤"), ("lt", "<")):
            value = getattr(item, name, None)
            if isinstance(item, annotated_types.BaseMetadata) and value is not None:
                parts.append(f"{sign} {value:g}")
    return ", ".join(parts)


def _type_name(annotation: Any) -> str:
    origin = get_origin(annotation)
    if origin is Annotated:
        return _type_name(get_args(annotation)[0])
    args = [a for a in get_args(annotation) if a is not type(None)]
    if origin in (Union, types.UnionType):
        inner = " or ".join(_type_name(a) for a in args)
        return f"{inner}, or unset"
    if origin is Literal:
        return "one of " + ", ".join(f'`"{a}"`' for a in get_args(annotation))
    if origin is tuple:
        return f"list of {_type_name(args[0])}s"
    names: dict[Any, str] = {bool: "boolean", int: "integer", float: "number", str: "string",
                             Path: "path", HttpUrl: "http(s) URL", WebsocketUrl: "ws(s) URL"}
    for kind, name in names.items():
        if annotation is kind or (isinstance(annotation, type) and isinstance(kind, type)
                                  and issubclass(annotation, kind) and kind is not int):
            return name
    return str(getattr(annotation, "__name__", annotation))


def _default(value: object) -> str:
    if value is None:
        return "unset"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, str | Path | HttpUrl | WebsocketUrl):
        return f'`"{value}"`'
    if isinstance(value, tuple):
        return "`[" + ", ".join(map(str, value)) + "]`"
    if isinstance(value, float):
        return f"`{value!r}`"
    return f"`{value}`"


def settings_of(model: type[BaseModel], comments: dict[tuple[str, str], str]) -> list[Setting]:
    """Every key of every section of `model`, in the model's order."""
    found: list[Setting] = []
    for section, field in model.model_fields.items():
        kind = field.annotation
        if field.exclude or not (isinstance(kind, type) and issubclass(kind, BaseModel)):
            continue  # the token: never a setting of the file
        for key, item in kind.model_fields.items():
            bounds = _bounds(item)
            type_name = _type_name(item.annotation) + (f" ({bounds})" if bounds else "")
            found.append(Setting(section, key, type_name, _default(item.default),
                                 comments.get((section, key), "")))
    return found


def render(model: type[BaseModel] = Settings, example: str | None = None) -> str:
    """The configuration reference page."""
    comments = example_comments(EXAMPLE.read_text(encoding="utf-8") if example is None
                                else example)
    lines = ["# Configuration reference", "",
             f"<!-- Generated by `{COMMAND}` from bot/settings.py and config.example.toml; "
             "do not edit by hand. -->", "", INTRO]
    section = ""
    for setting in settings_of(model, comments):
        if setting.section != section:
            section = setting.section
            doc = (model.model_fields[section].annotation.__doc__ or "").strip()
            lines += ["", f"## [{section}]", "", " ".join(doc.split()), "",
                      "| key | type | default | environment variable | meaning |",
                      "|---|---|---|---|---|"]
        lines.append(setting.row())
    return "\n".join(lines) + "\n"


def undocumented(page: str, model: type[BaseModel] = Settings,
                 example: str | None = None) -> list[str]:
    """The settings of `model` whose key, type and default the page does not show, or whose
    meaning config.example.toml does not give, each with what is missing."""
    comments = example_comments(EXAMPLE.read_text(encoding="utf-8") if example is None
                                else example)
    missing: list[str] = []
    for setting in settings_of(model, comments):
        if not setting.meaning:
            missing.append(f"{setting.dotted}: no comment above it in config.example.toml")
        elif setting.row() not in page.splitlines():
            missing.append(f"{setting.dotted}: not in the reference with its type and default")
    return missing


def main(argv: list[str]) -> int:
    """Rewrite the page, or with --check say whether it is up to date."""
    page = render()
    if "--check" in argv:
        if PAGE.read_text(encoding="utf-8") != page:
            print(f"{PAGE.relative_to(ROOT)} is out of date: run {COMMAND}", file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(page, encoding="utf-8")
    print(f"wrote {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
