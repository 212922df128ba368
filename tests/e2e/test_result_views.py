"""Result lists stay small: they keep paper ids, not papers, and only so many stay live."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import pytest

from bot.client.bot import PaperclubBot
from bot.features.papers.cog import FIRST_ANSWER, PapersCog
from bot.features.papers.results import PER_PAGE
from bot.features.papers.results_view import ResultsView
from discord_standin import Guild, InteractionHandle, StandIn
from domain.paper import Paper
from storage.papers import rows
from tests.group import People


def _cog(bot: PaperclubBot) -> PapersCog:
    cog = bot.get_cog("PapersCog")
    # the class of the module the bot loaded as its extension (each load executes it afresh)
    assert isinstance(cog, bot.extensions["bot.features.papers.cog"].PapersCog)
    return cast(PapersCog, cog)


def _controls_disabled(handle: InteractionHandle, standin: StandIn) -> bool:
    assert handle.message is not None
    stored = standin.message(handle.message.id)
    controls = [c for c in stored.walk_components() if c.get("type") in {2, 3}
                and not c.get("url")]
    assert controls
    return all(c.get("disabled") for c in controls)


async def test_a_result_list_holds_ids_not_papers(bot: PaperclubBot, standin: StandIn,
                                                   guild: Guild, people: People) -> None:
    handle = await standin.slash("paper", {"query": "venue:workshop"}, guild=guild,
                                 user=people.alice)
    await handle.response()
    (view,) = [v for v in bot._views if isinstance(v, ResultsView)]
    assert len(view.paper_ids) == FIRST_ANSWER  # of 12: the rest are searched when needed
    held = list(vars(view).values())
    assert not any(isinstance(value, Paper) for value in held)
    assert not any(isinstance(value, list | tuple) and any(isinstance(v, Paper) for v in value)
                   for value in held)


async def test_beyond_the_cap_the_oldest_list_is_disabled_first(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    _cog(bot).live.cap = 2
    handles = []
    for query in ("venue:workshop", "learning", "venue:main"):
        handle = await standin.slash("paper", {"query": query}, guild=guild, user=people.alice)
        await handle.response()
        handles.append(handle)
    await handles[0].edited(timeout=5)
    assert [_controls_disabled(h, standin) for h in handles] == [True, False, False]
    assert len(_cog(bot).live) == 2
    nxt = [c for c in handles[2].message.walk_components()  # type: ignore[union-attr]
           if c.get("type") == 2][1]
    paged = await standin.click(handles[2].message, str(nxt["custom_id"]),  # type: ignore[arg-type]
                                user=people.alice)
    await paged.response()


async def test_the_oldest_list_is_greyed_out_only_after_the_new_answer_is_sent(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The edit that greys out the evicted list starts once the new list's answer has reached
    Discord, so building and sending it never delays the answer the member is waiting for."""
    _cog(bot).live.cap = 1
    newest: list[InteractionHandle] = []
    answered_first: list[bool] = []
    disable = ResultsView.disable

    async def recorded(view: ResultsView) -> None:
        answered_first.append(newest[-1].callback is not None)
        await disable(view)

    monkeypatch.setattr(ResultsView, "disable", recorded)
    for query in ("venue:workshop", "learning"):
        newest.append(await standin.slash("paper", {"query": query}, guild=guild,
                                          user=people.alice))
        await newest[-1].response()
    await newest[0].edited(timeout=5)
    assert answered_first == [True]
    assert _controls_disabled(newest[0], standin) and not _controls_disabled(newest[1], standin)


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
    first = (await handle.response()).embeds[0]
    assert first["footer"]["text"] == "Page 1 of 2+" and reads == []
    assert handle.message is not None
    nxt = [c for c in handle.message.walk_components() if c.get("type") == 2][1]
    paged = await standin.click(handle.message, str(nxt["custom_id"]), user=people.alice)
    await paged.response()
    assert len(reads) == 1 and len(reads[0]) == 5


async def test_a_result_list_knows_its_message_without_asking_for_it(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    """Discord's answer to the callback carries the message: no GET of the original response
    (one request per lookup fewer), and the list can still grey itself out."""
    _cog(bot).live.cap = 1
    first = await standin.slash("paper", {"query": "venue:workshop"}, guild=guild,
                                user=people.alice)
    await first.response()
    second = await standin.slash("paper", {"query": "learning"}, guild=guild, user=people.alice)
    await second.response()
    await first.edited(timeout=5)
    assert _controls_disabled(first, standin)
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
    await handle.response()
    (view,) = [v for v in bot._views if isinstance(v, ResultsView)]
    assert len(view.paper_ids) == FIRST_ANSWER and built == list(view.paper_ids[:PER_PAGE])
