"""arXiv identifiers in free text: `2401.01234v2`, `hep-th/9901001`, `arXiv:…` and arxiv.org links.

`find_arxiv_ids(text)` returns the normalised ids (old-style subject classes dropped:
`math.GT/0309136` is `math/0309136`, as arXiv itself files it) in order of appearance without
repeats, and the candidates that were meant as ids (an `arXiv:` prefix, an arxiv.org link, or a
bare token of an id's shape) but are not valid, each with why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

NEW_SCHEME_START = 704  # April 2007: the first YYMM.NNNN ids
FIVE_DIGITS_FROM = 1501  # January 2015: the number part grew to five digits
OLD_ARCHIVES = frozenset({
    "acc-phys", "adap-org", "alg-geom", "ao-sci", "astro-ph", "atom-ph", "bayes-an", "chao-dyn",
    "chem-ph", "cmp-lg", "comp-gas", "cond-mat", "cs", "dg-ga", "funct-an", "gr-qc", "hep-ex",
    "hep-lat", "hep-ph", "hep-th", "math", "math-ph", "mtrl-th", "nlin", "nucl-ex", "nucl-th",
    "patt-sol", "physics", "plasm-ph", "q-alg", "q-bio", "quant-ph", "solv-int", "supr-con",
})
"""The archives that had old-style (`archive/YYMMNNN`) ids, before April 2007."""


class IdProblem(StrEnum):
    """Why a candidate is not an arXiv id."""

    TOO_FEW_DIGITS = "too_few_digits"
    TOO_MANY_DIGITS = "too_many_digits"
    BAD_MONTH = "bad_month"
    BEFORE_NEW_SCHEME = "before_new_scheme"
    UNKNOWN_ARCHIVE = "unknown_archive"
    BAD_VERSION = "bad_version"
    NOT_AN_ID = "not_an_id"

    def explain(self) -> str:
        """One English sentence for the command line."""
        return _EXPLAINED[self]


_EXPLAINED = {
    IdProblem.TOO_FEW_DIGITS: "the number after the dot is too short (4 digits before 2015, "
                              "5 since)",
    IdProblem.TOO_MANY_DIGITS: "the number after the dot is too long (4 digits before 2015, "
                               "5 since)",
    IdProblem.BAD_MONTH: "the first four digits must be a year and a month (YYMM)",
    IdProblem.BEFORE_NEW_SCHEME: "ids of the form YYMM.NNNN began in April 2007 (0704)",
    IdProblem.UNKNOWN_ARCHIVE: "not an arXiv archive with old-style ids (such as hep-th/9901001)",
    IdProblem.BAD_VERSION: "versions start at v1",
    IdProblem.NOT_AN_ID: "not an arXiv id (such as 2401.01234 or hep-th/9901001)",
}


@dataclass(frozen=True, slots=True)
class ArxivRef:
    """One arXiv id without its version, and the version asked for (None: the latest)."""

    id: str
    version: int | None = None

    @property
    def versioned(self) -> str:
        """`2401.01234v2`, or the bare id when no version was given."""
        return f"{self.id}v{self.version}" if self.version else self.id


@dataclass(frozen=True, slots=True)
class MalformedId:
    """A candidate that was meant as an id but is not one."""

    text: str
    problem: IdProblem


@dataclass(frozen=True, slots=True)
class IdScan:
    """What a text holds: valid ids (in order, no repeats) and malformed candidates."""

    found: tuple[ArxivRef, ...]
    malformed: tuple[MalformedId, ...]


_NEW = re.compile(r"(\d{2})(\d{2})\.(\d+)(?:v(\d+))?")
_OLD = re.compile(
    r"([a-z]+(?:-[a-z]+)?)(?:\.[A-Za-z]+(?:-[a-z]+)?)?/(\d{2})(\d{2})(\d{3})(?:v(\d+))?")
_TRAILING = ".,;:!?)]}>'\"/"
_CANDIDATES = re.compile(
    r"(?:https?://)?(?:www\.|export\.)?arxiv\.org/(?:abs|pdf|html)/(?P<url>[^\s?#<>\"'|]+)"
    r"|\barxiv\s*:\s*(?P<prefixed>[^\s,;<>\"'|()\[\]]+)"
    r"|(?<![\w/.\-])(?P<old>[a-z]+(?:-[a-z]+)?(?:\.[A-Za-z]+(?:-[a-z]+)?)?/\d{7}(?:v\d+)?)(?![\w/])"
    r"|(?<![\w/.\-])(?P<new>\d{4}\.\d{4,6}(?:v\d+)?)(?![\w/]|\.\d)",
    re.IGNORECASE,
)


def parse_arxiv_id(token: str) -> ArxivRef | IdProblem:
    """One id as written (`2401.01234v2`, `math.GT/0309136`), without prefix or link."""
    new = _NEW.fullmatch(token)
    if new:
        return _new_style(*new.groups())
    old = _OLD.fullmatch(token)
    if old:
        return _old_style(*old.groups())
    return IdProblem.NOT_AN_ID


def _version(text: str | None) -> int | IdProblem | None:
    if text is None:
        return None
    return int(text) if int(text) > 0 else IdProblem.BAD_VERSION


def _new_style(yy: str, mm: str, number: str, version: str | None) -> ArxivRef | IdProblem:
    if not 1 <= int(mm) <= 12:
        return IdProblem.BAD_MONTH
    yymm = int(yy + mm)
    if yymm < NEW_SCHEME_START:
        return IdProblem.BEFORE_NEW_SCHEME
    digits = 5 if yymm >= FIVE_DIGITS_FROM else 4
    if len(number) != digits:
        return IdProblem.TOO_FEW_DIGITS if len(number) < digits else IdProblem.TOO_MANY_DIGITS
    parsed = _version(version)
    if isinstance(parsed, IdProblem):
        return parsed
    return ArxivRef(f"{yy}{mm}.{number}", parsed)


def _old_style(archive: str, yy: str, mm: str, number: str,
               version: str | None) -> ArxivRef | IdProblem:
    if archive.lower() not in OLD_ARCHIVES:
        return IdProblem.UNKNOWN_ARCHIVE
    if not 1 <= int(mm) <= 12:
        return IdProblem.BAD_MONTH
    if int(yy) < 91 and int(yy + mm) >= NEW_SCHEME_START:
        return IdProblem.NOT_AN_ID  # old-style numbering ended in March 2007
    parsed = _version(version)
    if isinstance(parsed, IdProblem):
        return parsed
    return ArxivRef(f"{archive.lower()}/{yy}{mm}{number}", parsed)


def _link_path(path: str) -> str:
    """The id part of an arxiv.org path: no trailing punctuation, `.pdf` or slash."""
    path = path.rstrip(_TRAILING)
    if path.lower().endswith(".pdf"):
        path = path[:-4]
    return path.rstrip(_TRAILING)


_BARE_ATTEMPTS = {
    # a bare token is reported only where it is plainly an id gone wrong: `1234.5678` (no such
    # month) or `word/1234567` (no such archive) are ordinary text
    "new": frozenset({IdProblem.TOO_FEW_DIGITS, IdProblem.TOO_MANY_DIGITS, IdProblem.BAD_VERSION}),
    "old": frozenset({IdProblem.BAD_MONTH, IdProblem.BAD_VERSION}),
}


def find_arxiv_ids(text: str) -> IdScan:
    """Every arXiv id in `text`, normalised, and the malformed candidates with why."""
    found: dict[ArxivRef, None] = {}
    malformed: dict[MalformedId, None] = {}
    for match in _CANDIDATES.finditer(text):
        kind = match.lastgroup or ""
        raw = match.group(kind)
        token = _link_path(raw) if kind == "url" else raw.rstrip(_TRAILING)
        result = parse_arxiv_id(token)
        if isinstance(result, ArxivRef):
            found[result] = None
        elif kind in {"url", "prefixed"} or result in _BARE_ATTEMPTS[kind]:
            malformed[MalformedId(match.group(0).rstrip(_TRAILING), result)] = None
    return IdScan(tuple(found), tuple(malformed))
