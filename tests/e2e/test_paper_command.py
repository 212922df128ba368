"""`/paper`, `/random-paper` and `/catalog` end to end through the local Discord stand-in."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest

from bot.client.bot import PaperclubBot
from bot.features.catalog.jsonl import dumps
from bot.features.catalog.loader import load_catalog
from bot.features.papers.card import EMBED_TOTAL_LIMIT
from bot.features.papers.query import parse_query
from bot.features.papers.search import FirstAnswer, SearchOutcome
from bot.settings import Settings
from bot.shared.lang import Lang
from bot.shared.messages import t
from discord_standin import Fault, Guild, Message, OptionValue, StandIn
from domain.paper import Paper
from tests.clocks import FakeClock
from tests.e2e.harness import start_paperclub
from tests.group import People

GROKKING = "To Grok Grokking: Provable Grokking in Ridge Regression"


def _embed_size(embed: dict[str, object]) -> int:
    fields = embed.get("fields") or []
    assert isinstance(fields, list)
    footer = embed.get("footer") or {}
    assert isinstance(footer, dict)
    return (len(str(embed.get("title", ""))) + len(str(embed.get("description", "")))
            + len(str(footer.get("text", "")))
            + sum(len(f["name"]) + len(f["value"]) for f in fields))


def _assert_within_limits(embed: dict[str, object]) -> None:
    assert len(str(embed.get("title", ""))) <= 256
    assert len(str(embed.get("description", ""))) <= 4096
    fields = embed.get("fields") or []
    assert isinstance(fields, list) and len(fields) <= 25
    for field in fields:
        assert len(field["name"]) <= 256 and len(field["value"]) <= 1024
    assert _embed_size(embed) <= EMBED_TOTAL_LIMIT


def _buttons(message: Message) -> list[dict[str, Any]]:
    """The card's link and abstract buttons (👍 / 👎 / More like this: tests/e2e/test_recommend;
    Suggest a correction: tests/e2e/test_correction_button)."""
    return [c for c in message.walk_components() if c.get("type") == 2
            and not str(c.get("custom_id", "")).startswith(("paperclub:rate:",
                                                            "paperclub:correct:"))]


def _select(message: Message) -> dict[str, Any]:
    (menu,) = [c for c in message.walk_components() if c.get("type") == 3]
    return menu


async def test_commands_are_registered_with_chinese_localisations(
        bot: PaperclubBot, standin: StandIn) -> None:
    commands = {c["name"]: c for c in standin.commands()}
    assert {"paper", "random-paper", "catalog"} <= set(commands)
    paper = commands["paper"]
    assert paper["name_localizations"]["zh-CN"] == "论文"
    assert paper["description_localizations"]["zh-TW"]
    for option in paper["options"]:
        assert option["name_localizations"]["zh-CN"], option["name"]


async def test_paper_grokking_answers_with_its_card(bot: PaperclubBot, standin: StandIn,
                                                    guild: Guild, people: People) -> None:
    handle = await standin.slash("paper", {"query": "grokking"}, guild=guild, user=people.alice)
    card = await handle.answer()
    assert not card.ephemeral
    (embed,) = card.embeds
    assert embed["title"] == GROKKING
    assert "理解Grokking" in embed["description"]
    assert "岭回归" in embed["description"]
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields["Authors"] == "Mingyue Xu, Gal Vardi, Itay Safran"
    assert "Purdue University" in fields["Affiliations"] and "普渡大学" in fields["Affiliations"]
    assert fields["Venue"] == "ICML 2026 · Main track"
    _assert_within_limits(embed)
    (link,) = _buttons(card)
    assert str(link["url"]).startswith("https://arxiv.org/search/?query=To+Grok+Grokking")


async def test_an_arxiv_id_or_link_in_the_catalog_answers_with_its_card(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    """Issue 21: `/paper 2401.01234` said "No paper matches" for a paper in the catalog."""
    before = await standin.slash("paper", {"query": "2401.01234"}, guild=guild, user=people.alice)
    assert (await before.reply()).content.startswith("`2401.01234` is not in the catalog")
    added = await standin.slash("catalog add", {"link": "2401.01234"}, guild=guild,
                                user=people.bob)
    title = (await added.reply()).embeds[0]["title"]
    for typed in ("2401.01234", "2401.01234v1", "arXiv:2401.01234",
                  "https://arxiv.org/abs/2401.01234v1"):
        handle = await standin.slash("paper", {"query": typed}, guild=guild, user=people.alice)
        (embed,) = (await handle.reply()).embeds
        assert embed["title"] == title, typed


async def test_private_answers_are_ephemeral(bot: PaperclubBot, standin: StandIn,
                                             guild: Guild) -> None:
    handle = await standin.slash("paper", {"query": "grokking", "private": True}, guild=guild)
    assert (await handle.reply()).ephemeral


@pytest.mark.parametrize(("locale", "field"), [("zh-CN", "作者"), ("zh-TW", "作者")])
async def test_chinese_locale_sees_chinese_title_first(bot: PaperclubBot, standin: StandIn,
                                                       guild: Guild, locale: str,
                                                       field: str) -> None:
    handle = await standin.slash("paper", {"query": "grokking"}, guild=guild, locale=locale)
    (embed,) = (await handle.reply()).embeds
    assert embed["title"] == ("理解Grokking：嶺迴歸中可證明的Grokking現象" if locale == "zh-TW"
                              else "理解Grokking：岭回归中可证明的Grokking现象")
    assert GROKKING in embed["description"]
    assert embed["fields"][0]["name"] == field


async def test_typo_answers_with_a_correction_note(bot: PaperclubBot, standin: StandIn,
                                                   guild: Guild) -> None:
    handle = await standin.slash("paper", {"query": "grokkng"}, guild=guild)
    (embed,) = (await handle.reply()).embeds
    assert embed["title"] == GROKKING
    assert "Showing results for **grokking**" in embed["description"]


async def test_an_answer_from_any_of_the_words_says_so(bot: PaperclubBot, standin: StandIn,
                                                       guild: Guild) -> None:
    """No catalog paper has every word of `attention is all you need`: the papers shown have
    some of them, and the answer says so rather than passing them off as matches."""
    handle = await standin.slash("paper", {"query": "attention is all you need"}, guild=guild)
    reply = await handle.reply()
    shown = reply.content + " ".join(str(e.get("description", "")) for e in reply.embeds)
    assert "No paper has all of these words: showing papers with some of them." in shown
    exact = await standin.slash("paper", {"query": "grokking ridge"}, guild=guild)
    exact_reply = await exact.reply()
    assert "some of them" not in exact_reply.content + " ".join(
        str(e.get("description", "")) for e in exact_reply.embeds)


async def test_no_match_offers_did_you_mean(bot: PaperclubBot, standin: StandIn,
                                            guild: Guild) -> None:
    nothing = await standin.slash("paper", {"query": "qqqqzzzz"}, guild=guild)
    assert "No paper matches **qqqqzzzz**" in (await nothing.reply()).content
    suggestion = await standin.slash("paper", {"query": "whistleblowr xyzzyq"}, guild=guild)
    content = (await suggestion.reply()).content
    assert (content and "Did you mean" in content) or (await suggestion.reply()).embeds


async def test_no_match_under_filters_names_them(bot: PaperclubBot, standin: StandIn,
                                                 guild: Guild) -> None:
    handle = await standin.slash("paper", {"query": "grokking", "venue": "workshop"},
                                 guild=guild)
    content = (await handle.reply()).content
    assert content.startswith("No paper matches **grokking** among workshop papers.")
    assert "Without the filter: 1 match." in content
    inline = await standin.slash("paper", {"query": "grokking year:2020 author:Vardi"},
                                 guild=guild, locale="zh-TW")
    content = (await inline.reply()).content
    assert "vardi 的論文" in content and "2020 年的論文" in content and "不加篩選：1 篇" in content


@pytest.mark.parametrize("query", ["🤖", "*", '"', "?!.,;:", "author:🤖"])
async def test_a_query_with_no_words_says_so(bot: PaperclubBot, standin: StandIn, guild: Guild,
                                             query: str) -> None:
    handle = await standin.slash("paper", {"query": query}, guild=guild)
    message = await handle.reply()
    assert not message.embeds
    assert "no words to search for" in message.content


async def test_several_matches_page_for_the_asker_only(bot: PaperclubBot, standin: StandIn,
                                                       guild: Guild, people: People) -> None:
    handle = await standin.slash("paper", {"query": "venue:workshop"}, guild=guild,
                                 user=people.alice)
    message = await handle.answer()
    (embed,) = message.embeds
    assert embed["title"] == "More than 10 papers match “venue:workshop”"
    assert embed["footer"]["text"] == "Page 1 of 2+"
    prev, nxt = _buttons(message)
    assert prev["disabled"] is True and not nxt.get("disabled")
    assert len(_select(message)["options"]) == 5

    refused = await standin.click(message, str(nxt["custom_id"]), user=people.bob)
    answer = await refused.reply()
    assert answer.ephemeral and "alice" in answer.content
    assert standin.message(message.id).embeds[0]["footer"]["text"] == "Page 1 of 2+"

    paged = await standin.click(message, str(nxt["custom_id"]), user=people.alice)
    await paged.response()
    assert standin.message(message.id).embeds[0]["footer"]["text"] == "Page 2 of 2+"

    menu = _select(standin.message(message.id))
    first_option = menu["options"][0]
    opened = await standin.select(standin.message(message.id), str(menu["custom_id"]),
                                  [first_option["value"]], user=people.alice)
    await opened.response()
    card = standin.message(message.id).embeds[0]
    assert card["title"].startswith(str(first_option["label"]).rstrip("…"))
    assert any(f["name"] == "Authors" for f in card["fields"])


async def test_a_page_past_the_first_answer_searches_the_whole_list(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The first answer holds 10 results (11 searched for: the list goes on); turning past
    its second page searches the whole list once, whose first 10 are the same papers."""
    search = bot.services.search
    limits: list[int] = []
    run, first = search.search, search.search_first

    async def counted(*args: Any, **kwargs: Any) -> SearchOutcome:
        limits.append(kwargs["limit"])
        return await run(*args, **kwargs)

    async def counted_first(*args: Any, **kwargs: Any) -> FirstAnswer:
        limits.append(kwargs["limit"])
        return await first(*args, **kwargs)

    monkeypatch.setattr(search, "search", counted)
    monkeypatch.setattr(search, "search_first", counted_first)
    handle = await standin.slash("paper", {"query": "venue:workshop"}, guild=guild,
                                 user=people.alice)
    message = await handle.answer()
    assert limits == [11]
    shown = [_select(message)["options"]]
    for page in ("Page 2 of 2+", "Page 3 of 3"):
        turned = await standin.click(standin.message(message.id),
                                     str(_buttons(standin.message(message.id))[1]["custom_id"]),
                                     user=people.alice)
        await turned.response()
        (embed,) = standin.message(message.id).embeds
        assert embed["footer"]["text"] == page
        shown.append(_select(standin.message(message.id))["options"])
    assert embed["title"] == "12 papers match “venue:workshop”"
    assert limits == [11, 50]
    assert _buttons(standin.message(message.id))[1].get("disabled") is True
    whole = await run(parse_query("venue:workshop"), limit=50, guild_id=guild.id)
    assert [o["value"] for page in shown for o in page] == [h.id for h in whole.hits]


@pytest.mark.parametrize(("locale", "lang"), [("zh-CN", Lang.ZH_HANS), ("zh-TW", Lang.ZH_HANT)])
async def test_a_chinese_reader_pages_past_the_first_answer_in_their_language(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People, locale: str,
        lang: Lang) -> None:
    handle = await standin.slash("paper", {"query": "venue:workshop"}, guild=guild,
                                 user=people.alice, locale=locale)
    results = await handle.answer()
    (first,) = results.embeds
    assert first["title"] == t(lang, "results.found_more", n=10, q="venue:workshop")
    assert first["footer"]["text"] == t(lang, "results.page_more", page=1, pages=2)
    footers = [t(lang, "results.page_more", page=2, pages=2),
               t(lang, "results.page", page=3, pages=3)]  # the third searches the whole list
    for footer in footers:
        message = standin.message(results.id)
        turned = await standin.click(message, str(_buttons(message)[1]["custom_id"]),
                                     user=people.alice, locale=locale)
        await turned.response()
        (embed,) = standin.message(results.id).embeds
        assert embed["footer"]["text"] == footer
    assert embed["title"] == t(lang, "results.found", n=12, q="venue:workshop")


async def test_result_buttons_disable_on_timeout(bot: PaperclubBot, standin: StandIn,
                                                 guild: Guild) -> None:
    bot.lists.timeout = 0.2
    handle = await standin.slash("paper", {"query": "venue:workshop"}, guild=guild)
    await handle.response()
    message = await handle.edited(timeout=5)
    controls = [c for c in message.walk_components() if c.get("type") in {2, 3}]
    assert controls and all(c.get("disabled") for c in controls)
    assert len(bot.lists) == 0


async def test_autocomplete_offers_titles_within_limits(bot: PaperclubBot, standin: StandIn,
                                                        guild: Guild) -> None:
    choices = await standin.autocomplete("paper", {"query": "gro"}, focused="query",
                                         guild=guild)
    assert choices and len(choices) <= 25
    assert choices[0]["name"].startswith("To Grok Grokking")
    assert all(len(c["name"]) <= 100 for c in choices)
    chinese = await standin.autocomplete("paper", {"query": "岭回"}, focused="query",
                                         guild=guild)
    assert chinese[0]["name"].startswith("理解Grokking")
    broad = await standin.autocomplete("paper", {"query": "learning"}, focused="query",
                                       guild=guild)
    assert 1 < len(broad) <= 25 and all(len(c["name"]) <= 100 for c in broad)


async def test_choosing_an_autocomplete_value_opens_that_paper(
        bot: PaperclubBot, standin: StandIn, guild: Guild) -> None:
    choices = await standin.autocomplete("paper", {"query": "whistle"}, focused="query",
                                         guild=guild)
    handle = await standin.slash("paper", {"query": choices[0]["value"]}, guild=guild)
    (embed,) = (await handle.reply()).embeds
    assert embed["title"] == "Plausible Deniability Guarantees for Whistleblowers"


async def test_random_paper_and_empty_paper(bot: PaperclubBot, standin: StandIn,
                                            guild: Guild) -> None:
    titles = {p.title_en async for p in bot.services.catalog.papers.iter_papers()}
    no_options: dict[str, OptionValue] = {}
    for command, options in (("random-paper", no_options), ("paper", no_options)):
        handle = await standin.slash(command, options, guild=guild)
        (embed,) = (await handle.reply()).embeds
        assert embed["title"] in titles


async def test_paper_works_in_a_dm(bot: PaperclubBot, standin: StandIn, people: People) -> None:
    handle = await standin.slash("paper", {"query": "蒸馏"}, user=people.alice)
    (embed,) = (await handle.reply()).embeds
    assert embed["title"].startswith("Symbiosis-Inspired Knowledge Distillation")


async def test_catalog_stats(bot: PaperclubBot, standin: StandIn, guild: Guild) -> None:
    handle = await standin.slash("catalog stats", guild=guild)
    (embed,) = (await handle.reply()).embeds
    assert "**30** papers" in embed["description"]
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields["ICML 2026 · Main track"] == "16"
    assert fields["ICML 2026 · Workshop"] == "12"


async def test_catalog_reload_is_for_the_owner_only(bot: PaperclubBot, standin: StandIn,
                                                    guild: Guild, people: People) -> None:
    refused = await standin.slash("catalog reload", guild=guild, user=people.alice)
    answer = await refused.reply()
    assert answer.ephemeral and "owner" in answer.content
    allowed = await standin.slash("catalog reload", guild=guild, user=people.bob)
    followup = await allowed.followup()
    assert "0 added, 0 updated, 30 unchanged" in followup.content
    from_dm = await standin.slash("catalog reload", user=people.alice)
    assert "owner" in (await from_dm.reply()).content


async def test_a_429_on_the_callback_is_survived(bot: PaperclubBot, standin: StandIn,
                                                 guild: Guild) -> None:
    standin.fail("POST", "/interactions/*/callback", Fault.rate_limited(retry_after=0.05))
    handle = await standin.slash("paper", {"query": "grokking"}, guild=guild)
    (embed,) = (await handle.reply()).embeds
    assert embed["title"] == GROKKING
    assert standin.rate_limited == 1


async def test_gateway_reconnect_and_resume_mid_session(bot: PaperclubBot, standin: StandIn,
                                                        guild: Guild) -> None:
    await (await standin.slash("paper", {"query": "grokking"}, guild=guild)).response()
    await standin.reconnect("drop")
    handle = await standin.slash("paper", {"query": "whistleblower"}, guild=guild)
    (embed,) = (await handle.reply()).embeds
    assert embed["title"].startswith("Plausible Deniability")
    assert standin.gateway_stats.resumes >= 1


async def test_unexpected_failure_gets_a_friendly_answer(
        bot: PaperclubBot, standin: StandIn, guild: Guild,
        monkeypatch: pytest.MonkeyPatch) -> None:
    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("database exploded")

    monkeypatch.setattr(bot.services.search, "search_first", broken)
    handle = await standin.slash("paper", {"query": "grokking"}, guild=guild)
    answer = await handle.reply()
    assert answer.ephemeral
    assert "Something went wrong" in answer.content
    assert "exploded" not in answer.content


HOSTILE = "@everyone <@&{role}> ＠here <@{user}> Attack"


async def test_no_mention_can_ping_from_catalog_or_query(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People, tmp_path: Path,
        bundled_papers: list[Paper]) -> None:
    from dataclasses import replace

    title = HOSTILE.format(role=people.admin_role.id, user=people.bob.id)
    evil = replace(bundled_papers[0], title_en=title, title_zh="@everyone 攻击",
                   authors=("@here", f"<@{people.bob.id}>"))
    path = tmp_path / "evil.jsonl"
    path.write_text(dumps(evil) + "\n", encoding="utf-8")
    await load_catalog(bot.services.catalog.papers, path)
    queries = ["Attack everyone", title, "@everyone", f"<@&{people.admin_role.id}> qqqzz"]
    for query in queries:
        handle = await standin.slash("paper", {"query": query}, guild=guild)
        await handle.response()
    await (await standin.slash("random-paper", guild=guild)).response()
    sent = [r for r in standin.requests("POST") if r.json]
    assert sent
    for request in sent:
        body = request.json.get("data", request.json) if isinstance(request.json, dict) else {}
        allowed = body.get("allowed_mentions")
        text = json.dumps(body, ensure_ascii=False)
        if "@everyone" in text or "<@" in text:
            assert allowed is not None and allowed.get("parse") == [], text[:200]
    for channel in guild.channels:
        for message in standin.messages(channel, ephemeral=True):
            assert not message.pings.everyone and not message.pings.roles
            assert not message.pings.users


async def test_random_paper_and_catalog_stats_work_in_a_dm(
        bot: PaperclubBot, standin: StandIn, people: People) -> None:
    random_dm = await standin.slash("random-paper", user=people.alice)
    assert (await random_dm.reply()).embeds
    stats_dm = await standin.slash("catalog stats", user=people.alice)
    (embed,) = (await stats_dm.reply()).embeds
    assert "**30** papers" in embed["description"]


async def test_rejects_of_the_catalog_loaded_at_start_are_logged_and_shown(
        standin: StandIn, settings: Settings, clock: FakeClock, guild: Guild, tmp_path: Path,
        catalog_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    mixed = tmp_path / "mixed.txt"
    good = catalog_path.read_text(encoding="utf-8")
    mixed.write_text(good + "\n\nOrphan\n", encoding="utf-8")
    configured = settings.model_copy(update={"catalog": settings.catalog.model_copy(
        update={"path": mixed})})
    with caplog.at_level(logging.WARNING, logger="bot"):
        paperclub = await start_paperclub(standin, configured, clock)
    try:
        bad_line = len(good.splitlines()) + 2
        assert any(f"line {bad_line}" in r.getMessage() and r.levelno == logging.WARNING
                   for r in caplog.records)
        handle = await standin.slash("catalog stats", guild=guild)
        (embed,) = (await handle.reply()).embeds
        assert f"rejected by the last load: 1 (line {bad_line})" in embed["description"]
    finally:
        await standin.stop_bot(paperclub)


async def test_venue_option_suggests_the_catalogs_venues(bot: PaperclubBot, standin: StandIn,
                                                         guild: Guild) -> None:
    paper = next(c for c in standin.commands() if c["name"] == "paper")
    venue = next(o for o in paper["options"] if o["name"] == "venue")
    assert venue.get("autocomplete") and not venue.get("choices")
    choices = await standin.autocomplete("paper", {"venue": "icml"}, focused="venue",
                                         guild=guild)
    values = [c["value"] for c in choices]
    assert values[:2] == ["ICML", "ICMLCN"]
    everything = [c["value"] for c in await standin.autocomplete(
        "paper", {"venue": ""}, focused="venue", guild=guild)]
    assert everything[:3] == ["main", "workshop", "any"]
    assert "Mechanistic Interpretability" in everything
    mech = await standin.autocomplete("paper", {"venue": "mechan"}, focused="venue", guild=guild)
    assert [c["value"] for c in mech] == ["Mechanistic Interpretability"]
    zh = await standin.autocomplete("paper", {"venue": "work"}, focused="venue", guild=guild,
                                    locale="zh-TW")
    assert zh[0] == {"name": "研討會", "value": "workshop"}
    found = await standin.slash("paper", {"venue": "ICMLCN"}, guild=guild)
    (embed,) = (await found.reply()).embeds
    assert "ICMLCN" in str(embed["fields"])
    workshop = await standin.slash("paper", {"query": "interpretability",
                                             "venue": "Mechanistic Interpretability"},
                                   guild=guild)
    message = await workshop.reply()
    assert message.embeds and "No paper" not in (message.content or "")


async def test_zh_tw_readers_see_the_card_in_traditional(bot: PaperclubBot, standin: StandIn,
                                                         guild: Guild) -> None:
    from opencc import OpenCC

    to_traditional = OpenCC("s2tw")
    handle = await standin.slash("paper", {"query": "嶺迴歸"}, guild=guild, locale="zh-TW")
    (embed,) = (await handle.reply()).embeds
    assert embed["title"].startswith("理解Grokking：嶺迴歸")
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields["會議"] == "ICML 2026 · 主會議"
    texts = [embed["title"], embed["description"], *fields, *fields.values()]
    for text in texts:
        assert to_traditional.convert(text) == text, text
    simplified = await standin.slash("paper", {"query": "岭回归"}, guild=guild, locale="zh-CN")
    (embed,) = (await simplified.reply()).embeds
    assert embed["title"].startswith("理解Grokking：岭回归")
    assert {f["name"]: f["value"] for f in embed["fields"]}["会议"] == "ICML 2026 · 主会"


async def test_zh_tw_result_lists_and_choices_are_traditional(
        bot: PaperclubBot, standin: StandIn, guild: Guild) -> None:
    choices = await standin.autocomplete("paper", {"query": "岭回归"}, focused="query",
                                         guild=guild, locale="zh-TW")
    assert choices and choices[0]["name"].startswith("理解Grokking：嶺迴歸")
    handle = await standin.slash("paper", {"query": "workshop"}, guild=guild, locale="zh-TW")
    (embed,) = (await handle.reply()).embeds
    assert "研討會：" in embed["description"] and "Workshop:" not in embed["description"]


async def test_a_chinese_query_finds_an_english_only_paper_and_says_how(
        bot: PaperclubBot, standin: StandIn, guild: Guild) -> None:
    """`/paper 擴散模型` (Traditional) in a catalog whose only diffusion paper is English-only:
    its card, with the terms read, and the same paper offered by autocomplete."""
    english = Paper(title_en="Sampling Faster from Diffusion Models", title_zh="",
                    authors=("Ada Lovelace",),
                    summary_en="We speed up sampling from diffusion models.")
    await bot.services.catalog.add_papers([english])
    handle = await standin.slash("paper", {"query": "擴散模型"}, guild=guild)
    answer = await handle.reply()
    (embed,) = answer.embeds
    assert embed["title"] == english.title_en
    assert "matched 扩散模型 → diffusion model" in embed["description"]
    choices = await standin.autocomplete("paper", {"query": "扩散模型"}, focused="query",
                                         guild=guild)
    assert [c["value"] for c in choices] == [english.id]


@pytest.mark.parametrize(("refusal", "said"), [
    (discord.Forbidden, "Ask an admin to check paperclub's role"),
    (discord.NotFound, "is gone from Discord")])
async def test_a_discord_refusal_a_member_can_cause_is_a_sentence_with_a_way_forward(
        bot: PaperclubBot, standin: StandIn, guild: Guild, monkeypatch: pytest.MonkeyPatch,
        refusal: type[discord.HTTPException], said: str) -> None:
    """Not Discord's status and code, not "something went wrong on our side"."""
    status = 403 if refusal is discord.Forbidden else 404
    async def refused(*args: object, **kwargs: object) -> None:
        raise refusal(cast(Any, SimpleNamespace(status=status, reason="refused")),
                      {"code": 50013 if status == 403 else 10003, "message": "refused"})

    monkeypatch.setattr(bot.services.search, "search_first", refused)
    handle = await standin.slash("paper", {"query": "grokking"}, guild=guild, locale="en-US")
    answer = await handle.reply()
    assert answer.ephemeral and said in answer.content
    assert "went wrong" not in answer.content and str(status) not in answer.content
