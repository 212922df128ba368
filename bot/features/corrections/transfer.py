"""Corrections to and from a file (JSON Lines), without Discord: a server's approved corrections
exported with the paper, its arXiv id, the field, the value, the source's value, the reason and
when (never who: no member id leaves the server), and such a file applied to a server as
approved corrections attributed to "import". A line that cannot be read is reported with its
number and reason, and its neighbours still apply."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC
from typing import Any, Protocol

from bot.features.corrections.rules import LIMITS, checked_reason, checked_value
from bot.features.corrections.service import CorrectionService
from bot.features.corrections.source_watch import source_value
from bot.features.corrections.store import CorrectionStore
from bot.shared.clock import Clock, utc_now
from bot.shared.messages import Refusal
from domain.corrections import Field, NewProposal, Proposal, Status
from domain.paper import Paper
from domain.text import tidy

LINE_LIMIT = 20_000
"""The longest line read, in bytes (the longest field is far shorter)."""
EXPORT_LIMIT = 1_000_000
IMPORT_ACTOR = 0
"""`NewProposal.proposed_by` of an imported correction: not stored (it is shown as "import")."""
_TEXT_LIMIT = 4000
"""The longest id or reason read (a reason is then held to the proposal form's limit)."""


class TransferCatalog(Protocol):
    """The source records by id or arXiv id (`PaperStore`)."""

    async def get(self, public_id: str) -> Paper | None:
        """A paper by its public id, or None."""
        ...

    async def by_link(self, *, arxiv_id: str = "", doi: str = "") -> Paper | None:
        """A paper by its arXiv id (or DOI), or None."""
        ...


class BadLine(ValueError):
    """A line that is not a correction (the message says why)."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of a corrections file."""

    paper_id: str
    arxiv_id: str
    field: Field
    position: int
    value: str
    reason: str


@dataclass(slots=True)
class ImportReport:
    """What an import did: the corrections applied, the lines skipped and the lines that could
    not be read, each with its line number and why."""

    applied: list[Proposal] = field(default_factory=list)
    skipped: list[tuple[int, str]] = field(default_factory=list)
    malformed: list[tuple[int, str]] = field(default_factory=list)


def export_record(correction: Proposal, paper: Paper | None) -> dict[str, Any]:
    """One approved correction as an export line's object (no member id)."""
    at = correction.decided_at or correction.created_at
    return {"paper_id": correction.target.paper_id,
            "arxiv_id": paper.links.arxiv_id if paper else "",
            "field": correction.target.field.value, "position": correction.target.position,
            "value": correction.new_value, "source_value": correction.source_value,
            "reason": correction.reason, "at": at.astimezone(UTC).isoformat()}


def parse_line(raw: bytes) -> Entry:
    """A line's correction, or `BadLine` saying what is wrong with it."""
    if len(raw) > LINE_LIMIT:
        raise BadLine(f"longer than {LINE_LIMIT:,} bytes")
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise BadLine("not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise BadLine(f"not JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(data, dict):
        raise BadLine("not a JSON object")
    try:
        target = Field(_text(data, "field", required=True))
    except ValueError:
        raise BadLine(f"unknown field (one of {', '.join(f.value for f in Field)})") from None
    position = data.get("position", 0)
    if not isinstance(position, int) or isinstance(position, bool) or not 0 <= position < 100:
        raise BadLine("position is not a number from 0 to 99")
    paper_id, arxiv_id = _text(data, "paper_id"), _text(data, "arxiv_id")
    if not paper_id and not arxiv_id:
        raise BadLine("no paper_id or arxiv_id")
    value = _text(data, "value", required=True, limit=LIMITS[target] * 2)
    return Entry(paper_id, arxiv_id, target, position if target.positional else 0, value,
                 _text(data, "reason"))


def _text(data: dict[str, Any], key: str, *, required: bool = False,
          limit: int = _TEXT_LIMIT) -> str:
    value = data.get(key)
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        raise BadLine(f"{key} is {'missing' if value is None else 'not a string'}")
    if len(value) > limit:
        raise BadLine(f"{key} is longer than {limit:,} characters")
    return value if key in ("value", "reason") else tidy(value)


class CorrectionTransfer:
    """Export a server's approved corrections; import a file's as approved ones."""

    def __init__(self, store: CorrectionStore, corrections: CorrectionService,
                 papers: TransferCatalog, clock: Clock = utc_now) -> None:
        self._store = store
        self._corrections = corrections
        self._papers = papers
        self._clock = clock

    async def export(self, guild_id: int) -> list[dict[str, Any]]:
        """The server's approved corrections, oldest decision first (an import in that order
        ends with the same overlay)."""
        approved = await self._store.proposals(guild_id, status=Status.APPROVED,
                                               limit=EXPORT_LIMIT)
        approved.sort(key=lambda p: (p.decided_at or p.created_at, p.id))
        return [export_record(p, await self._papers.get(p.target.paper_id)) for p in approved]

    async def import_lines(self, guild_id: int, lines: Iterable[bytes]) -> ImportReport:
        """Apply each line as an approved correction, in order: skipped when its paper is not
        in the catalog or the server already shows its value; reported when malformed."""
        report = ImportReport()
        for number, raw in enumerate(lines, start=1):
            if not raw.strip():
                continue
            try:
                entry = parse_line(raw.strip())
                paper = await self._paper(entry)
                if paper is None:
                    report.skipped.append((number, "the paper is not in the catalog"))
                    continue
                applied = await self._apply(guild_id, entry, paper)
            except (BadLine, Refusal) as exc:
                report.malformed.append((number, str(exc)))
                continue
            if applied is None:
                report.skipped.append((number, "already applied"))
            else:
                report.applied.append(applied)
        return report

    async def _paper(self, entry: Entry) -> Paper | None:
        if entry.paper_id and (paper := await self._papers.get(entry.paper_id)) is not None:
            return paper
        return await self._papers.by_link(arxiv_id=entry.arxiv_id) if entry.arxiv_id else None

    async def _apply(self, guild_id: int, entry: Entry, paper: Paper) -> Proposal | None:
        draft = await self._corrections.draft(guild_id, paper.id, entry.field, entry.position)
        value = checked_value(entry.field, entry.value)
        if value == draft.value:
            return None
        at = self._clock()
        return await self._store.import_approved(NewProposal(
            guild_id, draft.target, draft.value, value, checked_reason(entry.reason),
            IMPORT_ACTOR, at), source_value(paper, draft.target))
