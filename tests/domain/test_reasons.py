"""Reason codes: compact JSON in a column, legacy sentences as text, today's English wording."""

from __future__ import annotations

import pytest

from bot.shared.lang import Lang
from bot.shared.messages import render_reason
from domain.reasons import Reason, ReasonCode, from_discord, text_reason

NO_PERMISSION = Reason(ReasonCode.NO_PERMISSION)
PAUSED = Reason(ReasonCode.PAUSED_AFTER_FAILURES, {"count": 3}, NO_PERMISSION)


def test_a_nested_reason_survives_encoding() -> None:
    assert PAUSED.encode() == ('{"cause":{"code":"no_permission"},"code":'
                               '"paused_after_failures","params":{"count":3}}')
    assert Reason.decode(PAUSED.encode()) == PAUSED


@pytest.mark.parametrize("stored", ["the bot cannot see the channel", "[1]", '{"code":"nope"}'])
def test_anything_else_in_the_column_decodes_as_text(stored: str) -> None:
    assert Reason.decode(stored) == text_reason(stored)
    assert render_reason(Lang.EN, Reason.decode(stored)) == stored


@pytest.mark.parametrize(("status", "code", "expected"), [
    (404, 10003, ReasonCode.CHANNEL_MISSING),
    (403, 50001, ReasonCode.NO_ACCESS),
    (403, 50013, ReasonCode.NO_PERMISSION),
    (500, 0, ReasonCode.DISCORD_ERROR),
])
def test_discord_codes_map_to_reasons(status: int, code: int, expected: ReasonCode) -> None:
    assert from_discord(status, code).code is expected


@pytest.mark.parametrize(("reason", "sentence"), [
    (PAUSED, "paused after 3 failures in a row; last: the bot lacks permission to post or "
             "open threads there (50013)"),
    (from_discord(429, 0), "Discord answered 429 (no code)"),
    (from_discord(400, 30046), "Discord answered 400 (30046)"),
    (Reason(ReasonCode.NO_THREAD, cause=from_discord(404, 10003)),
     "no discussion thread: the channel no longer exists (10003)"),
    (Reason(ReasonCode.OFFLINE_PAST_GRACE, {"grace_minutes": 90}),
     "bot was offline at the due time (more than 90 minutes late)"),
    (Reason(ReasonCode.OFFLINE_PAST_GRACE, {"grace_minutes": 120}),
     "bot was offline at the due time (more than 2 hours late)"),
])
def test_english_keeps_todays_sentences(reason: Reason, sentence: str) -> None:
    assert render_reason(Lang.EN, reason) == sentence


def test_equal_reasons_hash_alike() -> None:
    again = Reason(ReasonCode.PAUSED_AFTER_FAILURES, {"count": 3}, NO_PERMISSION)
    assert list(dict.fromkeys([PAUSED, again, NO_PERMISSION])) == [PAUSED, NO_PERMISSION]
