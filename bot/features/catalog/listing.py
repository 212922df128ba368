"""Parser for the bilingual paper listing format of the bundled catalog.

The first line is the listing's search query. Each record is, on lines of their own (blank lines
between them are ignored)::

    English title
    Chinese title
    Author One, Author Two
    机构 * English name（中文名） ； Other（其他） 纠错          (optional)
    AI总结 Chinese summary
    Comments free text                                        (optional)
    Journal ref free text                                     (optional)

Records are split around the one line every record has, its `AI总结` summary: the header is the
three lines just before it (four with a `机构` line), and what lies between the previous summary
and that header is the previous record's trailer. So a title that begins with a field word
("Comments on ...") stays a title. An English title wrapped onto two lines is joined when the
split proves it (the record's first line follows the previous record directly and neither half
is CJK); lines that fit no record are rejected with their line number and reason, and never take
a neighbour with them.

The parser streams: it yields each record or error as soon as the record ends, keeping at most a
few lines, so a file of a million papers never sits in memory.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from bot.features.catalog.venue import derive_venue
from domain.paper import Affiliation, Links, Paper
from domain.text import has_cjk, tidy

AFFILIATIONS = "机构"
SUMMARY = "AI总结"
COMMENTS = "Comments"
JOURNAL_REF = "Journal ref"

MAX_TITLE_CHARS = 1000
MAX_FIELD_CHARS = 20_000

_AFFILIATIONS_LABEL = re.compile(r"^机构\s*\*?\s*")
_SUMMARY_LABEL = re.compile(r"^AI总结[\s:：]*")
_TRAILER_LABELS = (
    (COMMENTS, re.compile(r"^Comments(?:\s+|\s*:\s*)")),
    (JOURNAL_REF, re.compile(r"^Journal ref(?:\s+|\s*:\s*)")),
)
# Lines held while waiting for a summary: a trailer (2), a continued title (1), the header (3),
# a 机构 line (1) and one line of context. Beyond that the oldest lines cannot belong to the next
# record and are reported at once.
_MAX_HELD = 10
_KEEP_HELD = 6
_CORRECTION_LINK = re.compile(r"\s*纠错\s*$")
_AFFILIATION_SPLIT = re.compile(r"\s*[；;]\s*")
_AFFILIATION = re.compile(r"^(.*?)\s*[（(]([^（()）]*)[)）]\s*$")
_AUTHOR_SPLIT = re.compile(r"\s*[,，、;；]\s*|\s+and\s+")
_NO_LINKS = Links()
"""What a listing record links to (nothing): one shared instance, as `Links` is immutable."""
SURROGATE = re.compile("[\ud800-\udfff]")
"""Lone surrogates: how `LineReader` passes on bytes that are not valid UTF-8."""


@dataclass(frozen=True, slots=True)
class RecordWarning:
    """Something ignored in a record that still loaded: where, and what."""

    line: int
    reason: str


@dataclass(frozen=True, slots=True)
class ParsedPaper:
    """A record that parsed, with the line it starts on and anything it ignored."""

    line: int
    paper: Paper
    warnings: tuple[RecordWarning, ...] = ()


@dataclass(frozen=True, slots=True)
class RecordError:
    """A record that did not parse: where it starts and why it was rejected."""

    line: int
    reason: str


def split_affiliations(text: str) -> tuple[Affiliation, ...]:
    """Split `A（甲） ； B（乙） 纠错` into affiliations with English and Chinese names."""
    text = _CORRECTION_LINK.sub("", text)
    result = []
    for raw in _AFFILIATION_SPLIT.split(text):
        part = tidy(raw)
        if not part:
            continue
        match = _AFFILIATION.match(part)
        if match and match.group(2).strip():
            result.append(Affiliation(en=tidy(match.group(1)), zh=tidy(match.group(2))))
        else:
            result.append(Affiliation(en=part))
    return tuple(result)


def split_authors(text: str) -> tuple[str, ...]:
    """Split an authors line on commas (ASCII or full-width) and a final `and`."""
    names = _AUTHOR_SPLIT.split(text)
    if tidy(text) != text:  # else every name is tidy already: the separators take the spaces
        names = [tidy(name) for name in names]
    return tuple(filter(None, names))


Line = tuple[int, str]
"""A non-blank line: its 1-based number and its stripped text."""


def _value(pattern: re.Pattern[str], text: str) -> str | None:
    match = pattern.match(text)
    return text[match.end() :] if match else None


def _trailer_of(text: str) -> tuple[str, str] | None:
    """`(name, value)` when the line reads as a `Comments` or `Journal ref` line."""
    for name, pattern in _TRAILER_LABELS:
        value = _value(pattern, text)
        if value is not None:
            return name, value
    return None


def _is_summary(text: str) -> bool:
    return text.startswith(SUMMARY)  # what `_SUMMARY_LABEL` matches, at a third of its cost


def _is_affiliations(text: str) -> bool:
    return text.startswith(AFFILIATIONS)  # what `_AFFILIATIONS_LABEL` matches


def _label_like(text: str) -> bool:
    return _is_summary(text) or _is_affiliations(text) or _trailer_of(text) is not None


def _trailer_run(lines: list[Line]) -> int:
    """How many leading lines are trailer lines (each field at most once)."""
    seen: set[str] = set()
    for _, text in lines[:2]:
        label = _trailer_of(text)
        if label is None or label[0] in seen:
            break
        seen.add(label[0])
    return len(seen)


def _joinable(first: str, second: str) -> bool:
    """Whether `first` provably starts an English title that `second` continues."""
    return not (has_cjk(first) or has_cjk(second) or _label_like(first))


def _may_continue(extra: list[Line], at_boundary: bool) -> bool:
    """Whether the line before a header could be the first half of its English title."""
    last = extra[-1][1]
    if has_cjk(last) or _is_affiliations(last):
        return False
    if len(extra) == 1 and at_boundary:
        return True
    if _label_like(last):
        return False
    return len(extra) == 1 or not has_cjk(extra[-2][1])


def _stray_reason(line: Line, trailer: list[Line]) -> str:
    """Why a line that belongs to no record was rejected."""
    text = line[1]
    label = _trailer_of(text)
    seen = {found[0] for _, t in trailer if (found := _trailer_of(t)) is not None}
    if label is not None and label[0] in seen:
        return f"duplicate '{label[0]}' line"
    if _is_summary(text):
        return f"'{SUMMARY}' line without English title, Chinese title and authors before it"
    return f"record has no '{SUMMARY}' summary line"


@dataclass(frozen=True, slots=True)
class _Open:
    """A record whose summary has been read, waiting for its trailer lines."""

    header: tuple[Line, Line, Line]
    affiliations: Line | None
    summary: Line


class ListingParser:
    """Streaming parser; `query` holds the listing's first line once it has been read."""

    def __init__(self) -> None:
        self.query: str | None = None
        self._reset()

    def _reset(self) -> None:
        self._started = False  # the query (or its absence) is settled
        self._after_summary = False  # held lines may begin with the previous record's trailer
        self._open: _Open | None = None
        self._held: list[Line] = []
        self._at_boundary = True  # the first held line directly follows a record or the query
        self._stray_reported = False  # the held lines continue a run already reported

    def parse(self, lines: Iterable[tuple[int, str]]) -> Iterator[ParsedPaper | RecordError]:
        """Parse numbered lines (1-based) into papers and errors, in file order."""
        self._reset()
        held = self._held
        for number, raw in lines:
            text = raw.strip()
            if not text:
                continue
            if text.startswith(SUMMARY):  # `_is_summary`, inline: this runs for every line
                yield from self._at_summary((number, text))
                held = self._held
                continue
            held.append((number, text))
            if len(held) > _MAX_HELD:
                yield from self._overflow()
        yield from self._at_end()

    def _take_query(self, core: list[Line]) -> list[Line]:
        """Before the first record, more lines than a header means the first is the query."""
        if not self._started and len(core) >= 4:
            self.query = core[0][1]
            return core[1:]
        return core

    def _close_open(self, trailer: list[Line]) -> Iterator[ParsedPaper | RecordError]:
        if self._open is not None:
            yield _build(self._open, trailer)
        self._open = None

    def _at_summary(self, summary: Line) -> Iterator[ParsedPaper | RecordError]:
        held = self._held
        affiliations = held[-1] if held and _is_affiliations(held[-1][1]) else None
        core = self._take_query(held[:-1] if affiliations else held)
        run = _trailer_run(core) if self._after_summary else 0
        if len(core) - run == 2 and run and has_cjk(core[run][1]):
            run -= 1  # the last trailer-like line is this record's English title
        body = core[run:]
        if self._is_title(body, affiliations):
            held.append(summary)
            return
        yield from self._close_open(core[:run])
        self._started = self._after_summary = True
        if len(body) < 3:
            where = body[0][0] if body else summary[0]
            found = f"found {len(body)} line(s)" if body else "found none"
            yield RecordError(where, "expected English title, Chinese title and authors "
                                     f"before '{SUMMARY}'; {found}")
        else:
            yield from self._header(body, core[:run], affiliations, summary)
        self._held = []
        self._at_boundary, self._stray_reported = True, False

    def _is_title(self, body: list[Line], affiliations: Line | None) -> bool:
        """Whether an `AI总结` line is a title beginning with that word: it has too few lines
        before it to be a summary, and it can be the record's English or Chinese title."""
        before = len(body) + (affiliations is not None) - (not self._started)  # less the query
        return before <= 1 and bool(self._held or self._started)

    def _header(self, body: list[Line], trailer: list[Line], affiliations: Line | None,
                summary: Line) -> Iterator[RecordError]:
        """Settle the lines before a record's header: a title's first half, or stray lines."""
        extra, (title, title_zh, authors) = body[:-3], body[-3:]
        if len(extra) == 1 and self._at_boundary and _joinable(extra[0][1], title[1]):
            title = (extra[0][0], f"{extra[0][1]} {title[1]}")
        elif extra and _may_continue(extra, self._at_boundary):
            where = extra[-1] if self._stray_reported else extra[0]
            yield RecordError(where[0], f"cannot tell where the record before the '{SUMMARY}' "
                                        f"line at {summary[0]} starts: line {extra[-1][0]} may "
                                        "begin its English title")
            return
        elif extra and not self._stray_reported:
            yield RecordError(extra[0][0], _stray_reason(extra[0], trailer))
        self._open = _Open((title, title_zh, authors), affiliations, summary)

    def _overflow(self) -> Iterator[ParsedPaper | RecordError]:
        """Too many lines without a summary: settle the oldest ones and report them once."""
        held = self._held
        if not self._started:
            self.query = held.pop(0)[1]
            self._started = True
        run = _trailer_run(held) if self._after_summary else 0
        yield from self._close_open(held[:run])
        if not self._stray_reported:
            yield RecordError(held[run][0], _stray_reason(held[run], held[:run]))
        self._after_summary, self._at_boundary, self._stray_reported = False, False, True
        del held[:-_KEEP_HELD]

    def _at_end(self) -> Iterator[ParsedPaper | RecordError]:
        held = self._held
        if not self._started:
            if len(held) == 1:
                self.query = held[0][1]
            elif held:
                yield RecordError(held[0][0], f"record has no '{SUMMARY}' summary line")
            return
        run = _trailer_run(held) if self._after_summary else 0
        yield from self._close_open(held[:run])
        if held[run:] and not self._stray_reported:
            yield RecordError(held[run][0], _stray_reason(held[run], held[:run]))


def _labels(record: _Open, trailer: list[Line]) -> dict[str, Line]:
    """The record's labelled fields by name: their line numbers and values without labels."""
    labels = {SUMMARY: (record.summary[0], _value(_SUMMARY_LABEL, record.summary[1]) or "")}
    if record.affiliations is not None:
        number, text = record.affiliations
        labels[AFFILIATIONS] = (number, _value(_AFFILIATIONS_LABEL, text) or "")
    for number, text in trailer:
        label = _trailer_of(text)
        if label is not None:
            labels[label[0]] = (number, label[1])
    return labels


def _build(record: _Open, trailer: list[Line]) -> ParsedPaper | RecordError:
    (line, title_en), (_, title_zh), (authors_line, authors_text) = record.header
    labelled = _labels(record, trailer)
    for number, text in [*record.header, *labelled.values()]:
        if not text.isprintable() and SURROGATE.search(text):
            return RecordError(number, "line is not valid UTF-8")
        if len(text) > MAX_FIELD_CHARS:
            return RecordError(number, f"line is {len(text):,} characters long")
    if len(title_en) > MAX_TITLE_CHARS:
        return RecordError(line, f"English title is {len(title_en):,} characters long")
    authors = split_authors(authors_text)
    if not authors:
        return RecordError(authors_line, "authors line names no author")
    labels = {name: value for name, (_, value) in labelled.items()}
    comments = tidy(labels.get(COMMENTS, ""))
    journal_ref = tidy(labels.get(JOURNAL_REF, ""))
    paper = Paper(
        title_en=tidy(title_en),
        title_zh=tidy(title_zh),
        authors=authors,
        affiliations=split_affiliations(labels.get(AFFILIATIONS, "")),
        summary_zh=tidy(labels[SUMMARY]),
        comments=comments,
        journal_ref=journal_ref,
        venue=derive_venue(comments, journal_ref),
        links=_NO_LINKS,
    )
    if not paper.key:
        return RecordError(line, "English title has no letters or digits")
    return ParsedPaper(line, paper)
