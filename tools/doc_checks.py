"""What the documentation promises, read from it: the commands and options the guides name, and
the examples README.md and docs/ show (tests/test_docs.py runs them).

Examples are fenced code blocks:

- a `slash` block holds lines typed in Discord or at local mode's prompt (`/paper grokking`,
  `next`, `locale zh-CN`); they run, in order, in one local-mode session;
- any other block's lines that start (after an optional `$ `) with `paperclub`,
  `.venv/bin/paperclub` or `python3 dev.py demo "…"` are command lines; `DISCORD_TOKEN=… ` before
  them is dropped, and `python3 dev.py demo LINE…` / `paperclub local LINE…` run their lines in
  the local-mode session.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MEMBER_GUIDE = ROOT / "docs" / "members"
ORGANISER_GUIDE = ROOT / "docs" / "organisers"
_FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w-]*)")
_COMMAND_LINE = re.compile(r"^(?:\$\s+)?(?:[A-Z_]+=\S+\s+)*((?:\.venv/bin/)?paperclub(?:\s.*)?|"
                           r"python3 dev\.py demo\b.*)$")
LOCAL_COMMANDS = frozenset({"local"})
"""`paperclub local LINE…`: its lines run in the local-mode session."""
DISCORD_COMMANDS = frozenset({"run", "sync", "web"})
"""Commands that connect to Discord (or serve for it): checked by parsing their options only."""


@dataclass(frozen=True)
class Example:
    """One example line and where the documentation shows it."""

    text: str
    source: str

    def __str__(self) -> str:
        return f"{self.source}: {self.text}"


@dataclass(frozen=True)
class Examples:
    """Every example of some pages: the lines for local mode and the command lines."""

    local: tuple[Example, ...]
    shell: tuple[tuple[Example, tuple[str, ...]], ...]
    """Each command line with its arguments after `paperclub`."""


def documentation_files(root: Path = ROOT) -> list[Path]:
    """README.md and every page under docs/."""
    return [root / "README.md", *sorted((root / "docs").rglob("*.md"))]


def fenced_blocks(text: str) -> Iterator[tuple[str, int, list[str]]]:
    """(info string, first line number, lines) of each fenced code block, dedented."""
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        opening = _FENCE.match(lines[index])
        if opening is None:
            index += 1
            continue
        indent, fence, info = opening.groups()
        start = index + 1
        index = start
        while index < len(lines) and not lines[index].strip().startswith(fence):
            index += 1
        body = [line[len(indent):] if line.startswith(indent) else line.strip()
                for line in lines[start:index]]
        yield info, start + 1, body
        index += 1


def collect(files: Iterable[Path], placeholders: Mapping[str, str] | None = None,
            root: Path = ROOT) -> Examples:
    """The examples of the given pages, in page order; each command line's `placeholders`
    (`<server id>`) replaced before it is split into arguments."""
    local: list[Example] = []
    shell: list[tuple[Example, tuple[str, ...]]] = []
    for path in files:
        name = str(path.relative_to(root)) if path.is_relative_to(root) else str(path)
        for info, first, body in fenced_blocks(path.read_text(encoding="utf-8")):
            for offset, line in enumerate(body):
                text = line.strip()
                where = f"{name}:{first + offset}"
                if not text:
                    continue
                if info == "slash":
                    local.append(Example(text, where))
                elif match := _COMMAND_LINE.match(text):
                    command = match.group(1).split(" #")[0].strip()
                    example = Example(command, where)
                    for placeholder, value in (placeholders or {}).items():
                        command = command.replace(placeholder, value)
                    args = tuple(shlex.split(command))
                    if args[:3] == ("python3", "dev.py", "demo"):
                        local += [Example(arg, where) for arg in args[3:]]
                    elif len(args) > 1 and args[1] in LOCAL_COMMANDS:
                        local += [Example(arg, where) for arg in args[2:]
                                  if not arg.startswith("-")]
                    else:
                        shell.append((example, args[1:]))
    return Examples(tuple(local), tuple(shell))


def guide_text() -> str:
    """The members' and organisers' guides, as one text."""
    return "\n".join(path.read_text(encoding="utf-8")
                     for folder in (MEMBER_GUIDE, ORGANISER_GUIDE)
                     for path in sorted(folder.rglob("*.md")))


def _mentions(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![-\w]){re.escape(name)}(?![-\w])")


def undocumented_commands(commands: Iterable[tuple[str, Sequence[str]]],
                          menus: Iterable[str], text: str) -> list[str]:
    """Each slash command (`/qualified name`) no line of `text` names, each option no line
    naming its command mentions, and each message or user command `text` does not name."""
    lines = text.splitlines()
    missing: list[str] = []
    for name, options in commands:
        slash = _mentions(f"/{name}")
        naming = [line for line in lines if slash.search(line)]
        if not naming:
            missing.append(f"/{name}")
            continue
        missing += [f"/{name} {option}" for option in options
                    if not any(_mentions(option).search(line) for line in naming)]
    missing += [menu for menu in menus if menu not in text]
    return missing


_FAILURES = ("Something went wrong", "Traceback", "(no answer)",
             "Type a slash command such as")


def failed_lines(transcript: str, lines: Sequence[Example]) -> list[str]:
    """The example lines whose answer in a local-mode transcript is an error: a line the
    session refused (`! …`: an unknown command or option, a bad value), an internal error, no
    answer, or a word local mode does not know. The transcript echoes each line as `> line`."""
    answers = transcript.split("\n> ")[1:]
    failed: list[str] = []
    for example, answer in zip(lines, answers, strict=False):
        typed, _, said = answer.partition("\n")
        assert typed.strip() == example.text, (typed, example.text)
        if any(line.startswith("! ") for line in said.splitlines()) or any(
                failure in said for failure in _FAILURES):
            failed.append(f"{example}\n    {said.strip()[:300]}")
    if len(answers) < len(lines):
        failed += [f"{example}: never ran" for example in lines[len(answers):]]
    return failed
