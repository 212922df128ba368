"""A source changing under an approved correction, end to end through the stand-in: a reload
of the unchanged listing tells nobody; a reload that changes the corrected field puts one
notice before the curators (old and new source value, the correction, Keep / Drop, nobody
pinged), a second reload none; the correction stays shown meanwhile; after a restart a
curator keeps it (a later change is news again) or drops it (the new source value shows); a
decision whose notice could not be edited is shown by a later tick."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

import pytest

from bot.client.bot import PaperclubBot
from bot.settings import Settings, bundled_catalog, load_settings
from discord_standin import Fault, Guild, Message, StandIn
from domain.corrections import Field, Target
from domain.paper import Paper
from tests.clocks import FakeClock
from tests.e2e.harness import start_paperclub
from tests.e2e.test_corrections import FIXED, _card_text
from tests.e2e.test_digest_crash import _until
from tests.group import People

UPSTREAM, AGAIN = "上游改过的中文标题", "上游又改了一次的标题"


@pytest.fixture
def listing(tmp_path: Path) -> Path:
    """A copy of the bundled listing, the configured catalog (the test edits it)."""
    path = tmp_path / "listing.txt"
    shutil.copy(bundled_catalog(), path)
    return path


@pytest.fixture
def settings(tmp_path: Path, people: People, listing: Path) -> Settings:
    return load_settings(None, {
        "PAPERCLUB_DATABASE__PATH": str(tmp_path / "e2e.db"),
        "PAPERCLUB_CATALOG__PATH": str(listing),
        "PAPERCLUB_DISCORD__SYNC": "global",
        "PAPERCLUB_DISCORD__OWNER_IDS": f"[{people.bob.id}]",
        "PAPERCLUB_DIGEST__TICK_SECONDS": "3600",
        "PAPERCLUB_ARXIV__API_BASE": "http://127.0.0.1:9/api/query",
        "PAPERCLUB_ARXIV__MAX_RETRIES": "0",
    })


def _rewrite(listing: Path, old: str, new: str) -> None:
    text = listing.read_text(encoding="utf-8")
    assert text.count(f"\n{old}\n") == 1
    listing.write_text(text.replace(f"\n{old}\n", f"\n{new}\n"), encoding="utf-8")


async def _reload(standin: StandIn, bot: PaperclubBot, guild: Guild, people: People) -> str:
    handle = await standin.slash("catalog reload", guild=guild, user=people.bob)
    answer = (await handle.followup()).content
    await bot.background_done()
    return answer


def _notices(standin: StandIn, guild: Guild) -> list[Message]:
    return [m for m in standin.messages(guild.channel("papers"))
            if any("corrsrc" in str(c.get("custom_id")) for c in m.walk_components())]


def _button(message: Message, decision: str) -> str:
    (custom_id,) = [str(c["custom_id"]) for c in message.walk_components()
                    if str(c.get("custom_id", "")).endswith(f":{decision}")]
    return custom_id


async def test_a_changed_source_is_told_once_and_decided(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        bundled_papers: list[Paper], settings: Settings, clock: FakeClock,
        listing: Path) -> None:
    paper = bundled_papers[4]
    await (await standin.slash("group corrections", {"channel": guild.channel("papers").id},
                               guild=guild, user=people.bob)).reply()
    service = bot.services.corrections
    made = (await service.propose(guild.id, Target(paper.id, Field.TITLE_ZH), FIXED,
                                  "@everyone **机翻**", people.alice.id)).proposal
    await service.decide(guild.id, made.id, approve=True, by=people.bob.id)
    assert "30 unchanged" in await _reload(standin, bot, guild, people)
    assert _notices(standin, guild) == []  # an unchanged reload tells nobody

    _rewrite(listing, paper.title_zh, UPSTREAM)
    assert "1 updated" in await _reload(standin, bot, guild, people)
    (notice,) = _notices(standin, guild)
    text = json.dumps(notice.embeds, ensure_ascii=False)
    assert f"- {paper.title_zh}" in text and f"+ {UPSTREAM}" in text and FIXED in text
    assert notice.pings.everyone is False and not notice.pings.users and not notice.pings.roles
    assert FIXED in await _card_text(standin, guild, paper, people)  # shown until they decide
    await _reload(standin, bot, guild, people)
    assert len(_notices(standin, guild)) == 1  # told once

    await standin.stop_bot(bot)
    restarted = await start_paperclub(standin, settings, clock)
    try:
        refused = await standin.click(notice, _button(notice, "keep"), user=people.alice)
        assert "Only curators" in (await refused.reply()).content
        kept = await standin.click(notice, _button(notice, "keep"), user=people.bob)
        await kept.response()
        assert "Kept by" in json.dumps(standin.message(notice.id).embeds)
        assert all(c.get("disabled") for c in standin.message(notice.id).walk_components()
                   if "corrsrc" in str(c.get("custom_id")))
        assert FIXED in await _card_text(standin, guild, paper, people)
        history = await standin.slash("corrections history", {"paper": paper.id}, guild=guild,
                                      user=people.carol)
        assert "kept over a changed source" in (await history.reply()).content

        _rewrite(listing, UPSTREAM, AGAIN)  # kept: a later change is news again
        await _reload(standin, restarted, guild, people)
        second = _notices(standin, guild)[-1]
        assert second.id != notice.id and f"- {UPSTREAM}" in json.dumps(
            second.embeds, ensure_ascii=False)
        clicks = await asyncio.gather(*(standin.click(second, _button(second, "drop"),
                                                      user=people.bob) for _ in range(3)))
        answers = [(await click.reply()).content or "" for click in clicks]
        assert sum("already decided" in answer for answer in answers) == 2  # one decision
        assert "Dropped by" in json.dumps(standin.message(second.id).embeds)
        card = await _card_text(standin, guild, paper, people)
        assert AGAIN in card and FIXED not in card
    finally:
        await standin.stop_bot(restarted)


async def test_a_decision_the_notice_could_not_show_is_shown_by_a_later_tick(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        bundled_papers: list[Paper], clock: FakeClock, listing: Path) -> None:
    paper = bundled_papers[4]
    await (await standin.slash("group corrections", {"channel": guild.channel("papers").id},
                               guild=guild, user=people.bob)).reply()
    service = bot.services.corrections
    made = (await service.propose(guild.id, Target(paper.id, Field.TITLE_ZH), FIXED, "",
                                  people.alice.id)).proposal
    await service.decide(guild.id, made.id, approve=True, by=people.bob.id)
    _rewrite(listing, paper.title_zh, UPSTREAM)
    await _reload(standin, bot, guild, people)
    (notice,) = _notices(standin, guild)
    # the click's answer and the edit of the message both fail: the decision is stored
    standin.fail("POST", "/interactions/*/*/callback",
                 Fault.error(404, 10062, "Unknown interaction"))
    standin.fail("PATCH", f"/channels/*/messages/{notice.id}", Fault.missing_permissions())
    await standin.click(notice, _button(notice, "drop"), user=people.bob)

    async def edit_tried() -> bool:
        return bool(standin.requests("PATCH", f"/messages/{notice.id}"))

    await _until(edit_tried, "the click's edit of the notice")
    await bot.background_done()
    assert not any(c.get("disabled") for c in standin.message(notice.id).walk_components())
    assert await bot.services.correction_reviews() == 0  # leased to the click's process
    clock.advance(minutes=6)  # the lease ends: the next tick shows the decision, once
    assert await bot.services.correction_reviews() == 1
    assert "Dropped by" in json.dumps(standin.message(notice.id).embeds)
    assert all(c.get("disabled") for c in standin.message(notice.id).walk_components()
               if "corrsrc" in str(c.get("custom_id")))
    assert await bot.services.correction_reviews() == 0
