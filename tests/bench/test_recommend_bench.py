"""The recommendation benchmark's parts: the real arXiv sample read whole, its simulated
members, and the two metrics on lists whose answer is known by hand."""

from __future__ import annotations

import math
from datetime import datetime

import pytest

from bench import recommend, recommend_latency
from bot.features.recommend import features

pytestmark = pytest.mark.skipif(not recommend.SAMPLE.exists(),
                                reason=f"the shared real-world sample is absent: "
                                       f"{recommend.SAMPLE}")


def test_the_sample_becomes_papers_and_time_ordered_members() -> None:
    papers = recommend.read_sample(recommend.SAMPLE)
    assert len(papers) == 11_648 and len({p.id for p in papers}) == 11_648
    assert all(p.summary_en and p.links.published for p in papers)
    members = recommend.members_of(papers)
    by_id = {p.id: p for p in papers}
    assert [m.category for m in members][:3] == ["cs.CE", "cs.CR", "cs.CY"]
    for member in members:
        assert recommend.MIN_MEMBER <= len(member.papers) <= recommend.MAX_MEMBER
        assert all(member.category in by_id[pid].links.categories for pid in member.papers)
        dates = [by_id[pid].links.published or datetime.min for pid in member.papers]
        assert dates == sorted(dates)  # seeds are the earliest: a time split


def test_ndcg_and_recall_on_known_lists() -> None:
    relevant = {"a", "b", "c"}
    assert recommend.ndcg(["a", "b", "c", "x"], relevant) == 1.0
    assert recommend.ndcg(["x", "y"], relevant) == 0.0
    expected = (1 / math.log2(3)) / (1 + 1 / math.log2(3))
    assert recommend.ndcg(["x", "a"], relevant) == pytest.approx(expected)
    assert recommend.recall(["a", "x", "b", "y"], relevant) == pytest.approx(2 / 3)
    assert recommend.recall(["a", "x"], {"a"}) == 1.0


def test_the_latency_part_on_a_small_grown_catalog() -> None:
    papers = recommend.read_sample(recommend.SAMPLE)[:300]
    grown = recommend_latency.scaled(papers, 700)
    assert len({p.id for p in grown}) == 700
    assert len({p.summary_en for p in grown}) > 600  # rotated abstracts, not copies
    members = [m.papers for m in recommend.members_of(papers)] or [tuple(p.id for p in papers[:10])]
    row = recommend_latency.latency(papers, 700, members, runs=3)
    assert row.papers == 700 and row.build_s > 0 and row.matrix_mb > 0
    assert row.rss_mb > 0 and row.peak_mb >= row.rss_mb * 0.5
    assert row.stored_s is not None and row.read_s is not None  # the SQLite round trip ran
    assert set(row.wall_ms) == set(recommend_latency.SEEDS)
    assert all(p50 <= p99 for p50, p99 in row.wall_ms.values())
    assert "| 700 |" in recommend_latency.latency_table([row])


def test_a_tiled_index_repeats_the_sample_rows_under_new_ids() -> None:
    papers = recommend.read_sample(recommend.SAMPLE)[:200]
    base = features.build(papers)
    grown = recommend_latency.tiled(base, 450)
    assert len(grown) == 450 and len(set(grown.ids)) == 450
    assert list(grown.ids) == sorted(grown.ids)
    assert grown.matrix.nnz == base.matrix.nnz * 2 + base.matrix[:50].nnz
    for pid in base.ids[:20]:
        mine, theirs = grown.row(pid), base.row(pid)
        assert mine is not None and theirs is not None
        assert (grown.matrix[mine] != base.matrix[theirs]).nnz == 0


def test_the_in_field_reach_on_a_small_catalog() -> None:
    from bench import recommend_bound

    papers = recommend.read_sample(recommend.SAMPLE)[:400]
    index = features.build(papers)
    counts: dict[str, list[str]] = {}
    for paper in papers:
        for category in paper.links.categories:
            counts.setdefault(category, []).append(paper.id)
    chosen = sorted(counts, key=lambda c: (-len(counts[c]), c))[3:5]  # past the big three
    members = [recommend.Member(c, tuple(counts[c])) for c in chosen]
    bounds = recommend_bound.field_bounds(papers, index, members)
    for bound, member in zip(bounds, members, strict=True):
        assert bound.category == member.category and bound.papers == len(member.papers)
        assert bound.left == len(member.papers) - recommend.FIELD_SEEDS
        assert 0 <= bound.primary <= bound.papers and 0 <= bound.supervised <= recommend.TOP
        assert 0.0 <= bound.neighbours <= 1.0
    anywhere = recommend_bound.any_category_share(papers, index)
    assert 0.0 < anywhere <= 1.0
    table = recommend_bound.bound_table(bounds, anywhere)
    assert f"| {chosen[0]} | {len(counts[chosen[0]])} |" in table
