"""The similar bench's time split: the new papers are the latest fifth, none in the catalog."""

from __future__ import annotations

import pytest

from bench import recommend, similar

pytestmark = pytest.mark.skipif(not recommend.SAMPLE.exists(),
                                reason=f"the shared real-world sample is absent: "
                                       f"{recommend.SAMPLE}")


def test_the_new_papers_are_the_latest_fifth() -> None:
    papers = recommend.read_sample(recommend.SAMPLE)
    old, new = similar._split(papers)
    assert len(old) + len(new) == len(papers) and {p.id for p in old}.isdisjoint(
        p.id for p in new)
    assert abs(len(new) - similar.NEW_SHARE * len(papers)) <= 1
    latest_old = max(p.links.published for p in old if p.links.published)
    assert all(p.links.published and p.links.published >= latest_old for p in new)
