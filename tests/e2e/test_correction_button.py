"""A card's "Suggest a correction" end to end through the stand-in: a click on a card posted
before a restart asks which field, the choice opens the form prefilled with that field's value,
sending it posts the curators' review, and an approval shows on `/paper` at once."""

from __future__ import annotations

import json

from bot.client.bot import PaperclubBot
from bot.settings import Settings
from discord_standin import Guild, Message, StandIn
from domain.paper import Paper
from tests.clocks import FakeClock
from tests.e2e.harness import start_paperclub
from tests.group import People

FIXED = "基于岭回归的顿悟现象更准确的中文标题"


def _component(message: Message, prefix: str) -> dict[str, object]:
    (found,) = [c for c in message.walk_components()
                if str(c.get("custom_id", "")).startswith(prefix)]
    return found


async def _card(standin: StandIn, guild: Guild | None, paper: Paper, people: People
                ) -> Message:
    handle = await standin.slash("paper", {"query": paper.id}, guild=guild, user=people.alice,
                                 locale="zh-CN")
    return await handle.answer()


async def _found(standin: StandIn, guild: Guild, people: People) -> str:
    """What `/paper` with the correction's own new words shows a Chinese reader."""
    handle = await standin.slash("paper", {"query": "更准确的中文标题"}, guild=guild,
                                 user=people.bob, locale="zh-CN")
    reply = await handle.reply()
    return json.dumps([reply.content, reply.embeds], ensure_ascii=False)


async def test_the_card_button_opens_the_prefilled_form_and_the_review_follows(
        standin: StandIn, guild: Guild, people: People, bundled_papers: list[Paper],
        settings: Settings, clock: FakeClock) -> None:
    paper = next(p for p in bundled_papers if p.affiliations and p.title_zh)
    bot = await start_paperclub(standin, settings, clock)
    try:
        await (await standin.slash("group corrections", {"channel": guild.channel("papers").id},
                                   guild=guild, user=people.bob)).reply()
        card = await _card(standin, guild, paper, people)
        button = _component(card, "paperclub:correct:")
        assert button["custom_id"] == f"paperclub:correct:{paper.id}"
        assert button["label"] == "建议纠错"
    finally:
        await standin.stop_bot(bot)
    bot = await start_paperclub(standin, settings, clock)  # the card was posted before this
    try:
        clicked = await standin.click(card, f"paperclub:correct:{paper.id}", user=people.alice,
                                      locale="zh-CN")
        asked = await clicked.reply()
        assert asked.ephemeral and "哪里有误" in asked.content
        assert clicked.message is not None
        menu = _component(clicked.message, "paperclub:correct-field:")
        options = {str(o["value"]): o for o in menu["options"]}  # type: ignore[attr-defined]
        assert options["title_zh:0"]["label"] == "中文标题"
        assert options["title_zh:0"]["description"] == paper.title_zh[:100]
        assert len(options) <= 25 and "affiliation_en:0" in options
        opened = await standin.select(clicked.message, str(menu["custom_id"]), ["title_zh:0"],
                                      user=people.alice)
        await opened.response()
        assert opened.modal is not None
        (prefilled,) = [c.get("value", "") for row in opened.modal["components"]
                        for c in row["components"] if c["custom_id"] == "value"]
        assert prefilled == paper.title_zh
        sent = await standin.submit_modal(opened, {"value": FIXED, "reason": "@everyone 译错了"})
        assert "sent to the curators" in (await sent.reply()).content
        review = standin.messages(guild.channel("papers"))[-1]
        text = json.dumps(review.embeds, ensure_ascii=False)
        assert f"- {paper.title_zh}" in text and f"+ {FIXED}" in text
        assert review.pings.everyone is False
        approve = _component(review, "paperclub:correction:1:approve")
        await (await standin.click(review, str(approve["custom_id"]), user=people.bob)).response()
        shown = await _card(standin, guild, paper, people)
        assert FIXED in json.dumps(shown.embeds, ensure_ascii=False)
        assert FIXED in await _found(standin, guild, people)  # by its new words, at once
        reload = await standin.slash("catalog reload", guild=guild, user=people.bob)
        assert "30 unchanged" in (await reload.followup()).content
        assert FIXED in await _found(standin, guild, people)
        other = await standin.add_guild(Guild("elsewhere", members=[people.alice, people.bob]))
        assert FIXED not in json.dumps((await _card(standin, other, paper, people)).embeds,
                                       ensure_ascii=False)
        assert FIXED not in await _found(standin, other, people)
        # a rejected proposal changes nothing
        card = await _card(standin, guild, paper, people)
        clicked = await standin.click(card, f"paperclub:correct:{paper.id}", user=people.alice)
        await clicked.response()
        assert clicked.message is not None
        opened = await standin.select(clicked.message, f"paperclub:correct-field:{paper.id}",
                                      ["title_zh:0"], user=people.alice)
        await opened.response()
        sent = await standin.submit_modal(opened, {"value": "错的标题", "reason": ""})
        assert "sent to the curators" in (await sent.reply()).content
        review = standin.messages(guild.channel("papers"))[-1]
        reject = _component(review, "paperclub:correction:2:reject")
        await (await standin.click(review, str(reject["custom_id"]), user=people.bob)).response()
        shown = await _card(standin, guild, paper, people)
        assert FIXED in json.dumps(shown.embeds, ensure_ascii=False)
        assert "错的标题" not in json.dumps(shown.embeds, ensure_ascii=False)
        in_dm = await _card(standin, None, paper, people)
        assert FIXED not in json.dumps(in_dm.embeds, ensure_ascii=False)
        refused = await standin.click(in_dm, f"paperclub:correct:{paper.id}", user=people.alice)
        assert "only in a server" in (await refused.reply()).content
    finally:
        await standin.stop_bot(bot)
    bot = await start_paperclub(standin, settings, clock)
    try:
        assert FIXED in json.dumps((await _card(standin, guild, paper, people)).embeds,
                                   ensure_ascii=False)
        assert FIXED in await _found(standin, guild, people)
    finally:
        await standin.stop_bot(bot)


async def test_a_card_opened_from_a_result_list_suggests_a_correction_too(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    listed = await standin.slash("paper", {"query": "learning"}, guild=guild, user=people.alice)
    results = await listed.answer()
    (menu,) = [c for c in results.walk_components() if c.get("type") == 3]
    chosen = str(menu["options"][0]["value"])
    opened = await standin.select(results, str(menu["custom_id"]), [chosen], user=people.alice)
    await opened.response()
    card = standin.message(results.id)
    (correct,) = [c for c in card.walk_components()
                  if c.get("type") == 2 and c.get("label") == "Suggest a correction"]
    clicked = await standin.click(card, str(correct["custom_id"]), user=people.alice)
    assert "What is wrong in" in (await clicked.reply()).content
    assert clicked.message is not None
    assert _component(clicked.message, "paperclub:correct-field:")["custom_id"] == \
        f"paperclub:correct-field:{chosen}"
