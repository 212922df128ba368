"""JSON Lines form of papers: one normalised record per line, round-tripping exactly."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from bot.core.listing import ParsedPaper, RecordError
from bot.core.models import Affiliation, Paper, Track, Venue
from bot.core.text import tidy
from bot.core.venue import derive_venue

_STR_FIELDS = ("title_en", "title_zh", "summary_zh", "comments", "journal_ref")
_INT_VENUE_FIELDS = ("year", "pages", "figures", "tables")


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
    }


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


def _venue(obj: dict[str, Any], comments: str, journal_ref: str) -> Venue:
    raw = obj.get("venue")
    if raw is None:
        return derive_venue(comments, journal_ref)
    if not isinstance(raw, dict):
        raise ValueError("'venue' must be an object")
    unknown = set(raw) - {"conference", "track", "workshop", "honours", *_INT_VENUE_FIELDS}
    if unknown:
        raise ValueError(f"unknown venue field '{sorted(unknown)[0]}'")
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


def paper_from_dict(obj: Any) -> Paper:
    """Validate a JSON object and build the paper; raises ValueError naming the bad field."""
    if not isinstance(obj, dict):
        raise ValueError("a record must be a JSON object")
    known = {"id", "affiliations", "authors", "venue", *_STR_FIELDS}
    unknown = set(obj) - known
    if unknown:
        raise ValueError(f"unknown field '{sorted(unknown)[0]}'")
    fields = {key: _str(obj, key) for key in _STR_FIELDS}
    if not fields["title_en"]:
        raise ValueError("'title_en' is missing or empty")
    authors = _str_list(obj, "authors")
    raw_affiliations = obj.get("affiliations", [])
    if not isinstance(raw_affiliations, list):
        raise ValueError("'affiliations' must be a list")
    affiliations = []
    for item in raw_affiliations:
        if not isinstance(item, dict) or not isinstance(item.get("en", ""), str) \
                or not isinstance(item.get("zh", ""), str):
            raise ValueError("each affiliation must be an object with string 'en' and 'zh'")
        affiliations.append(Affiliation(en=tidy(item.get("en", "")), zh=tidy(item.get("zh", ""))))
    paper = Paper(
        title_en=fields["title_en"],
        title_zh=fields["title_zh"],
        authors=tuple(authors),
        affiliations=tuple(affiliations),
        summary_zh=fields["summary_zh"],
        comments=fields["comments"],
        journal_ref=fields["journal_ref"],
        venue=_venue(obj, fields["comments"], fields["journal_ref"]),
    )
    if not paper.key:
        raise ValueError("'title_en' has no letters or digits")
    return paper


def parse_jsonl(lines: Iterable[tuple[int, str]]) -> Iterator[ParsedPaper | RecordError]:
    """Parse numbered JSON lines; blank lines are skipped, bad lines become errors."""
    for number, text in lines:
        if not text.strip():
            continue
        try:
            yield ParsedPaper(number, paper_from_dict(json.loads(text)))
        except json.JSONDecodeError as exc:
            yield RecordError(number, f"not valid JSON ({exc.msg} at column {exc.colno})")
        except (ValueError, RecursionError) as exc:
            yield RecordError(number, str(exc))
