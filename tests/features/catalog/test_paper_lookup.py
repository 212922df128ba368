"""The one resolver of a `paper:` option (issue 21): exact references first, then a search that
decides only when it is unambiguous, and choices otherwise."""

from __future__ import annotations

import pytest

from bot.features.papers.lookup import PaperChoices, PaperLookup, Via
from bot.features.papers.search import SearchService
from bot.shared.lang import Lang
from bot.shared.messages import Refusal
from domain.paper import Links, Paper
from domain.text import to_traditional
from storage.papers.sqlite import SqlitePaperStore

KNOT = Paper(title_en="Knot Floer Homology and the Four-Ball Genus", title_zh="",
             authors=("Peter Ozsváth", "Zoltán Szabó"),
             links=Links(arxiv_id="math/0309136", arxiv_version=2, doi="10.2140/gt.2003.7.615"))


@pytest.fixture
async def lookup(store: SqlitePaperStore, search: SearchService) -> PaperLookup:
    await store.add_papers([KNOT])
    return PaperLookup(search)


@pytest.mark.parametrize("typed", [
    "math/0309136", "math/0309136v1", "arXiv:math.GT/0309136v2", "arxiv: math/0309136",
    "https://arxiv.org/abs/math/0309136v2", "arxiv.org/pdf/math/0309136.pdf",
    "10.2140/GT.2003.7.615", "https://doi.org/10.2140/gt.2003.7.615", "doi:10.2140/gt.2003.7.615",
    KNOT.id, KNOT.id.upper(), "knot floer homology and the four-ball genus",
])
async def test_every_exact_reference_names_the_paper(lookup: PaperLookup, typed: str) -> None:
    found = await lookup.resolve(typed)
    assert found is not None and found.id == KNOT.id


async def test_an_exact_chinese_title_in_either_script_names_its_paper(
        lookup: PaperLookup, bundled_papers: list[Paper]) -> None:
    paper = next(p for p in bundled_papers if to_traditional(p.title_zh) != p.title_zh)
    for typed in (paper.title_zh, to_traditional(paper.title_zh), paper.title_en.upper()):
        named = await lookup.lookup(typed)
        assert named.paper == paper and named.via is Via.TITLE


@pytest.mark.parametrize("typed", ["2401.01234", "arXiv:2401.01234v3", "10.1000/not-here",
                                   "ffffffffffffffff"])
async def test_an_identifier_not_in_the_catalog_is_refused_not_searched(
        lookup: PaperLookup, typed: str) -> None:
    with pytest.raises(Refusal) as refused:
        await lookup.resolve(typed)
    assert refused.value.key == "lookup.not_in_catalog"


async def test_words_matching_only_one_paper_name_it(lookup: PaperLookup) -> None:
    named = await lookup.lookup("ridge regression grokking")
    assert named.paper is not None and named.via is Via.SEARCH
    assert "Grokking" in named.paper.title_en


async def test_words_matching_several_papers_give_choices_in_the_readers_script(
        lookup: PaperLookup) -> None:
    with pytest.raises(PaperChoices) as asked:
        await lookup.resolve("learning")
    choices = asked.value.choices
    assert 2 <= len(choices) <= 5
    text = asked.value.text(Lang.ZH_HANT)
    assert all(f"`{p.id}`" in text for p in choices)
    assert all(to_traditional(p.title_zh) in text for p in choices if p.title_zh)


async def test_a_corrected_word_is_offered_not_taken(lookup: PaperLookup) -> None:
    with pytest.raises(PaperChoices) as asked:
        await lookup.resolve("grokkng")
    (choice,) = asked.value.choices
    assert choice.title_en.startswith("To Grok Grokking")


async def test_nothing_matching_is_none(lookup: PaperLookup) -> None:
    assert await lookup.resolve("qqqzzzxx") is None
    assert await lookup.resolve("🤖") is None
