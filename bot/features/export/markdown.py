"""Markdown exports: one numbered item per paper, each detail a paragraph of its own, text escaped
so that any CommonMark renderer shows it as written."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.features.export.formats import ExportEntry, abs_url, safe_url
from domain.paper import Paper

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>#|@])")
"""What can start emphasis, code, a link, HTML, a heading, a table cell or a mention (`-`,
`.`, `(` are inert where the export puts text: at the start of a list item's paragraph or
after `> `)."""
_ENTITY = re.compile(r"&(?=#?[0-9A-Za-z]+;)")
"""An `&` that would start an entity (`&amp;`, `&#126;`); any other `&` is plain text."""


def md(text: str) -> str:
    """Text made inert in Markdown: no emphasis, links, HTML, entity or mention syntax. Only
    what needs it is escaped, so that no renderer shows a stray backslash: an `&` only before
    an entity (as `&amp;`), a `~` only when there are two, which GFM could strike through."""
    text = _MARKDOWN_SPECIAL.sub(r"\\\1", " ".join(text.split()))
    text = _ENTITY.sub("&amp;", text)
    return text.replace("~", "\\~") if text.count("~") > 1 else text


@dataclass(frozen=True, slots=True)
class MarkdownLabels:
    """The words a Markdown export uses (in the reader's language)."""

    heading: str
    dated: Callable[[ExportEntry], str]
    """The entry's date line, e.g. `Discussed 2026-11-30, presented by Alice` ('': none)."""
    thread: str
    gone: str
    summary_of: Callable[[Paper], str] | None = None
    """The paper's summary, shown cut to one line (None: no summary line)."""


SUMMARY_CHARS = 200
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s")


def one_line(text: str, limit: int = SUMMARY_CHARS) -> str:
    """The first sentence of `text` when it fits in `limit` characters, else its first words
    up to the limit, with `…`."""
    text = " ".join(text.split())
    first = _SENTENCE_END.split(text, maxsplit=1)[0]
    if len(first) <= limit:
        return first
    cut = first[:limit - 1]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut).rstrip(",;:") + "…"


def _md_title(paper: Paper, title: str) -> str:
    url = safe_url(abs_url(paper))
    return f"**[{md(title)}]({url})**" if url else f"**{md(title)}**"


_BLOCK_START = re.compile(r"^(?:[-+](?=\s|$)|\d{1,9}(?=[.)](?:\s|$)))")
"""What would turn a paragraph into a list item when it starts one (`- x`, `+ x`, `1. x`)."""


def md_paragraph(text: str) -> str:
    """`md`, and safe at the start of a paragraph too (a summary `1. First…` stays text)."""
    inert = md(text)
    start = _BLOCK_START.match(inert)
    if start is None:
        return inert
    at = start.end() if start.group().isdigit() else 0
    return inert[:at] + "\\" + inert[at:]


def _md_item(n: int, entry: ExportEntry, labels: MarkdownLabels,
             title_of: Callable[[Paper], str]) -> list[str]:
    """One numbered item: its title, then each detail as a paragraph of its own, indented to
    stay in the item (CommonMark: the marker's width; python-markdown: at least 4)."""
    paper = entry.paper
    if paper is None:
        head, parts = f"**{md(entry.paper_id)}** ({md(labels.gone)})", []
    else:
        head = _md_title(paper, title_of(paper))
        summary = labels.summary_of(paper) if labels.summary_of else ""
        parts = [md_paragraph(", ".join(paper.authors)) if paper.authors else "",
                 f"*{md(paper.venue.badge())}*" if paper.venue.badge() else "",
                 md_paragraph(one_line(summary)) if summary else ""]
    details = md_paragraph(labels.dated(entry))
    if entry.link:
        details += f" · [{md(labels.thread)}]({safe_url(entry.link)})"
    parts.append(details.removeprefix(" · "))
    quoted = [f"> {md(line)}" for note in entry.notes for line in note.splitlines()
              if line.strip()]
    parts.append("\n".join(quoted))
    marker = f"{n}. "
    indent = " " * max(4, len(marker))
    lines = [marker + head]
    for part in filter(None, parts):
        lines += ["", *(indent + line for line in part.splitlines())]
    return lines


def markdown(entries: Sequence[ExportEntry], labels: MarkdownLabels,
             title_of: Callable[[Paper], str]) -> str:
    """A numbered list: title (linked to its page when known), then as paragraphs of the item:
    authors, venue, a one-line summary, the date (and presenter) and thread, notes quoted."""
    lines = [f"# {md(labels.heading)}", ""]
    for n, entry in enumerate(entries, start=1):
        lines += [*_md_item(n, entry, labels, title_of), ""]
    return "\n".join(lines).rstrip() + "\n"
