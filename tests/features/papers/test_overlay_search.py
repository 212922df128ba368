"""Merging a server's corrected papers into the shared index's hits (pure): the words
corrected away drop a paper, its new words place it in the tier the index would rank it in."""

from __future__ import annotations

from bot.features.papers.overlay_search import ANYWHERE, CROSSED, EXACT, HEADLINE, Matcher, merged
from bot.features.papers.query import parse_query
from domain.catalog import SearchHit
from domain.paper import Paper

TITLED = Paper(title_en="Alpha Networks Learn Fast", title_zh="", authors=("Ada Lovelace",))
SUMMARISED = Paper(title_en="Beta Machines", title_zh="", authors=("Alan Turing",),
                   summary_en="We study alpha networks at length.")
OTHER = Paper(title_en="Gamma Alpha Networks", title_zh="", authors=("Grace Hopper",))


def _hit(paper: Paper) -> SearchHit:
    return SearchHit(paper.id, -1.0, lambda: paper)


def _ids(hits: list[SearchHit]) -> list[str]:
    return [hit.id for hit in hits]


def test_tiers_follow_the_index_ranking() -> None:
    matcher = Matcher(parse_query("alpha networks"))
    assert matcher.tier(TITLED) == HEADLINE
    assert matcher.tier(SUMMARISED) == ANYWHERE
    assert Matcher(parse_query("Alpha Networks Learn Fast")).tier(TITLED) == EXACT
    assert Matcher(parse_query("扩散模型")).tier(
        Paper(title_en="Diffusion Models Rule", title_zh="", authors=("X Y",))) == CROSSED
    assert matcher.tier(Paper(title_en="Delta", title_zh="", authors=("Z",))) is None


def test_a_corrected_paper_moves_to_its_tier_and_one_corrected_away_drops() -> None:
    hits = [_hit(TITLED), _hit(SUMMARISED)]
    renamed = Paper(title_en="Alpha Networks Revisited", title_zh="", authors=("G Hopper",),
                    kept_key=OTHER.key)
    merged_hits, crossed = merged(hits, parse_query("alpha networks"), {OTHER.id: renamed},
                                  limit=10)
    assert crossed == {}
    assert _ids(merged_hits) == [TITLED.id, OTHER.id, SUMMARISED.id]
    assert merged_hits[1].paper.title_en == "Alpha Networks Revisited"
    wrong_away = Paper(title_en="Something Else", title_zh="", authors=("Ada Lovelace",),
                       kept_key=TITLED.key)
    assert _ids(merged(hits, parse_query("alpha networks"), {TITLED.id: wrong_away},
                       limit=10)[0]) == [SUMMARISED.id]
    exact, _ = merged(hits, parse_query("Alpha Networks Revisited"), {OTHER.id: renamed},
                      limit=10)
    assert _ids(exact)[0] == OTHER.id
    assert _ids(merged(hits, parse_query("alpha networks"), {OTHER.id: renamed}, limit=10,
                       insert=False)[0]) == [TITLED.id, SUMMARISED.id]
    assert _ids(merged(hits, parse_query("alpha networks"), {OTHER.id: renamed},
                       limit=2)[0]) == [TITLED.id, OTHER.id]


def test_a_corrected_paper_found_through_the_other_language_says_so() -> None:
    renamed = Paper(title_en="Diffusion Models for Songbirds", title_zh="", authors=("G H",),
                    kept_key=OTHER.key)
    hits, crossed = merged([], parse_query("扩散模型"), {OTHER.id: renamed}, limit=10)
    assert _ids(hits) == [OTHER.id]
    assert str(crossed[OTHER.id][0]) == "扩散模型 → diffusion model"


def test_a_paper_the_index_ranked_by_its_wrong_title_is_placed_by_its_corrected_one() -> None:
    wrong = Paper(title_en="Alpha Networks", title_zh="", authors=("B C",),
                  summary_en="Alpha networks, briefly.")
    fixed = Paper(title_en="Epsilon Graphs", title_zh="", authors=("B C",),
                  summary_en="Alpha networks, briefly.", kept_key=wrong.key)
    hits = [_hit(wrong), _hit(TITLED), _hit(SUMMARISED)]
    placed, _ = merged(hits, parse_query("alpha networks"), {wrong.id: fixed}, limit=10)
    assert _ids(placed) == [TITLED.id, SUMMARISED.id, wrong.id]
    assert placed[2].paper.title_en == "Epsilon Graphs"
