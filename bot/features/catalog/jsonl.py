"""JSON Lines form of papers: one normalised record per line, round-tripping exactly."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from typing import Any

from bot.features.catalog.arxiv_jsonl import is_arxiv_record, read_arxiv_record
from bot.features.catalog.listing import (
    MAX_FIELD_CHARS,
    MAX_TITLE_CHARS,
    SURROGATE,
    ParsedPaper,
    RecordError,
    RecordWarning,
)
from bot.features.catalog.listing_writer import affiliations_text, authors_text
from bot.features.catalog.venue import derive_venue
from domain.paper import Affiliation, Links, Paper, Track, Venue
from domain.text import tidy

_STR_FIELDS = ("title_en", "title_zh", "summary_zh", "comments", "journal_ref")
_INT_VENUE_FIELDS = ("year", "pages", "figures", "tables")
_VENUE_FIELDS = {"conference", "track", "workshop", "honours", *_INT_VENUE_FIELDS}
_LINK_STR_FIELDS = ("arxiv_id", "doi", "url", "pdf_url")
_LINK_FIELDS = {*_LINK_STR_FIELDS, "arxiv_version", "categories", "published", "updated"}
_FIELDS = {"id", "affiliations", "authors", "venue", "summary_en", *_STR_FIELDS, *_LINK_FIELDS,
           "ai_summaries"}
"""Fields read (`id` and `ai_summaries` are for readers: known, and ignored on import)."""


def paper_to_dict(paper: Paper) -> dict[str, Any]:
    """The record's JSON object; `id` is included for readers and ignored on import."""
    venue = paper.venue
    return {
        "id": paper.id,
        "title_en": paper.title_en,
        "title_zh": paper.title_zh,
        "authors": list(paper.authors),
        "affiliations": [{"en": a.en, "zh": a.zh} for a in paper.affiliations],
        "summary_zh": paper.summary_zh,
        "comments": paper.comments,
        "journal_ref": paper.journal_ref,
        "venue": {
            "conference": venue.conference,
            "year": venue.year,
            "track": venue.track.value,
            "workshop": venue.workshop,
            "honours": list(venue.honours),
            "pages": venue.pages,
            "figures": venue.figures,
            "tables": venue.tables,
        },
        **_links_to_dict(paper),
        **_generated_to_dict(paper),
    }


def _generated_to_dict(paper: Paper) -> dict[str, Any]:
    """The AI summaries made here (when attached), apart from the catalog's own text and
    labelled as such: each with its language and model, never checked by anyone (`checked`
    only for a server's approved correction of one). Ignored on import (they are made again
    where wanted)."""
    if not paper.generated:
        return {}
    return {"ai_summaries": [{"lang": str(made.lang), "model": made.model, "text": made.text,
                              "checked": made.corrected} for made in paper.generated]}


def _time_text(value: datetime | None) -> str | None:
    return value.astimezone(UTC).isoformat() if value is not None else None


def _links_to_dict(paper: Paper) -> dict[str, Any]:
    """The English abstract (raw, as arXiv gave it) and the links, each only when known: a
    record without them reads as it did before they existed."""
    links = paper.links
    values: dict[str, Any] = {
        "summary_en": paper.summary_en,
        **{key: getattr(links, key) for key in _LINK_STR_FIELDS},
        "arxiv_version": links.arxiv_version,
        "categories": list(links.categories),
        "published": _time_text(links.published),
        "updated": _time_text(links.updated),
    }
    return {key: value for key, value in values.items() if value not in ("", 0, [], None)}


def _time(obj: dict[str, Any], key: str) -> datetime | None:
    value = obj.get(key)
    if value is None:
        return None
    try:
        when = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        when = None
    if when is None:
        raise ValueError(f"'{key}' must be an ISO 8601 time or null")
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def _links(obj: dict[str, Any]) -> Links:
    version = obj.get("arxiv_version", 0)
    if isinstance(version, bool) or not isinstance(version, int) or version < 0:
        raise ValueError("'arxiv_version' must be a whole number, 0 when unknown")
    return Links(
        arxiv_id=_str(obj, "arxiv_id"), arxiv_version=version, doi=_str(obj, "doi"),
        url=_str(obj, "url"), pdf_url=_str(obj, "pdf_url"),
        categories=tuple(_str_list(obj, "categories")),
        published=_time(obj, "published"), updated=_time(obj, "updated"),
    )


def _raw_str(obj: dict[str, Any], key: str) -> str:
    """A string kept exactly as given (the English abstract: normalised only for display)."""
    value = obj.get(key, "")
    if not isinstance(value, str):
        raise ValueError(f"'{key}' must be a string")
    return value


def dumps(paper: Paper) -> str:
    """One JSON line (UTF-8 text kept readable, no trailing newline)."""
    return json.dumps(paper_to_dict(paper), ensure_ascii=False)


def _str(obj: dict[str, Any], key: str) -> str:
    value = obj.get(key, "")
    if not isinstance(value, str):
        raise ValueError(f"'{key}' must be a string")
    return tidy(value)


def _str_list(obj: dict[str, Any], key: str) -> list[str]:
    value = obj.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"'{key}' must be a list of strings")
    return [tidy(v) for v in value if tidy(v)]


def _unknown(obj: dict[str, Any], known: set[str], prefix: str = "") -> list[str]:
    """Warnings for the object's fields that paperclub does not know (they are ignored)."""
    return [f"unknown field '{prefix}{key}' ignored" for key in sorted(set(obj) - known)]


def _venue(obj: dict[str, Any], comments: str, journal_ref: str) -> Venue:
    raw = obj.get("venue")
    if raw is None:
        return derive_venue(comments, journal_ref)
    if not isinstance(raw, dict):
        raise ValueError("'venue' must be an object")
    ints: dict[str, int | None] = {}
    for key in _INT_VENUE_FIELDS:
        value = raw.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise ValueError(f"'venue.{key}' must be an integer or null")
        ints[key] = value
    text: dict[str, str | None] = {}
    for key in ("conference", "workshop"):
        value = raw.get(key)
        if value is not None and not isinstance(value, str):
            raise ValueError(f"'venue.{key}' must be a string or null")
        text[key] = tidy(value) or None if value is not None else None
    try:
        track = Track(raw.get("track", Track.UNKNOWN.value))
    except ValueError:
        raise ValueError("'venue.track' must be one of main, workshop, unknown") from None
    return Venue(
        conference=text["conference"],
        year=ints["year"],
        track=track,
        workshop=text["workshop"],
        honours=tuple(h.lower() for h in _str_list(raw, "honours")),
        pages=ints["pages"],
        figures=ints["figures"],
        tables=ints["tables"],
    )


def _affiliations(obj: dict[str, Any]) -> tuple[Affiliation, ...]:
    raw = obj.get("affiliations", [])
    if not isinstance(raw, list):
        raise ValueError("'affiliations' must be a list")
    result = []
    for item in raw:
        if not isinstance(item, dict) or not isinstance(item.get("en", ""), str) \
                or not isinstance(item.get("zh", ""), str):
            raise ValueError("each affiliation must be an object with string 'en' and 'zh'")
        result.append(Affiliation(en=tidy(item.get("en", "")), zh=tidy(item.get("zh", ""))))
    return tuple(result)


def _check_lengths(paper: Paper) -> None:
    """The listing's limits: raises ValueError naming the first field that is too long."""
    fields = {
        "title_zh": paper.title_zh,
        "authors": authors_text(paper.authors),
        "affiliations": affiliations_text(paper.affiliations) if paper.affiliations else "",
        "summary_zh": paper.summary_zh,
        "comments": paper.comments,
        "journal_ref": paper.journal_ref,
        "summary_en": paper.summary_en,
    }
    limits = {"title_en": MAX_TITLE_CHARS} | dict.fromkeys(fields, MAX_FIELD_CHARS)
    for key, text in {"title_en": paper.title_en, **fields}.items():
        if len(text) > limits[key]:
            raise ValueError(f"'{key}' is {len(text):,} characters long "
                             f"(limit {limits[key]:,})")


def read_record(obj: Any) -> tuple[Paper, list[str]]:
    """Validate a JSON object and build the paper, with warnings for the fields it ignored.

    An object in arXiv's own field names (`title`, `abstract`, `journal-ref`, ...) is read as
    arXiv metadata (`arxiv_jsonl`). Raises ValueError naming the bad field.
    """
    if not isinstance(obj, dict):
        raise ValueError("a record must be a JSON object")
    if is_arxiv_record(obj):
        paper, warnings = read_arxiv_record(obj)
        _check_lengths(paper)
        if not paper.key:
            raise ValueError("'title' has no letters or digits")
        return paper, warnings
    warnings = _unknown(obj, _FIELDS)
    fields = {key: _str(obj, key) for key in _STR_FIELDS}
    if not fields["title_en"]:
        raise ValueError("'title_en' is missing or empty")
    venue = obj.get("venue")
    if isinstance(venue, dict):
        warnings += _unknown(venue, _VENUE_FIELDS, "venue.")
    paper = Paper(
        title_en=fields["title_en"],
        title_zh=fields["title_zh"],
        authors=tuple(_str_list(obj, "authors")),
        affiliations=_affiliations(obj),
        summary_zh=fields["summary_zh"],
        comments=fields["comments"],
        journal_ref=fields["journal_ref"],
        venue=_venue(obj, fields["comments"], fields["journal_ref"]),
        summary_en=_raw_str(obj, "summary_en"),
        links=_links(obj),
    )
    _check_lengths(paper)
    if not paper.key:
        raise ValueError("'title_en' has no letters or digits")
    return paper, warnings


def paper_from_dict(obj: Any) -> Paper:
    """Validate a JSON object and build the paper; raises ValueError naming the bad field."""
    return read_record(obj)[0]


def _parse_line(number: int, text: str) -> ParsedPaper | RecordError:
    if SURROGATE.search(text):
        return RecordError(number, "line is not valid UTF-8")
    try:
        paper, warnings = read_record(json.loads(text))
    except json.JSONDecodeError as exc:
        return RecordError(number, f"not valid JSON ({exc.msg} at column {exc.colno})")
    except (ValueError, RecursionError) as exc:
        return RecordError(number, str(exc))
    return ParsedPaper(number, paper, tuple(RecordWarning(number, w) for w in warnings))


def parse_jsonl(lines: Iterable[tuple[int, str]]) -> Iterator[ParsedPaper | RecordError]:
    """Parse numbered JSON lines; blank lines are skipped, bad lines become errors.

    Ignored unknown fields are reported in each `ParsedPaper.warnings`.
    """
    for number, text in lines:
        if text.strip():
            yield _parse_line(number, text)
