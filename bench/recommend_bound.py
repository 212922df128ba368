"""`bench recommend --bound`: how far the "three bookmarks in one field" check can go.

A member's field is an arXiv category listed on the paper in any place (`members_of`), and
most of the members' categories are cross-lists on computer-vision, language and AI papers.
Per member: how many papers list the category first, how many relevant papers are left to
find with `FIELD_SEEDS` bookmarks (every one of them beside the seeds: the trivial oracle puts
ten in the field whenever ten are left), the share of a field paper's ten nearest papers that
are in the field too (what "more like this paper" can reach from one bookmark), and the
picks in the field of a supervised bound: a linear classifier told the field of four fifths
of the catalog, every paper scored by the fit that did not see it (cross-fitting), the seeds
left out, as a member with hundreds of bookmarks would be served.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from sklearn.svm import LinearSVC

from bench.recommend import FIELD_SEEDS, TOP, Member
from bot.features.recommend.features import FeatureIndex
from domain.paper import Paper

FOLDS = 5
BOUND_C = 0.1
DENSE_SHARE = 0.5
"""The topic and encoder vectors' scale beside the tf-idf row in the classifier's input."""
SAMPLE_PAPERS = 600
"""Papers whose nearest neighbours give the any-category share (as `bench similar` counts)."""


@dataclass(frozen=True)
class FieldBound:
    """One member's field and what can be found in it."""

    category: str
    papers: int
    primary: int
    """Papers listing the category first."""
    left: int
    """Relevant papers left to find with `FIELD_SEEDS` bookmarks."""
    neighbours: float
    """Mean share of a field paper's ten nearest (tf-idf cosine) in the field."""
    supervised: int
    """Of the cross-fitted classifier's ten best (seeds left out), in the field."""


def _nearest_share(matrix: sp.csr_matrix, rows: np.ndarray, inside: np.ndarray) -> float:
    """Mean share of each row's `TOP` nearest other rows that are `inside`."""
    close = (matrix @ matrix[rows].T).toarray()
    close[rows, np.arange(len(rows))] = -np.inf
    nearest = np.argpartition(-close, TOP, axis=0)[:TOP]
    return float(inside[nearest].mean())


def any_category_share(papers: Sequence[Paper], index: FeatureIndex) -> float:
    """Share of a paper's ten nearest that share any category with it (a fixed sample)."""
    categories = {p.id: set(p.links.categories) for p in papers}
    rows = np.random.default_rng(0).choice(len(index), min(SAMPLE_PAPERS, len(index)),
                                           replace=False)
    close = (index.matrix @ index.matrix[rows].T).toarray()
    close[rows, np.arange(len(rows))] = -np.inf
    nearest = np.argpartition(-close, TOP, axis=0)[:TOP]
    return statistics.fmean(
        bool(categories[index.ids[n]] & categories[index.ids[r]])
        for column, r in enumerate(rows) for n in nearest[:, column])


def _inputs(index: FeatureIndex, vectors: np.ndarray | None) -> sp.csr_matrix:
    blocks = [index.matrix]
    for dense in (None if index.topics is None else index.topics.vectors, vectors):
        if dense is not None:
            blocks.append(sp.csr_matrix(dense * DENSE_SHARE))
    return sp.csr_matrix(sp.hstack(blocks))


def field_bounds(papers: Sequence[Paper], index: FeatureIndex, members: Sequence[Member],
                 vectors: np.ndarray | None = None) -> list[FieldBound]:
    """Every member's `FieldBound`; `vectors`: the encoder's, in the index's row order, added
    to the classifier's input (tf-idf and topics without them)."""
    first = {p.id: p.links.categories[0] if p.links.categories else "" for p in papers}
    inputs = _inputs(index, vectors)
    fold = np.random.default_rng(0).integers(0, FOLDS, len(index))
    found = []
    for member in members:
        rows = np.array([r for pid in member.papers if (r := index.row(pid)) is not None])
        inside = np.zeros(len(index), dtype=bool)
        inside[rows] = True
        score = np.empty(len(index))
        for part in range(FOLDS):
            held = fold == part
            fit = LinearSVC(C=BOUND_C, class_weight="balanced", max_iter=5000, random_state=0)
            score[held] = fit.fit(inputs[~held], inside[~held]).decision_function(inputs[held])
        score[rows[:FIELD_SEEDS]] = -np.inf
        best = np.argsort(-score, kind="stable")[:TOP]
        found.append(FieldBound(
            member.category, len(rows), sum(first[pid] == member.category
                                            for pid in member.papers),
            len(rows) - FIELD_SEEDS, _nearest_share(index.matrix, rows, inside),
            int(inside[best].sum())))
    return found


def bound_table(bounds: Sequence[FieldBound], anywhere: float) -> str:
    """The per-member table and its summary line."""
    half = TOP // 2
    lines = ["", f"Reach of the in-field check ({FIELD_SEEDS} bookmarks, picks of {TOP} in the "
             "field): the trivial oracle, one bookmark's neighbours, a classifier told "
             f"{FOLDS - 1}/{FOLDS} of the labels:", "",
             "| member | papers | listed first | left to find | oracle | "
             "neighbours in field | classifier |", "|---|---:|---:|---:|---:|---:|---:|"]
    for b in bounds:
        lines.append(f"| {b.category} | {b.papers} | {b.primary} | {b.left} | "
                     f"{min(TOP, b.left)} | {b.neighbours:.2f} | {b.supervised} |")
    lines += ["", f"Oracle: {sum(min(TOP, b.left) >= half for b in bounds)}/{len(bounds)} "
              f"members can reach {half}; one field paper's ten nearest: "
              f"{statistics.fmean(b.neighbours for b in bounds):.2f} in its field "
              f"(any shared category: {anywhere:.2f}); the classifier: mean "
              f"{statistics.fmean(b.supervised for b in bounds):.1f}, "
              f"{sum(b.supervised >= half for b in bounds)}/{len(bounds)} members with "
              f"≥ {half}."]
    return "\n".join(lines)
