"""Result lists stay small: they keep paper ids, not papers, and only so many stay live."""

from __future__ import annotations

import gc
from collections.abc import Sequence

import discord
import pytest

from bot.client.bot import PaperclubBot
from bot.client.ui.live import LiveLists
from bot.features.papers.answer import FIRST_ANSWER
from bot.features.papers.card_view import card_for, card_view
from bot.features.papers.results import PER_PAGE
from bot.features.papers.results_view import ResultList
from bot.shared.lang import Lang
from discord_standin import Guild, Message, StandIn
from domain.paper import Paper
from storage.papers import rows
from tests.group import People


def _lists(bot: PaperclubBot) -> list[ResultList]:
    """The live result lists, least recently used first."""
    return [live for live in bot.lists if isinstance(live, ResultList)]


def _controls_disabled(message: Message, standin: StandIn) -> bool:
    stored = standin.message(message.id)
    controls = [c for c in stored.walk_components() if c.get("type") in {2, 3}
                and not c.get("url")]
    assert controls
    return all(c.get("disabled") for c in controls)


async def test_a_result_list_holds_ids_not_papers(bot: PaperclubBot, standin: StandIn,
                                                   guild: Guild, people: People) -> None:
    handle = await standin.slash("paper", {"query": "venue:workshop"}, guild=guild,
                                 user=people.alice)
    await handle.answer()
    (view,) = _lists(bot)
    assert len(view.paper_ids) == FIRST_ANSWER  # of 12: the rest are searched when needed
    held = [getattr(view, name) for name in ResultList.__slots__]
    assert not any(isinstance(value, Paper) for value in held)
    assert not any(isinstance(value, list | tuple) and any(isinstance(v, Paper) for v in value)
                   for value in held)


async def test_a_live_list_does_not_keep_its_interaction_alive(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    """What a live list keeps is what the garbage collector walks again after every lookup:
    the interaction it answered (its payload, member and parsed message) is not part of it."""
    answered = []
    for query in ("venue:workshop", "learning", "venue:main"):
        handle = await standin.slash("paper", {"query": query}, guild=guild, user=people.alice)
        await handle.answer()
        answered.append(handle.id)
    await standin.settle()
    assert len(bot.lists) == 3
    gc.collect()
    alive = {o.id for o in gc.get_objects() if isinstance(o, discord.Interaction)}
    assert alive.isdisjoint(answered)


async def test_beyond_the_cap_the_least_recently_used_list_is_forgotten_without_an_edit(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    """Only a burst of lookups fills the registry: forgetting a list sends nothing then (an
    edit per lookup would double what the burst costs); a click on it later greys it out and
    says so."""
    bot.lists.cap = 2
    lists = []
    for query in ("venue:workshop", "learning", "venue:main"):
        handle = await standin.slash("paper", {"query": query}, guild=guild, user=people.alice)
        lists.append(await handle.answer())
    await standin.settle()
    assert len(bot.lists) == 2 and standin.requests("PATCH") == []
    assert [_controls_disabled(m, standin) for m in lists] == [False, False, False]
    turned = await standin.click(lists[2], _button(lists[2], "▶"), user=people.alice)
    assert (await turned.reply()).embeds
    forgotten = await standin.click(lists[0], _button(lists[0], "▶"), user=people.alice)
    await forgotten.response()
    assert "no longer live" in ((await forgotten.followup()).content or "")
    assert _controls_disabled(lists[0], standin)


async def test_the_first_page_shows_the_search_hits_without_reading_them_again(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`/paper`'s first answer reads nothing beyond its search; a page turned to is read then."""
    search = bot.services.search
    reads: list[Sequence[str]] = []
    read = search.papers

    async def counted(public_ids: Sequence[str], guild_id: int | None = None) -> list[Paper]:
        reads.append(public_ids)
        return await read(public_ids, guild_id)

    monkeypatch.setattr(search, "papers", counted)
    handle = await standin.slash("paper", {"query": "venue:workshop"}, guild=guild,
                                 user=people.alice)
    results = await handle.answer()
    first = results.embeds[0]
    assert first["footer"]["text"] == "Page 1 of 2+" and reads == []
    nxt = [c for c in results.walk_components() if c.get("type") == 2][1]
    paged = await standin.click(results, str(nxt["custom_id"]), user=people.alice)
    await paged.response()
    assert len(reads) == 1 and len(reads[0]) == 5


async def test_a_result_list_knows_its_message_without_asking_for_it(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    """Discord's answer to the callback carries the message: no GET of the original response
    (one request per lookup fewer), and the list can still grey itself out when it expires."""
    bot.lists.timeout = 0.2
    first = await standin.slash("paper", {"query": "venue:workshop"}, guild=guild,
                                user=people.alice)
    await first.response()
    assert _controls_disabled(await first.edited(timeout=5), standin)
    assert standin.requests("GET", "/messages/@original") == []


async def test_the_first_answer_builds_only_the_papers_it_shows(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A list of 12 holds its first answer's 10 ids and builds the 5 papers of its first page
    from the search's rows (building a paper from its row cost ~11 µs, 0.5 ms for 50)."""
    built: list[str] = []
    build = rows.paper_from_row

    def counted(row: Sequence[object]) -> Paper:
        paper = build(row)
        built.append(paper.id)
        return paper

    monkeypatch.setattr(rows, "paper_from_row", counted)
    handle = await standin.slash("paper", {"query": "venue:workshop"}, guild=guild,
                                 user=people.alice)
    await handle.answer()
    (view,) = _lists(bot)
    assert len(view.paper_ids) == FIRST_ANSWER and built == list(view.paper_ids[:PER_PAGE])


def _button(message: Message, label: str) -> str:
    return next(str(c["custom_id"]) for c in message.walk_components()
                if c.get("type") == 2 and c.get("label") == label)


async def test_only_the_member_who_searched_turns_the_pages(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    handle = await standin.slash("paper", {"query": "venue:workshop"}, guild=guild,
                                 user=people.alice)
    results = await handle.answer()
    refused = await standin.click(results, _button(results, "▶"), user=people.bob)
    answer = await refused.response()
    assert answer.ephemeral and "alice" in str(answer.raw)
    turned = await standin.click(results, _button(results, "▶"), user=people.alice)
    assert (await turned.reply()).embeds[0]["footer"]["text"] == "Page 2 of 2+"


async def test_a_list_no_longer_live_greys_out_when_clicked_and_says_so(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    """After a restart (or once forgotten) a list's buttons still reach the bot: the click
    greys them out and tells the member to search again, instead of failing silently."""
    handle = await standin.slash("paper", {"query": "venue:workshop"}, guild=guild,
                                 user=people.alice)
    results = await handle.answer()
    bot.lists = LiveLists(bot.background.spawn)  # what a restarted bot knows of its lists
    clicked = await standin.click(results, _button(results, "▶"), user=people.alice)
    await clicked.response()
    notice = await clicked.followup()
    assert notice.ephemeral and "no longer live" in (notice.content or "")
    assert _controls_disabled(results, standin)


async def test_a_sent_list_leaves_no_controls_for_the_garbage_collector(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    """A list's view and its items refer to each other; once sent they are let go at once
    (`bot.client.respond.sending`), so the collector that pauses the bot finds none of them."""
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for query in ("venue:workshop", "learning", "grokking"):  # two lists and a card
            handle = await standin.slash("paper", {"query": query}, guild=guild,
                                         user=people.alice)
            await handle.answer()
        gc.collect()
        left = [o for o in gc.garbage if isinstance(o, discord.ui.View | discord.ui.Item)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert left == []


async def test_a_card_opened_from_a_list_has_every_card_control(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    """A card picked in "Open a paper…" carries what the same paper's own card carries
    (👍 / 👎 / 🔎, the correction's, its links), besides the way back to the list."""
    handle = await standin.slash("paper", {"query": "venue:workshop"}, guild=guild,
                                 user=people.alice)
    results = await handle.answer()
    menu = next(c for c in results.walk_components() if c.get("type") == 3)
    paper_id = str(menu["options"][0]["value"])
    opened = await standin.select(results, str(menu["custom_id"]), [paper_id],
                                  user=people.alice)
    await opened.response()
    shown = standin.message(results.id)
    ids = {str(c.get("custom_id") or c.get("url")) for c in shown.walk_components()
           if c.get("type") == 2}
    paper = await bot.services.search.paper(paper_id, guild.id)
    assert paper is not None
    own = {str(getattr(i, "custom_id", None) or getattr(i, "url", None))
           for i in card_view(card_for(paper, Lang.EN)).children}
    assert {f"paperclub:rate:{paper_id}:{action}" for action in ("up", "down", "more")} <= ids
    assert own <= ids
