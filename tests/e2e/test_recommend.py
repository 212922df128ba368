"""Recommendations end to end through the stand-in: 👍 / 👎 and "More like this" on a card,
working after a restart; `/recommend` for a member and the group in en / zh-CN / zh-TW, never
a paper the member bookmarked or turned down; `/forget-me` deletes the 👍 / 👎."""

from __future__ import annotations

import pytest

from bot.client.bot import PaperclubBot
from bot.features.papers.results import titles_in_order
from bot.graphs.catalog import open_configured
from bot.settings import Settings
from bot.shared.lang import Lang
from discord_standin import Guild, Message, StandIn
from domain.paper import Paper
from storage import backend as stores
from tests.clocks import FakeClock
from tests.e2e.group_steps import answer
from tests.e2e.harness import start_paperclub
from tests.group import People

TEXTS = {
    "en-US": ("Noted: fewer like", "Noted: more like", "More like", "Recommended for you",
              "like *", "Recommended for the group"),
    "zh-CN": ("已记下：少推荐", "已记下：多推荐", "类似《", "为你推荐", "与你收藏的", "为小组推荐"),
    "zh-TW": ("已記下：少推薦", "已記下：多推薦", "類似《", "為你推薦", "與你收藏的", "為小組推薦"),
}


def _rate_buttons(message: Message) -> dict[str, str]:
    """action -> custom id of the card's 👍 / 👎 / More like this buttons."""
    found = {}
    for c in message.walk_components():
        custom = str(c.get("custom_id", ""))
        if custom.startswith("paperclub:rate:"):
            found[custom.rsplit(":", 1)[1]] = custom
    return found


@pytest.mark.parametrize("locale", ["en-US", "zh-CN", "zh-TW"])
async def test_card_feedback_survives_a_restart_and_recommend_answers_in_each_language(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People, settings: Settings,
        clock: FakeClock, bundled_papers: list[Paper], locale: str) -> None:
    down, up, similar, mine, reason, group = TEXTS[locale]
    grok = next(p for p in bundled_papers if "Grokking" in p.title_en)
    liked = [p for p in bundled_papers if p.id != grok.id][:3]
    for paper in liked:
        await answer(standin, "bookmark", {"paper": paper.id}, guild=guild, user=people.alice)
    asked = await standin.slash("paper", {"query": "grokking"}, guild=guild, user=people.alice)
    card = await asked.answer()
    buttons = _rate_buttons(card)
    assert set(buttons) == {"up", "down", "more"}
    turned_down = await standin.click(card, buttons["down"], user=people.alice,
                                      locale=locale)
    reply = await turned_down.reply()
    assert reply.ephemeral and down in reply.content
    title = titles_in_order(grok, locale != "en-US", Lang.from_locale(locale))[0]
    assert title in reply.content  # the reader's title: Traditional characters for zh-TW

    await standin.stop_bot(bot)
    restarted = await start_paperclub(standin, settings, clock)
    again = await standin.click(card, buttons["down"], user=people.carol, locale=locale)
    assert down in (await again.reply()).content
    more = await standin.click(card, buttons["more"], user=people.alice, locale=locale)
    listing = await more.reply()
    assert listing.ephemeral and similar in listing.embeds[0]["title"]
    assert title in listing.embeds[0]["title"]
    assert listing.embeds[0]["description"].count("`") == 10  # five ids, each in backticks

    handle = await standin.slash("recommend", {"count": 10}, guild=guild, user=people.alice,
                                 locale=locale)
    answered = await handle.reply()
    (embed,) = answered.embeds
    assert embed["title"] == mine and reason in embed["description"]
    shown = {p.id for p in bundled_papers if f"`{p.id}`" in embed["description"]}
    assert len(shown) == 10
    assert not shown & ({grok.id} | {p.id for p in liked})
    together = await standin.slash("recommend", {"for": "group"}, guild=guild, user=people.bob,
                                   locale=locale)
    assert (await together.reply()).embeds[0]["title"] == group
    liked_now = await standin.click(card, buttons["up"], user=people.alice,
                                    locale=locale)
    assert up in (await liked_now.reply()).content

    await answer(standin, "forget-me", guild=None, user=people.alice)
    db = await open_configured(settings.database)
    try:
        signals = await stores.RECOMMENDATIONS.open(db).signals(guild.id)
    finally:
        await db.close()
    assert all(s.user_id != people.alice.id for s in signals)
    assert any(s.user_id == people.carol.id for s in signals)
    await standin.stop_bot(restarted)


async def test_recommend_with_no_signals_says_what_to_do(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    handle = await standin.slash("recommend", guild=guild, user=people.alice)
    assert "Nothing to go on yet" in (await handle.reply()).content
    dm = await standin.slash("recommend", user=people.alice)
    assert "only in a server" in (await dm.reply()).content
