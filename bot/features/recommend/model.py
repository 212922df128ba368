"""Ranking the catalog for a profile: a linear model with explicit negatives, in the spirit of
arxiv-sanity-lite, and nearest neighbours for profiles with too few positives.

With at least `MIN_POSITIVES` liked papers a `LinearSVC` separates them from a deterministic
sample of the rest of the catalog, the 👎 papers weighted as hard negatives; its score is
blended with the cosine similarity to the weighted centroid of the liked papers. With fewer,
the centroid similarity alone ranks. Similarity to the turned-down papers lowers a score in
both cases. Every pick names the liked paper closest to it and the words they share most.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from sklearn.svm import LinearSVC

from bot.features.recommend.features import AUTHOR_PREFIX, VENUE_PREFIX, FeatureIndex
from bot.features.recommend.profile import Profile
from domain.recommend import SignalKind

MIN_POSITIVES = 3
"""Fewer liked papers than this rank by nearest neighbours alone."""
SVM_C = 0.1
SVM_TOL = 1e-4
"""liblinear's stopping tolerance (its default; 1e-6 took twice as long for the same ranks)."""
BACKGROUND = 4000
"""How many unlabelled papers the linear model is trained against (a fixed hash sample)."""
HARD_NEGATIVE_WEIGHT = 3.0
CENTROID_BLEND = 0.5
"""Weight of the centroid similarity beside the linear model's score (both standardised)."""
NEGATIVE_PENALTY = 0.5
"""How much being nearer a turned-down paper than the liked ones lowers a score."""
REASON_WORDS = 3


@dataclass(frozen=True, slots=True)
class Pick:
    """One recommended paper, its score and why."""

    paper_id: str
    score: float
    like: str | None
    """The liked paper closest to it (None for `similar`, where it is the query paper)."""
    like_kind: SignalKind | None
    words: tuple[str, ...]
    """The features it shares most with the liked papers (words, phrases, bigrams)."""


def _rows(index: FeatureIndex, paper_ids: Sequence[str]) -> list[int]:
    return [r for r in (index.row(pid) for pid in paper_ids) if r is not None]


def _times(index: FeatureIndex, vector: np.ndarray) -> np.ndarray:
    """Every paper's dot product with `vector`, in the matrix's float32: a float64 vector would
    make scipy copy the whole catalog's matrix to float64 first (150 MB at 100k papers)."""
    return np.asarray(index.matrix @ vector.astype(index.matrix.dtype, copy=False),
                      dtype=np.float64).ravel()


def _standardise(values: np.ndarray) -> np.ndarray:
    spread = float(values.std())
    return (values - float(values.mean())) / spread if spread > 0 else values * 0.0


def _centroid(matrix: sp.csr_matrix, rows: list[int], weights: np.ndarray) -> np.ndarray:
    vector = np.asarray(matrix[rows].T @ weights).ravel()
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm > 0 else vector


def _background(index: FeatureIndex, labelled: set[int]) -> list[int]:
    """A fixed sample of unlabelled rows: the first in the index's hash order (the same for
    the same catalog, on any backend)."""
    chosen = []
    for row in index.sample_order:
        if row not in labelled:
            chosen.append(int(row))
            if len(chosen) == BACKGROUND:
                break
    return sorted(chosen)


def _svm_scores(index: FeatureIndex, positives: list[int], weights: np.ndarray,
                negatives: list[int]) -> np.ndarray:
    background = _background(index, set(positives) | set(negatives))
    rows = positives + negatives + background
    labels = np.array([1] * len(positives) + [0] * (len(negatives) + len(background)))
    sample_weight = np.concatenate([weights, np.full(len(negatives), HARD_NEGATIVE_WEIGHT),
                                    np.ones(len(background))])
    model = LinearSVC(C=SVM_C, class_weight="balanced", max_iter=10000, tol=SVM_TOL,
                      random_state=0)
    model.fit(index.matrix[rows], labels, sample_weight=sample_weight)
    return _times(index, model.coef_.ravel()) + float(model.intercept_[0])


def scores(index: FeatureIndex, profile: Profile) -> np.ndarray:
    """A score for every catalog paper (higher is better); empty without liked papers."""
    positive_ids = [pid for pid in profile.positives if index.row(pid) is not None]
    positives = _rows(index, positive_ids)
    if not positives:
        return np.zeros(0)
    weights = np.array([profile.positives[pid].weight for pid in positive_ids])
    negatives = _rows(index, sorted(profile.negatives))
    centroid = _centroid(index.matrix, positives, weights)
    near = _times(index, centroid)
    if len(positives) >= MIN_POSITIVES:
        score = (_standardise(_svm_scores(index, positives, weights, negatives))
                 + CENTROID_BLEND * _standardise(near))
    else:
        score = _standardise(near)
    if negatives:
        score = score - NEGATIVE_PENALTY * _closer_to_negatives(index, negatives, near)
    return score


def _closer_to_negatives(index: FeatureIndex, negatives: list[int],
                         near: np.ndarray) -> np.ndarray:
    """How much nearer each paper is to its closest turned-down paper than to the liked
    centroid (0 when it is nearer the liked ones), in standard deviations of `near`: a 👎
    pushes down its own neighbourhood without touching what the member plainly likes."""
    away = np.asarray((index.matrix @ index.matrix[negatives].T).max(axis=1).todense()).ravel()
    spread = float(near.std())
    return np.maximum(away - near, 0.0) / spread if spread > 0 else away * 0.0


def _top(index: FeatureIndex, score: np.ndarray, seen: frozenset[str], limit: int) -> list[int]:
    """The best rows not seen, ties broken by paper id (deterministic)."""
    masked = score.astype(np.float64)
    masked[_rows(index, sorted(seen))] = -np.inf
    if limit <= 0 or not np.isfinite(masked).any():
        return []
    take = min(limit, len(masked))
    cut = np.partition(masked, len(masked) - take)[len(masked) - take]
    contenders = np.flatnonzero((masked >= cut) & np.isfinite(masked))
    ordered = sorted(contenders, key=lambda r: (-masked[r], index.ids[r]))
    return [int(r) for r in ordered[:limit]]


def _shared_words(index: FeatureIndex, row: int, direction: np.ndarray) -> tuple[str, ...]:
    vector = index.matrix[row]
    contributions = vector.data * direction[vector.indices]
    order = np.lexsort((index.terms[vector.indices], -contributions))
    words: list[str] = []
    for i in order:
        term = str(index.terms[vector.indices[i]])
        if contributions[i] <= 0 or len(words) >= REASON_WORDS:
            break
        if not term.startswith((AUTHOR_PREFIX, VENUE_PREFIX)):
            words.append(term)
    return tuple(words)


def recommend(index: FeatureIndex, profile: Profile, limit: int) -> list[Pick]:
    """The best `limit` unseen papers for a profile, each with its reason."""
    score = scores(index, profile)
    if not len(score):
        return []
    positive_ids = [pid for pid in profile.positives if index.row(pid) is not None]
    positives = _rows(index, positive_ids)
    liked = index.matrix[positives]
    weights = np.array([profile.positives[pid].weight for pid in positive_ids])
    centroid = _centroid(index.matrix, positives, weights)
    picks = []
    for row in _top(index, score, profile.seen, limit):
        closeness = np.asarray((liked @ index.matrix[row].T).todense()).ravel()
        nearest = positive_ids[int(np.argmax(closeness))]
        picks.append(Pick(index.ids[row], round(float(score[row]), 6), nearest,
                          profile.positives[nearest].kind,
                          _shared_words(index, row, centroid)))
    return picks


def similar(index: FeatureIndex, paper_id: str, limit: int) -> list[Pick]:
    """The papers nearest to one (cosine over the same features), with the words shared."""
    row = index.row(paper_id)
    if row is None:
        return []
    direction = np.asarray(index.matrix[row].todense()).ravel()
    score = _times(index, direction)
    return [Pick(index.ids[r], round(float(score[r]), 6), None, None,
                 _shared_words(index, r, direction))
            for r in _top(index, score, frozenset({paper_id}), limit)]
