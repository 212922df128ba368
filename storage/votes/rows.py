"""Vote and option columns, the live statuses, and row decoding."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.polls import VoteStyle
from domain.reasons import decode_optional
from domain.votes import Vote, VoteOption, VoteStatus
from storage.times import loaded

VOTE_COLUMNS = ("id, guild_id, channel_id, created_by, opened_at, ends_at, status, "
                "message_id, winner, nonce, closed_early, announcement_id, reason, claimed_at, "
                "style")


LIVE = (VoteStatus.OPEN, VoteStatus.CLAIMED)

OPTION_COLUMNS = "position, paper_id, support, suggested_at"


def option_from_row(row: Sequence[Any]) -> VoteOption:
    """An option from its `OPTION_COLUMNS`."""
    return VoteOption(int(row[0]), str(row[1]), int(row[2]), loaded(row[3]))


def vote_from_row(row: Sequence[Any], options: tuple[VoteOption, ...]) -> Vote:
    """A vote from its `VOTE_COLUMNS` and its options."""
    return Vote(
        id=row[0], guild_id=row[1], channel_id=row[2], created_by=row[3],
        opened_at=loaded(row[4]), ends_at=loaded(row[5]), status=VoteStatus(row[6]),
        options=options, message_id=row[7], winner=row[8], nonce=row[9],
        closed_early=bool(row[10]), announcement_id=row[11], reason=decode_optional(row[12]),
        claimed_at=loaded(row[13]) if row[13] else None, style=VoteStyle(row[14]))
