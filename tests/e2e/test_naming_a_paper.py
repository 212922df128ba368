"""Every option that names a paper takes what `/paper` takes (the one resolver,
`bot.features.papers.lookup`): an id, an arXiv id in any form, a DOI, an exact title in either
script; several papers are choices, and a guess is never taken."""

from __future__ import annotations

import dataclasses

import pytest

from bot.client.bot import PaperclubBot
from discord_standin import Guild, StandIn
from domain.corrections import Field, Target
from domain.paper import Links, Paper
from tests.group import People

ARXIV_ID = "2601.04321"


async def _with_arxiv(bot: PaperclubBot, papers: list[Paper]) -> Paper:
    """A bundled paper (with a Chinese title) that arXiv also lists."""
    listed = next(p for p in papers if p.title_zh)
    [outcome] = await bot.services.catalog.add_papers([dataclasses.replace(
        listed, links=Links(arxiv_id=ARXIV_ID, arxiv_version=1))])
    return outcome.paper


def _references(paper: Paper) -> list[str]:
    return [paper.id, paper.title_en, paper.title_zh, ARXIV_ID, f"arXiv:{ARXIV_ID}v1",
            f"https://arxiv.org/abs/{ARXIV_ID}"]


@pytest.mark.parametrize("form", range(6))
async def test_corrections_propose_takes_any_name_of_a_paper(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        bundled_papers: list[Paper], form: int) -> None:
    paper = await _with_arxiv(bot, bundled_papers)
    opened = await standin.slash("corrections propose",
                                 {"paper": _references(paper)[form], "field": "title_zh"},
                                 guild=guild, user=people.alice)
    await opened.response()
    assert opened.modal is not None, opened
    (prefilled,) = [c.get("value", "") for row in opened.modal["components"]
                    for c in row["components"] if c["custom_id"] == "value"]
    assert prefilled == paper.title_zh
    sent = await standin.submit_modal(opened, {"value": "更好的标题", "reason": ""})
    assert "correction #1 is saved" in (await sent.reply()).content


async def test_corrections_history_by_title_finds_the_papers_corrections(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        bundled_papers: list[Paper]) -> None:
    paper = await _with_arxiv(bot, bundled_papers)
    service = bot.services.corrections
    made = (await service.propose(guild.id, Target(paper.id, Field.TITLE_ZH), "新的标题", "",
                                  people.alice.id)).proposal
    await service.decide(guild.id, made.id, approve=True, by=people.bob.id)
    for reference in (paper.title_en, ARXIV_ID):
        history = await standin.slash("corrections history", {"paper": reference},
                                      guild=guild, user=people.carol)
        assert "approved by" in (await history.reply()).content


async def test_a_guess_or_several_papers_are_choices_not_taken(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    several = await standin.slash("corrections propose",
                                  {"paper": "learning", "field": "title_zh"},
                                  guild=guild, user=people.alice)
    answer = (await several.reply()).content
    assert several.modal is None and "Which paper do you mean" in answer
    unknown = await standin.slash("corrections history", {"paper": "2601.09999"},
                                  guild=guild, user=people.alice)
    assert "is not in the catalog" in (await unknown.reply()).content
