"""Ranking the catalog for a profile: a linear model with explicit negatives, in the spirit of
arxiv-sanity-lite, and nearest neighbours for profiles with too few positives.

With at least `MIN_POSITIVES` liked papers a `LinearSVC` separates them from a fixed sample of
the rest of the catalog, the 👎 papers weighted as hard negatives; its score is blended with the
cosine similarity to the weighted centroid of the liked papers. With fewer, the centroid
similarity alone ranks. Both are standardised by their spread over the fixed sample, so the
blend is one direction and the catalog is scored by one sparse mat-vec. Being nearer a
turned-down paper than to any liked one lowers a score; that penalty is computed only for the
contenders that could still reach the top. Beside that score, standardised the same way, the
catalog's topics (`bot.features.recommend.topics`, from three liked papers on, weighing more
with more of them) and the sentence encoder's similarity (weighing less with more of them).
Every pick names the liked paper closest to it and the words they share most.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

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
NEGATIVE_SHARE = 0.01
"""A 👎 paper's weight in the linear model's loss, as a share of one liked paper's: relative to
the class balance, so it does not fade as the background sample grows or the profile shrinks
(a fixed 3× of a background paper's weight was 0.2–0.8% of a liked paper's)."""
CENTROID_BLEND = 0.5
"""Weight of the centroid similarity beside the linear model's score (both standardised)."""
NEGATIVE_PENALTY = 0.5
"""How much being nearer a turned-down paper than the liked ones lowers a score."""
PENALTY_BLOCK = 4096
"""Rows whose closeness to every 👎 and liked paper is held densely at once."""
REASON_WORDS = 3
"""Shared words a reason names (`bot.features.recommend.readable` picks them)."""
REASON_CANDIDATES = 32
"""Shared features a pick carries, most shared first, for the reason's words to come from."""
DENSE_BLEND = 0.5
"""Most weight of the sentence encoder's (centred) similarity beside the tf-idf score (both
standardised over the background sample): with one to four liked papers (`dense_weight`).
Chosen by `bench recommend --meaning` on the odd-numbered members (see `DENSE_FADE`)."""
DENSE_FADE = 2.0
"""With more liked papers the encoder's weight fades to `DENSE_FADE` / their number (0.2 at
ten): the encoder is a prior the tf-idf model outgrows as it learns from more papers. On the
benchmark (2026-12-07, nDCG@10 against the arxiv-sanity-lite recipe's, all 23 members) a fixed
0.5 gave 1.14x at k = 3 but 1.02x at k = 10 (tf-idf alone 1.04x and 1.09x); fading, 1.14x and
1.06x (odd-numbered members, on which it was chosen: 1.43x / 1.02x; even: 0.92x / 1.11x)."""
TOPIC_BLEND = 1.0
"""Most weight of the similarity to the liked papers' topics (`bot.features.recommend.topics`)
beside the tf-idf score (both standardised over the background sample)."""
TOPIC_RAMP = 0.1
"""The topics' weight for each liked paper, up to `TOPIC_BLEND` (at ten): a field is seen in
many papers, not in one (nDCG@10 against the recipe's at k = 1 / 3 / 10, all 23 members,
2026-12-07: with the encoder, 1.00× / 1.14× / 1.06× without topics, 1.00× / 1.16× / 1.16×
with them; on the odd-numbered members, where it was chosen, 0.95× / 1.43× / 1.12×; on the
held-out even-numbered ones 1.03× / 0.94× / 1.20×). Without the encoder, 1.07× / 1.04× /
1.12× (the tf-idf model alone 1.07× / 1.04× / 1.09×)."""
FIRST_CONTENDERS = 256
"""With 👎s, the penalty is first computed for this many of the best papers (then doubled)."""


@dataclass(frozen=True, slots=True)
class Pick:
    """One recommended paper, its score and why."""

    paper_id: str
    score: float
    like: str | None
    """The liked paper closest to it (None for `similar`, where it is the query paper)."""
    like_kind: SignalKind | None
    words: tuple[str, ...]
    """The features it shares most with the liked papers (words, phrases, bigrams); once
    resolved (`RecommendService`), the whole words and phrases a member reads."""


def _rows(index: FeatureIndex, paper_ids: Sequence[str]) -> list[int]:
    return [r for r in (index.row(pid) for pid in paper_ids) if r is not None]


def _times(matrix: sp.csr_matrix, vector: np.ndarray) -> np.ndarray:
    """Every row's dot product with `vector`, in the matrix's float32: a float64 vector would
    make scipy copy the whole catalog's matrix to float64 first."""
    return np.asarray(matrix @ vector.astype(matrix.dtype, copy=False),
                      dtype=np.float64).ravel()


def _centroid(matrix: sp.csr_matrix, rows: list[int], weights: np.ndarray) -> np.ndarray:
    vector = np.asarray(matrix[rows].T @ weights).ravel()
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm > 0 else vector


def _background(index: FeatureIndex, labelled: set[int]) -> list[int]:
    """A fixed sample of unlabelled rows: the first in the index's hash order (the same for
    the same catalog, on any backend)."""
    head = index.sample_order[:BACKGROUND + len(labelled)]
    if labelled:
        head = head[~np.isin(head, np.fromiter(labelled, dtype=np.int64))]
    return sorted(head[:BACKGROUND].tolist())


def _compact(train: sp.csr_matrix) -> tuple[sp.csr_matrix, np.ndarray]:
    """The training rows over only the columns they use (liblinear's cost grows with the
    catalog's whole vocabulary otherwise), and those columns."""
    used = np.zeros(train.shape[1], dtype=bool)
    used[train.indices] = True
    columns = np.flatnonzero(used)
    place = np.cumsum(used, dtype=np.int32) - 1
    compact = sp.csr_matrix((train.data.astype(np.float64), place[train.indices],
                             train.indptr), shape=(train.shape[0], len(columns)))
    return compact, columns


def _svm(index: FeatureIndex, positives: list[int], weights: np.ndarray,
         negatives: list[int], background: list[int]) -> tuple[np.ndarray, float]:
    """The linear model's weights over every feature, and its intercept."""
    rows = positives + negatives + background
    labels = np.array([1] * len(positives) + [0] * (len(negatives) + len(background)))
    # balanced classes weigh a class-0 row n0/npos times less than a positive: undo that
    hard = NEGATIVE_SHARE * (len(negatives) + len(background)) / len(positives)
    sample_weight = np.concatenate([weights, np.full(len(negatives), hard),
                                    np.ones(len(background))])
    train, columns = _compact(sp.csr_matrix(index.matrix[rows]))
    from sklearn.svm import LinearSVC  # noqa: PLC0415 - slow import, only to fit

    model = LinearSVC(C=SVM_C, class_weight="balanced", max_iter=10000, tol=SVM_TOL,
                      random_state=0)
    model.fit(train, labels, sample_weight=sample_weight)
    coef = np.zeros(index.matrix.shape[1])
    coef[columns] = model.coef_.ravel()
    return coef, float(model.intercept_[0])


def _standard(values: np.ndarray) -> tuple[float, float]:
    """(mean, 1 / spread) of a score over the sample; 0 scales a flat score away."""
    spread = float(values.std())
    return float(values.mean()), (1.0 / spread if spread > 0 else 0.0)


@dataclass(frozen=True)
class _Ranking:
    """A profile's scoring direction and what the 👎 penalty needs."""

    positive_ids: list[str]
    positives: list[int]
    centroid: np.ndarray
    direction: np.ndarray
    offset: float
    negatives: list[int]
    near_scale: float
    """1 / the spread of the centroid similarity over the sample."""

    def penalty(self, index: FeatureIndex, rows: np.ndarray) -> np.ndarray:
        """How much nearer each row is to its closest turned-down paper than to its closest
        liked paper (0 when nearer a liked one), in spreads of the centroid similarity: a 👎
        pushes down its own neighbourhood without touching what the member plainly likes.
        Paper against paper on both sides: a centroid of many liked papers is near nothing as
        much as one paper is near its neighbours, so against it a 👎 hit liked topics too."""
        if not self.negatives or not len(rows):
            return np.zeros(len(rows))
        both = index.matrix[self.negatives + self.positives].T.tocsc()
        away, near = np.empty(len(rows)), np.empty(len(rows))
        for start in range(0, len(rows), PENALTY_BLOCK):
            block = slice(start, start + PENALTY_BLOCK)
            close = (index.matrix[rows[block]] @ both).toarray()
            away[block] = close[:, :len(self.negatives)].max(axis=1)
            near[block] = close[:, len(self.negatives):].max(axis=1)
        penalty: np.ndarray = NEGATIVE_PENALTY * np.maximum(away - near, 0.0) * self.near_scale
        return penalty


def _ranking(index: FeatureIndex, profile: Profile) -> _Ranking | None:
    positive_ids = [pid for pid in profile.positives if index.row(pid) is not None]
    positives = _rows(index, positive_ids)
    if not positives:
        return None
    weights = np.array([profile.positives[pid].weight for pid in positive_ids])
    negatives = _rows(index, sorted(profile.negatives))
    centroid = _centroid(index.matrix, positives, weights)
    background = _background(index, set(positives) | set(negatives))
    sample = index.matrix[background]
    near_mean, near_scale = _standard(_times(sample, centroid))
    direction = centroid * near_scale
    offset = -near_mean * near_scale
    if len(positives) >= MIN_POSITIVES:
        coef, intercept = _svm(index, positives, weights, negatives, background)
        svm_mean, svm_scale = _standard(_times(sample, coef) + intercept)
        direction = coef * svm_scale + CENTROID_BLEND * direction
        offset = (intercept - svm_mean) * svm_scale + CENTROID_BLEND * offset
    return _Ranking(positive_ids, positives, centroid, direction, offset, negatives,
                    near_scale)


def scores(index: FeatureIndex, profile: Profile) -> np.ndarray:
    """A score for every catalog paper (higher is better, the 👎 penalty taken off), as
    `recommend` ranks them; empty without liked papers."""
    ranking = _ranking(index, profile)
    if ranking is None:
        return np.zeros(0)
    score: np.ndarray = _times(index.matrix, ranking.direction) + ranking.offset
    if ranking.negatives:
        score = score - ranking.penalty(index, np.arange(len(index)))
    return score


def _seen_mask(index: FeatureIndex, seen: frozenset[str]) -> np.ndarray:
    mask = np.zeros(len(index), dtype=bool)
    mask[_rows(index, sorted(seen))] = True
    return mask


def _best(index: FeatureIndex, score: np.ndarray, rows: np.ndarray, limit: int) -> list[int]:
    """`rows` ordered by score, ties by paper id, the first `limit`."""
    ordered = sorted(rows.tolist(), key=lambda r: (-score[r], index.ids[r]))
    return [int(r) for r in ordered[:limit]]


def _top(index: FeatureIndex, score: np.ndarray, seen: np.ndarray, limit: int) -> list[int]:
    """The best rows not seen, ties broken by paper id (deterministic)."""
    candidates = np.flatnonzero(~seen)
    if limit <= 0 or not len(candidates):
        return []
    take = min(limit, len(candidates))
    values = score[candidates]
    cut = np.partition(values, len(values) - take)[len(values) - take]
    return _best(index, score, candidates[values >= cut], limit)


def _top_penalised(index: FeatureIndex, score: np.ndarray, seen: np.ndarray, limit: int,
                   ranking: _Ranking) -> tuple[list[int], dict[int, float]]:
    """The best unseen rows once the 👎 penalty is taken off, exactly: the penalty is never
    negative, so a row whose unpenalised score is below the `limit`-th penalised one cannot
    enter; contenders are taken best first until the rest are all below it."""
    candidates = np.flatnonzero(~seen)
    if limit <= 0 or not len(candidates):
        return [], {}
    order = candidates[np.argsort(-score[candidates], kind="stable")]
    final: dict[int, float] = {}
    size = FIRST_CONTENDERS
    done = 0
    while True:
        batch = order[done:size]
        final.update(zip(batch.tolist(),
                         (score[batch] - ranking.penalty(index, batch)).tolist(), strict=True))
        done = min(size, len(order))
        best = sorted(final, key=lambda r: (-final[r], index.ids[r]))[:limit]
        if done >= len(order) or (len(best) == limit
                                  and score[order[done]] < final[best[-1]]):
            return best, final
        size *= 2


def _shared_words(index: FeatureIndex, row: int, direction: np.ndarray) -> tuple[str, ...]:
    vector = index.matrix[row]
    contributions = vector.data * direction[vector.indices]
    order = np.lexsort((index.terms[vector.indices], -contributions))
    words: list[str] = []
    for i in order:
        term = str(index.terms[vector.indices[i]])
        if contributions[i] <= 0 or len(words) >= REASON_CANDIDATES:
            break
        if not term.startswith((AUTHOR_PREFIX, VENUE_PREFIX)):
            words.append(term)
    return tuple(words)


def dense_weight(liked: int) -> float:
    """The encoder's weight in a ranking from `liked` papers: `DENSE_BLEND`, fading as
    `DENSE_FADE` / `liked` once that is smaller."""
    return min(DENSE_BLEND, DENSE_FADE / max(liked, 1))


def topic_weight(liked: int) -> float:
    """The topic similarity's weight in a ranking from `liked` papers: none below
    `MIN_POSITIVES` (one or two papers say little of a field), then `TOPIC_RAMP` for each,
    `TOPIC_BLEND` at most."""
    return min(TOPIC_BLEND, TOPIC_RAMP * liked) if liked >= MIN_POSITIVES else 0.0


def blended(index: FeatureIndex, score: np.ndarray, dense: np.ndarray | None,
            weight: float | None = None, topics: np.ndarray | None = None,
            topic_share: float = 0.0) -> np.ndarray:
    """`score` (one per row) with the encoder's `dense` similarity (NaN: not embedded)
    added at `weight` (default `DENSE_BLEND`) and the `topics` similarity at `topic_share`,
    each standardised over the background sample. `dense` can come from any encoder: only
    its spread over the sample matters."""
    weight = DENSE_BLEND if weight is None else weight
    sample = np.asarray(_background(index, set()), dtype=np.int64)
    parts = []
    for values, share in ((dense, weight), (topics, topic_share)):
        if values is None or share == 0:
            continue
        known = values[sample][~np.isnan(values[sample])]
        if len(known):
            mean, scale = _standard(known)
            parts.append(share * np.nan_to_num((values - mean) * scale, nan=0.0))
    if not parts:
        return score
    score_mean, score_scale = _standard(score[sample])
    mixed: np.ndarray = (score - score_mean) * score_scale + np.sum(parts, axis=0)
    return mixed


def recommend(index: FeatureIndex, profile: Profile, limit: int,
              dense: np.ndarray | None = None) -> list[Pick]:
    """The best `limit` unseen papers for a profile, each with its reason; `dense`: each
    row's sentence-encoder similarity to the liked papers, blended in (`blended`) at
    `dense_weight` of the liked papers' number, and the similarity to their topics (when the
    index has them) at `topic_weight`."""
    ranking = _ranking(index, profile)
    if ranking is None:
        return []
    liked_count = len(ranking.positives)
    share = topic_weight(liked_count)
    topics = None if index.topics is None or share == 0 else index.topics.similarity(
        ranking.positives, np.array([profile.positives[p].weight for p in ranking.positive_ids]))
    score = blended(index, _times(index.matrix, ranking.direction) + ranking.offset, dense,
                    dense_weight(liked_count), topics, share)
    seen = _seen_mask(index, profile.seen)
    if ranking.negatives:
        top, final = _top_penalised(index, score, seen, limit, ranking)
    else:
        top, final = _top(index, score, seen, limit), {}
    liked = index.matrix[ranking.positives]
    picks = []
    for row in top:
        closeness = np.asarray((liked @ index.matrix[row].T).todense()).ravel()
        nearest = ranking.positive_ids[int(np.argmax(closeness))]
        picks.append(Pick(index.ids[row], round(float(final.get(row, score[row])), 6),
                          nearest, profile.positives[nearest].kind,
                          _shared_words(index, row, ranking.centroid)))
    return picks


def similar(index: FeatureIndex, paper_id: str, limit: int,
            dense: np.ndarray | None = None) -> list[Pick]:
    """The papers nearest to one (cosine over the same features, blended with the encoder's
    `dense` similarity when given), with the words shared."""
    row = index.row(paper_id)
    if row is None:
        return []
    direction = np.asarray(index.matrix[row].todense()).ravel()
    score = blended(index, _times(index.matrix, direction), dense)
    seen = _seen_mask(index, frozenset({paper_id}))
    return [Pick(index.ids[r], round(float(score[r]), 6), None, None,
                 _shared_words(index, r, direction))
            for r in _top(index, score, seen, limit)]
