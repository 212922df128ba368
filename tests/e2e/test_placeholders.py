"""A deferred answer lands where it was meant to: Discord fills a deferral's "thinking…"
placeholder with the first followup and keeps the placeholder's visibility whatever the
followup asks, so an answer of the other visibility replaces the placeholder instead."""

from __future__ import annotations

import sqlite3

import pytest

from bot.client.bot import PaperclubBot
from bot.settings import Settings
from bot.shared.messages import Refusal
from discord_standin import CallbackType, Guild, MessageFlag, StandIn
from domain.paper import Paper
from tests.group import People


async def test_a_public_answer_after_a_private_write_wait_is_posted_in_the_channel(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        settings: Settings, bundled_papers: list[Paper]) -> None:
    other = sqlite3.connect(settings.database.path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # another process writing: the bot defers, privately
        handle = await standin.slash("suggest", {"paper": bundled_papers[0].id}, guild=guild,
                                     user=people.alice)
        first = await handle.response()
        assert first.type == CallbackType.DEFERRED_CHANNEL_MESSAGE
        assert int(first.raw["data"]["flags"]) & MessageFlag.EPHEMERAL
        other.execute("COMMIT")
        posted = await handle.answer()
    finally:
        other.close()
    assert not posted.flags & MessageFlag.EPHEMERAL
    assert "suggested" in posted.content
    assert handle.message is not None and handle.message.deleted  # the private "thinking…"
    assert posted.id in {m.id for m in standin.messages(guild.channel("general"))}


async def test_a_private_answer_after_a_public_deferral_is_private(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        monkeypatch: pytest.MonkeyPatch) -> None:
    async def refused(*args: object, **kwargs: object) -> None:
        raise Refusal("adding.none_found")

    monkeypatch.setattr(bot.services.adding, "add_scanned", refused)
    handle = await standin.slash("catalog add", {"link": "arXiv:2401.00001"}, guild=guild,
                                 user=people.bob)
    first = await handle.response()
    assert first.type == CallbackType.DEFERRED_CHANNEL_MESSAGE  # arXiv may take seconds
    assert not int((first.raw.get("data") or {}).get("flags") or 0) & MessageFlag.EPHEMERAL
    refusal = await handle.answer()
    assert refusal.flags & MessageFlag.EPHEMERAL
    assert refusal.content == str(Refusal("adding.none_found"))
    assert handle.message is not None and handle.message.deleted  # the public "thinking…"
