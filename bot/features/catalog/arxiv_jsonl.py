"""arXiv's own metadata records in JSON Lines, read as catalog papers.

arXiv's public metadata snapshot (the Kaggle "Cornell-University/arxiv" dump) writes one object
a line with `id`, `title`, `abstract`, `authors` (one string, `A, B and C`, LaTeX accents
included), `authors_parsed`, `categories` (space-separated), `comments`, `journal-ref`, `doi`,
`versions` and `update_date`. Other dumps use `arxiv_id` and lists for `authors` and
`categories` (`../shared/realworld/arxiv-metadata/arxiv-sample.jsonl`). Both read here into the
same `Paper` an arXiv API answer gives (`bot.features.adding.arxiv_atom`): the title with the
wrapping collapsed and LaTeX as Unicode, the id without its version, so a paper keeps one
identity whichever way it arrived and the loader's identity and merge rules apply as to every
other record. The abstract is kept as arXiv wrote it, as paperclub's own JSON Lines keep
`summary_en` (LaTeX is rendered for display only: converting 11k abstracts cost 2 ms each).
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any

from bot.features.catalog.venue import derive_venue
from bot.features.papers.latex_display import latex_to_display
from domain.arxiv_ids import ArxivRef, parse_arxiv_id
from domain.paper import Links, Paper
from domain.text import tidy

KNOWN_FIELDS = frozenset({
    "id", "arxiv_id", "title", "abstract", "authors", "authors_parsed", "categories",
    "comments", "journal-ref", "doi", "versions", "update_date", "submitter", "report-no",
    "license", "listing_date",
})
"""arXiv's field names (and the sample's `arxiv_id` and `listing_date`, the day of the listing
it was crawled from, which is no date of the paper's and so is not kept)."""
_AND = re.compile(r",?\s+and\s+|\s*,\s*")
_VERSION = re.compile(r"v(\d+)")


def is_arxiv_record(obj: dict[str, Any]) -> bool:
    """True for an object in arXiv's field names: a `title` and no paperclub `title_en`."""
    return "title" in obj and "title_en" not in obj


def holds_arxiv_metadata(path: Path) -> bool:
    """True when the file's first record is in arXiv's field names (`is_arxiv_record`)."""
    with path.open(encoding="utf-8", errors="replace") as handle:
        for line in handle:
            if line.strip():
                try:
                    obj = json.loads(line.removeprefix("\ufeff"))
                except (json.JSONDecodeError, RecursionError):
                    return False
                return isinstance(obj, dict) and is_arxiv_record(obj)
    return False


def _text(obj: dict[str, Any], key: str) -> str:
    value = obj.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ValueError(f"'{key}' must be a string")
    return value


def _names(obj: dict[str, Any], key: str) -> list[str]:
    """A list of strings, or one string of names separated by commas, spaces or ` and `."""
    value = obj.get(key)
    if value is None:
        return []
    if isinstance(value, str):
        pieces = _AND.split(value) if key == "authors" else value.split()
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        pieces = value
    else:
        raise ValueError(f"'{key}' must be a string or a list of strings")
    return [name for name in (latex_to_display(p) for p in pieces) if name]


def _parsed_authors(obj: dict[str, Any]) -> list[str] | None:
    """`authors_parsed` (`[last, first, suffix]` each) as `first last suffix`, if well formed."""
    value = obj.get("authors_parsed")
    if not isinstance(value, list) or not value or not all(
            isinstance(item, list) and item and all(isinstance(p, str) for p in item)
            for item in value):
        return None
    names = [tidy(" ".join([*item[1:2], item[0], *item[2:]])) for item in value]
    return [name for name in names if name] or None


def _ref(obj: dict[str, Any]) -> ArxivRef:
    raw = _text(obj, "arxiv_id") or _text(obj, "id")
    parsed = parse_arxiv_id(raw.strip())
    if not isinstance(parsed, ArxivRef):
        raise ValueError(f"'id' is not an arXiv id: {raw[:40]!r}")
    return parsed


def _versions(obj: dict[str, Any]) -> tuple[int, datetime | None]:
    """The last version's number and the first version's date from `versions`."""
    value = obj.get("versions")
    if not isinstance(value, list) or not value:
        return 0, None
    numbers = [int(m.group(1)) for v in value if isinstance(v, dict)
               and (m := _VERSION.fullmatch(str(v.get("version", ""))))]
    first = value[0].get("created") if isinstance(value[0], dict) else None
    try:
        published = parsedate_to_datetime(first).astimezone(UTC) if first else None
    except (TypeError, ValueError):
        published = None
    return max(numbers, default=0), published


def _day(obj: dict[str, Any], key: str) -> datetime | None:
    text = _text(obj, key).strip()
    if not text:
        return None
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"'{key}' must be a date such as 2026-07-01") from None
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def read_arxiv_record(obj: dict[str, Any]) -> tuple[Paper, list[str]]:
    """The paper of one arXiv metadata object, with warnings for the fields it ignored.

    Raises ValueError naming the bad field.
    """
    warnings = [f"unknown field '{key}' ignored" for key in sorted(set(obj) - KNOWN_FIELDS)]
    title = latex_to_display(_text(obj, "title"))
    if not title:
        raise ValueError("'title' is missing or empty")
    ref = _ref(obj)
    authors = _names(obj, "authors")
    version, published = _versions(obj)
    comments, journal_ref = tidy(_text(obj, "comments")), tidy(_text(obj, "journal-ref"))
    paper = Paper(
        title_en=title, title_zh="",
        authors=tuple(_parsed_authors(obj) or authors),
        comments=comments, journal_ref=journal_ref,
        venue=derive_venue(comments, journal_ref),
        summary_en=_text(obj, "abstract").strip(),
        links=Links(arxiv_id=ref.id, arxiv_version=version or ref.version or 0,
                    doi=tidy(_text(obj, "doi")),
                    categories=tuple(_names(obj, "categories")),
                    published=published, updated=_day(obj, "update_date")),
    )
    return paper, warnings
