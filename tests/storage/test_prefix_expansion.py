"""Prefix expansion on both backends (issue 26): a prefix word is searched as its completions,
each weighed by its own rarity; the papers matched are those the prefix matches; a frequent
word's rare completions are ranked even when their papers are outside the rank window; and
the completions follow adds."""

from __future__ import annotations

import pytest

import storage.papers.postgres
import storage.papers.sqlite_ranking
from bot.features.papers.query import parse_query
from domain.paper import Paper
from domain.prefixes import PREFIX_CAP
from tests.backends import Backend


def _paper(title: str) -> Paper:
    return Paper(title_en=title, title_zh="", authors=("Ann Example",))


async def _titles(backend: Backend, text: str, limit: int = 100) -> list[str]:
    hits = await backend.papers().search(parse_query(text), limit=limit)
    return [hit.paper.title_en for hit in hits]


RARE = "Controllability of large nonlinear systems under noise and delay, revisited"


async def test_a_rare_completion_outranks_a_frequent_one(backend: Backend) -> None:
    """`control` is in 8 short titles, `controllability` in one long one: as one prefix term
    the short titles ranked first; per completion, the rare word's weight wins."""
    store = backend.papers()
    await store.add_papers([_paper(RARE)] + [_paper(f"Control of robots {i}") for i in range(8)])
    found = await _titles(backend, "control")
    assert found[0] == RARE and len(found) == 9
    assert (await _titles(backend, "controllab")) == [RARE]


async def test_more_completions_than_the_cap_still_match_every_paper(backend: Backend) -> None:
    """Beyond `PREFIX_CAP` completions the prefix itself is searched too: the same papers."""
    store = backend.papers()
    words = [f"contr{a}{b}" for a in "abcdefg" for b in "klmnop"]
    assert len(words) > PREFIX_CAP
    await store.add_papers([_paper(f"On {word} methods") for word in words]
                           + [_paper("Control theory"), _paper("Control again")])
    found = await _titles(backend, "contr")
    assert sorted(found) == sorted([f"On {word} methods" for word in words]
                                   + ["Control theory", "Control again"])


async def test_a_rare_completion_outside_the_rank_window_is_ranked(
        backend: Backend, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a window of 3, the oldest paper is outside the newest matches of `control`: its
    rare completion brings it in, on both backends."""
    monkeypatch.setattr(storage.papers.sqlite_ranking, "RANK_WINDOW", 3)
    monkeypatch.setattr(storage.papers.postgres, "RANK_WINDOW", 3)
    store = backend.papers()
    await store.add_papers([_paper(RARE)])
    await store.add_papers([_paper(f"Control of robots {i}") for i in range(10)])
    found = await _titles(backend, "control", limit=5)
    assert found[0] == RARE


async def test_completions_follow_adds(backend: Backend) -> None:
    """A completion added after a search is found by the next one (the version moved)."""
    store = backend.papers()
    await store.add_papers([_paper("Grok the basics")])
    assert await _titles(backend, "grok") == ["Grok the basics"]
    await store.add_papers([_paper("Grokking at the edge of stability")])
    assert set(await _titles(backend, "grok")) == {"Grok the basics",
                                                   "Grokking at the edge of stability"}
