"""Corrections' pure rules: which fields may be corrected and within what limits, a field's
value as text, the overlay of approved corrections applied to a paper, and the diff a curator
reads."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import replace

from bot.shared.messages import Refusal
from domain.arxiv_ids import IdProblem, find_arxiv_ids
from domain.corrections import Field, Proposal, Target
from domain.paper import Affiliation, Paper, Track, Venue
from domain.summaries import GeneratedSummary, SummaryLang
from domain.text import tidy

LIMITS: dict[Field, int] = {
    Field.TITLE_ZH: 300, Field.TITLE_EN: 300, Field.SUMMARY_ZH: 3000, Field.SUMMARY_EN: 3000,
    Field.AUTHORS: 3000,
    Field.AFFILIATION_EN: 300, Field.AFFILIATION_ZH: 300, Field.CONFERENCE: 100,
    Field.YEAR: 4, Field.TRACK: 10, Field.WORKSHOP: 300, Field.HONOURS: 200,
    Field.ARXIV_ID: 40,
}
"""The longest value each field takes, in characters (a modal's field allows at most 4000)."""
REASON_LIMIT = 500
"""The longest reason a member may give."""
OPTIONAL = frozenset({Field.CONFERENCE, Field.YEAR, Field.WORKSHOP, Field.HONOURS,
                      Field.ARXIV_ID, Field.AFFILIATION_ZH})
"""Fields that may be corrected to nothing (a wrong venue removed)."""
YEARS = range(1900, 2101)
_LIST_SEPARATOR = "; "


def current_value(paper: Paper, target: Target) -> str:
    """The field's value on `paper`, as the modal shows it and a correction stores it; a
    Chinese summary the paper only has as generated here is that summary (a correction of it
    proposes the catalog's own, which then wins over the generated one); the English summary
    is the one generated here (or a server's approved correction of it), never the abstract."""
    field = target.field
    if field.positional:
        affiliation = _affiliation(paper, target.position)
        return affiliation.en if field is Field.AFFILIATION_EN else affiliation.zh
    venue = paper.venue
    values: dict[Field, str] = {
        Field.TITLE_ZH: paper.title_zh, Field.TITLE_EN: paper.title_en,
        Field.SUMMARY_ZH: paper.summary_zh or _generated(paper, SummaryLang.ZH_CN),
        Field.SUMMARY_EN: _generated(paper, SummaryLang.EN),
        Field.AUTHORS: _LIST_SEPARATOR.join(paper.authors),
        Field.CONFERENCE: venue.conference or "", Field.YEAR: str(venue.year or ""),
        Field.TRACK: venue.track.value, Field.WORKSHOP: venue.workshop or "",
        Field.HONOURS: _LIST_SEPARATOR.join(venue.honours),
        Field.ARXIV_ID: paper.links.arxiv_id,
    }
    return values[field]


def _generated(paper: Paper, lang: SummaryLang) -> str:
    """The summary in `lang` generated here (or corrected) that `paper` carries ('': none)."""
    return next((made.text for made in paper.generated if made.lang is lang), "")


def _affiliation(paper: Paper, position: int) -> Affiliation:
    if not 0 <= position < len(paper.affiliations):
        raise Refusal("corrections.no_affiliation", count=len(paper.affiliations))
    return paper.affiliations[position]


def checked_value(field: Field, text: str) -> str:
    """A proposed value cleaned as all user input is and checked against the field's rules;
    a `Refusal` says what is wrong."""
    value = tidy(text)
    if len(value) > LIMITS[field]:
        raise Refusal("corrections.too_long", limit=LIMITS[field])
    if not value:
        if field not in OPTIONAL:
            raise Refusal("corrections.empty")
        return value
    if field is Field.YEAR and not (value.isdigit() and int(value) in YEARS):
        raise Refusal("corrections.bad_year")
    if field is Field.TRACK and value not in {track.value for track in Track}:
        raise Refusal("corrections.bad_track")
    if field is Field.ARXIV_ID:
        return _arxiv_id(value)
    if field in (Field.AUTHORS, Field.HONOURS):
        return _LIST_SEPARATOR.join(_items(value))
    return value


def _arxiv_id(value: str) -> str:
    """One arXiv id, written bare, with `arXiv:` or as a link; kept without its version."""
    scan = find_arxiv_ids(value)
    if len(scan.found) == 1 and not scan.malformed:
        return scan.found[0].id
    problem = scan.malformed[0].problem if scan.malformed else IdProblem.NOT_AN_ID
    raise Refusal("corrections.bad_arxiv_id", problem=problem.explain())


def checked_reason(text: str) -> str:
    """A reason, tidied and within `REASON_LIMIT`."""
    reason = tidy(text)
    if len(reason) > REASON_LIMIT:
        raise Refusal("corrections.too_long", limit=REASON_LIMIT)
    return reason


def _items(value: str) -> tuple[str, ...]:
    """A list field's items: split on `;` (or on `,` when there is no `;`)."""
    separator = ";" if ";" in value else ","
    return tuple(item for item in (part.strip() for part in value.split(separator)) if item)


def with_value(paper: Paper, target: Target, value: str) -> Paper:
    """`paper` with one field replaced. The English title changes what is shown, never the
    paper's id: callers keep the id they looked the paper up by (see `overlaid`)."""
    field = target.field
    if field.positional:
        return _with_affiliation(paper, target, value)
    venue_parts = {Field.CONFERENCE, Field.YEAR, Field.TRACK, Field.WORKSHOP, Field.HONOURS}
    if field in venue_parts:
        return replace(paper, venue=_with_venue(paper.venue, field, value))
    if field is Field.AUTHORS:
        return replace(paper, authors=_items(value))
    if field is Field.ARXIV_ID:
        return replace(paper, links=replace(paper.links, arxiv_id=value, arxiv_version=0))
    if field is Field.TITLE_EN:
        return replace(paper, title_en=value, kept_key=paper.key)
    if field is Field.TITLE_ZH:
        return replace(paper, title_zh=value)
    if field is Field.SUMMARY_EN:
        return replace(paper, generated=_with_corrected_summary(paper.generated, value))
    return replace(paper, summary_zh=value)


def _with_corrected_summary(made: tuple[GeneratedSummary, ...],
                            value: str) -> tuple[GeneratedSummary, ...]:
    """The English summary `value`, approved by the server, in place of one generated here
    (the abstract, the authors' own text, is kept as it is)."""
    corrected = GeneratedSummary(SummaryLang.EN, value, model="", corrected=True)
    return (*(summary for summary in made if summary.lang is not SummaryLang.EN), corrected)


def _with_affiliation(paper: Paper, target: Target, value: str) -> Paper:
    if not 0 <= target.position < len(paper.affiliations):
        return paper  # the source dropped that affiliation: nothing to correct any more
    old = paper.affiliations[target.position]
    new = (replace(old, en=value) if target.field is Field.AFFILIATION_EN
           else replace(old, zh=value))
    affiliations = list(paper.affiliations)
    affiliations[target.position] = new
    return replace(paper, affiliations=tuple(affiliations))


def _with_venue(venue: Venue, field: Field, value: str) -> Venue:
    if field is Field.CONFERENCE:
        return replace(venue, conference=value or None)
    if field is Field.YEAR:
        return replace(venue, year=int(value) if value else None)
    if field is Field.TRACK:
        return replace(venue, track=Track(value))
    if field is Field.WORKSHOP:
        return replace(venue, workshop=value or None)
    return replace(venue, honours=_items(value))


def overlaid(paper: Paper, corrections: Iterable[Proposal]) -> Paper:
    """`paper` as a server sees it: each approved correction of it applied, in order."""
    original = paper.id
    for correction in corrections:
        if correction.target.paper_id == original:
            paper = with_value(paper, correction.target, correction.new_value)
    return paper


def diff_text(old: str, new: str) -> str:
    """The change word by word as a `diff` code block's body: `- old` / `+ new` lines, plus a
    line marking only the changed words when both are long enough for that to help."""
    lines = [f"- {old}" if old else "- (empty)", f"+ {new}" if new else "+ (empty)"]
    changed = _changed_words(old, new)
    if changed and len(old) > 80:
        lines.append(f"! {changed}")
    return "\n".join(lines)


def _changed_words(old: str, new: str) -> str:
    """The words `new` has that `old` lacked, in order ('' when nothing was only changed)."""
    before, after = old.split(), new.split()
    matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
    added = [" ".join(after[j1:j2]) for tag, _, _, j1, j2 in matcher.get_opcodes()
             if tag in ("replace", "insert")]
    return " … ".join(added)
