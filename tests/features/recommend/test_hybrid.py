"""The sentence encoder's similarity blended into the tf-idf ranking: no vectors changes
nothing, a paper the encoder finds close rises, and a paper not embedded yet is neither helped
nor hurt."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from bot.features.recommend import features, model
from bot.features.recommend.features import FeatureIndex
from bot.features.recommend.profile import seed_profile
from domain.paper import Paper


@pytest.fixture(scope="module")
def index(bundled_papers: list[Paper]) -> FeatureIndex:
    return features.build(bundled_papers)


def _ids(picks: list[model.Pick]) -> list[str]:
    return [p.paper_id for p in picks]


def test_without_vectors_the_ranking_is_the_tf_idf_one(index: FeatureIndex) -> None:
    seeds = list(index.ids[:3])
    plain = model.recommend(index, seed_profile(seeds), 5)
    nan = np.full(len(index), np.nan)
    assert _ids(model.recommend(index, seed_profile(seeds), 5, nan)) == _ids(plain)
    assert _ids(model.recommend(index, seed_profile(seeds), 5, None)) == _ids(plain)


def test_a_paper_the_encoder_finds_close_rises(index: FeatureIndex) -> None:
    seed = index.ids[0]
    plain = _ids(model.similar(index, seed, len(index) - 1))
    last = plain[-1]  # the paper tf-idf likes least
    dense = np.full(len(index), 0.1)
    row = index.row(last)
    assert row is not None
    dense[row] = 0.9
    dense[: len(index) // 2] += np.linspace(0, 0.05, len(index) // 2)  # a spread to scale by
    blended = _ids(model.similar(index, seed, 5, dense))
    assert last in blended and last not in plain[:5]
    assert _ids(model.similar(index, seed, 5, dense * 0 + 0.1)) == plain[:5]


def test_the_encoder_weighs_less_as_the_liked_papers_grow() -> None:
    weights = [model.dense_weight(n) for n in range(1, 30)]
    assert weights[0] == model.DENSE_BLEND
    assert all(a >= b for a, b in itertools.pairwise(weights))
    assert weights[-1] < model.DENSE_BLEND / 2


def test_with_many_liked_papers_the_encoder_moves_the_ranking_less(index: FeatureIndex) -> None:
    seeds = list(index.ids[:12])
    rng = np.random.default_rng(0)
    dense = rng.normal(size=len(index))
    profile = seed_profile(seeds)
    faded = _ids(model.recommend(index, profile, 10, dense))
    plain = _ids(model.recommend(index, profile, 10))
    fixed, saved = None, model.DENSE_FADE
    model.DENSE_FADE = float("inf")
    try:
        fixed = _ids(model.recommend(index, profile, 10, dense))
    finally:
        model.DENSE_FADE = saved
    assert len(set(faded) & set(plain)) >= len(set(fixed) & set(plain))
    assert faded != fixed
