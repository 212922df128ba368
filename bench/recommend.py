"""Recommendations on a real labelled catalog: paperclub beside arxiv-sanity-lite's recipe,
most recent first and random (today's paper of the day), in one process.

Catalog: `../shared/realworld/arxiv-metadata/arxiv-sample.jsonl` (11,648 real arXiv papers,
titles, abstracts, authors, categories, listing dates). Simulated members: one per arXiv
category listed on 30 to 3,000 papers (the big three, cs.CV / cs.CL / cs.AI, would be liked by a
quarter to a half of the catalog and are left out); a member likes every paper listed in their
category. Categories are never features: they are the held-out labels. Time split: a member is
seeded with the k earliest of their papers (k = 1, 3, 10) and judged on the others; the seeds
are excluded from the ranking.

Figures, averaged over members: nDCG@10 (binary relevance) and Recall@10, the share of the
top 10 that is relevant, over min(10, relevant) (plain recall over hundreds of relevant papers
would read 0.0x for every method). 👎: the first page of ten is shown, the first two
non-relevant papers in it get a 👎, and the next page of ten is scored with and without them.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.svm import LinearSVC

from bench.recommend_latency import latency, latency_table, tiled_latency
from bench.report import progress, publish
from bot.features.meaning.models import DEFAULT_MODEL, MODELS
from bot.features.recommend import features, model
from bot.features.recommend.profile import Profile, seed_profile
from domain.paper import Links, Paper
from tools.realworld import ARXIV_SAMPLE

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ARXIV_SAMPLE
OUT = ROOT / "bench" / "out" / "recommend.md"
SEEDS = (1, 3, 10)
TOP = 10
MIN_MEMBER, MAX_MEMBER = 30, 3000
TAG = "recommend"


def read_sample(path: Path) -> list[Paper]:
    """The sample's records as catalog papers (English only: the sample has no Chinese)."""
    papers = []
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            published = datetime.fromisoformat(record["listing_date"]).replace(tzinfo=UTC)
            papers.append(Paper(
                title_en=record["title"], title_zh="", authors=tuple(record["authors"]),
                summary_en=" ".join(record["abstract"].split()),
                links=Links(arxiv_id=record["arxiv_id"], categories=tuple(record["categories"]),
                            published=published)))
    return papers


@dataclass(frozen=True)
class Member:
    """A simulated member: a category, their papers oldest first."""

    category: str
    papers: tuple[str, ...]


def members_of(papers: Sequence[Paper]) -> list[Member]:
    """One member per mid-sized category, papers in time order (then arXiv id)."""
    by_category: dict[str, list[Paper]] = {}
    for paper in papers:
        for category in set(paper.links.categories):
            by_category.setdefault(category, []).append(paper)
    members = []
    for category, liked in sorted(by_category.items()):
        if MIN_MEMBER <= len(liked) <= MAX_MEMBER:
            liked.sort(key=lambda p: (p.links.published or datetime.min, p.links.arxiv_id))
            members.append(Member(category, tuple(p.id for p in liked)))
    return members


def ndcg(ranked: Sequence[str], relevant: set[str]) -> float:
    """Binary-relevance nDCG at the length of `ranked`."""
    gain = sum(1 / math.log2(i + 2) for i, pid in enumerate(ranked) if pid in relevant)
    ideal = sum(1 / math.log2(i + 2) for i in range(min(len(ranked), len(relevant))))
    return gain / ideal if ideal else 0.0


def recall(ranked: Sequence[str], relevant: set[str]) -> float:
    """Relevant papers in the list over how many could fit in it."""
    fit = min(len(ranked), len(relevant))
    return sum(pid in relevant for pid in ranked) / fit if fit else 0.0


Ranker = Callable[[list[str]], list[str]]
"""Seeds -> the top ten paper ids (seeds excluded)."""


def _top(ids: np.ndarray, score: np.ndarray, exclude: set[str], count: int) -> list[str]:
    order = np.lexsort((ids, -score))
    return [str(ids[i]) for i in order if ids[i] not in exclude][:count]


class ArxivSanityLite:
    """arxiv-sanity-lite's recipe: its tf-idf (compute.py) and its SVM (serve.py)."""

    def __init__(self, papers: Sequence[Paper]) -> None:
        vectorizer = TfidfVectorizer(
            input="content", encoding="utf-8", decode_error="replace", strip_accents="unicode",
            lowercase=True, analyzer="word", stop_words="english",
            token_pattern=r"(?u)\b[a-zA-Z_][a-zA-Z0-9_]+\b", ngram_range=(1, 2),
            max_features=20000, norm="l2", use_idf=True, smooth_idf=True, sublinear_tf=True,
            max_df=0.1, min_df=5)
        corpus = [" ".join([p.title_en, p.summary_en, " ".join(p.authors)]) for p in papers]
        self.x = vectorizer.fit_transform(corpus)
        self.ids = np.array([p.id for p in papers], dtype=object)
        self.row = {pid: i for i, pid in enumerate(self.ids)}

    def rank(self, seeds: list[str]) -> list[str]:
        y = np.zeros(len(self.ids))
        y[[self.row[s] for s in seeds]] = 1
        clf = LinearSVC(class_weight="balanced", verbose=False, max_iter=10000, tol=1e-6,
                        C=0.01)
        clf.fit(self.x, y)
        return _top(self.ids, clf.decision_function(self.x), set(seeds), TOP)


def paperclub_ranker(index: features.FeatureIndex) -> Ranker:
    def rank(seeds: list[str]) -> list[str]:
        return [p.paper_id for p in model.recommend(index, seed_profile(seeds), TOP)]
    return rank


def recent_ranker(papers: Sequence[Paper]) -> Ranker:
    ordered = sorted(papers, key=lambda p: (p.links.published or datetime.min, p.id),
                     reverse=True)
    def rank(seeds: list[str]) -> list[str]:
        chosen = set(seeds)
        return [p.id for p in ordered if p.id not in chosen][:TOP]
    return rank


def random_ranker(papers: Sequence[Paper], seed: int) -> Ranker:
    ids = [p.id for p in papers]
    def rank(seeds: list[str]) -> list[str]:
        chosen = set(seeds)
        rng = random.Random(f"{seed}:{','.join(seeds)}")
        return [pid for pid in rng.sample(ids, TOP + len(seeds)) if pid not in chosen][:TOP]
    return rank


FIELD_SEEDS = 3
"""The "three bookmarks in one field" check: with this many seeds, how many of the ten
picks are in the member's field (at least half is the target)."""


def evaluate(rankers: dict[str, Ranker], members: Sequence[Member],
             in_field: dict[str, list[int]] | None = None,
             each: dict[tuple[str, int], list[float]] | None = None
             ) -> dict[tuple[str, int], tuple[float, float]]:
    """(method, k) -> (mean nDCG@10, mean Recall@10) over members; `in_field` gets, per
    method, each member's picks in their field with `FIELD_SEEDS` seeds; `each`, per method
    and k, each member's nDCG@10."""
    figures = {}
    for k in SEEDS:
        for name, rank in rankers.items():
            n, r = [], []
            for member in members:
                seeds = list(member.papers[:k])
                relevant = set(member.papers[k:])
                top = rank(seeds)
                if in_field is not None and k == FIELD_SEEDS:
                    in_field.setdefault(name, []).append(sum(p in relevant for p in top))
                n.append(ndcg(top, relevant))
                r.append(recall(top, relevant))
            figures[(name, k)] = (statistics.fmean(n), statistics.fmean(r))
            if each is not None:
                each[(name, k)] = n
            progress(TAG, f"k={k} {name}: nDCG@10 {figures[(name, k)][0]:.3f}")
    return figures


@dataclass(frozen=True)
class DislikeResult:
    """The second page's nDCG@10 without and with two 👎 on the first page."""

    k: int
    without: float
    with_dislikes: float
    better: int
    worse: int


def dislike_effect(index: features.FeatureIndex, members: Sequence[Member],
                   k: int) -> DislikeResult:
    """👎 on the first two non-relevant papers of page one; page two scored both ways."""
    plain, disliked, better, worse = [], [], 0, 0
    for member in members:
        seeds = list(member.papers[:k])
        relevant = set(member.papers[k:])
        profile = seed_profile(seeds)
        first = [p.paper_id for p in model.recommend(index, profile, TOP)]
        wrong = [pid for pid in first if pid not in relevant][:2]
        seen = frozenset({*seeds, *first})
        later = relevant - set(first)
        shown = Profile(profile.positives, frozenset(), seen)
        told = Profile(profile.positives, frozenset(wrong), seen)
        a = ndcg([p.paper_id for p in model.recommend(index, shown, TOP)], later)
        b = ndcg([p.paper_id for p in model.recommend(index, told, TOP)], later)
        plain.append(a)
        disliked.append(b)
        better += b > a
        worse += b < a
    return DislikeResult(k, statistics.fmean(plain), statistics.fmean(disliked), better, worse)


def field_table(in_field: dict[str, list[int]], members: Sequence[Member]) -> list[str]:
    """The three-bookmarks check per method: mean picks in the field, members with at least
    half, and robotics (cs.RO, the issue's example)."""
    robotics = [at for at, m in enumerate(members) if m.category == "cs.RO"]
    lines = ["", f"{FIELD_SEEDS} bookmarks in one field, picks of {TOP} in that field:", "",
             "| method | mean | members with ≥ half | cs.RO |", "|---|---:|---:|---:|"]
    for name, counts in in_field.items():
        half = sum(c * 2 >= TOP for c in counts)
        ro = str(counts[robotics[0]]) if robotics else "–"
        lines.append(f"| {name} | {statistics.fmean(counts):.1f} | {half}/{len(counts)} | "
                     f"{ro} |")
    return lines


RECIPE = "arxiv-sanity-lite recipe"
TFIDF_ALONE = "paperclub's tf-idf model alone (no topics)"


def split_table(each: dict[tuple[str, int], list[float]],
                in_field: dict[str, list[int]]) -> list[str]:
    """nDCG@10 over the odd-numbered members (1st, 3rd, ...: the ones parameters are chosen
    on), the even-numbered ones (held out) and all, each as a multiple of the recipe's."""
    names = list(dict.fromkeys(name for name, _ in each))
    halves = {"odd": slice(0, None, 2), "even": slice(1, None, 2), "all": slice(None)}
    lines = ["", "nDCG@10 as a multiple of the recipe's; parameters are chosen on the "
             "odd-numbered members (1st, 3rd, ... in category order), the even-numbered ones "
             "are held out; in-field: picks of 10 in the field with 3 bookmarks (mean, members "
             "with ≥ 5):", "",
             "| method | " + " | ".join(f"{half} k={k}" for half in halves for k in SEEDS)
             + " | in-field odd | in-field even |",
             "|---|" + "---:|" * (len(halves) * len(SEEDS) + 2)]
    for name in names:
        cells = []
        for part in halves.values():
            for k in SEEDS:
                mine = statistics.fmean(each[(name, k)][part])
                theirs = statistics.fmean(each[(RECIPE, k)][part]) if (RECIPE, k) in each \
                    else 0.0
                cells.append(f"{mine:.3f} ({mine / theirs:.2f}×)" if theirs else f"{mine:.3f}")
        for part in (halves["odd"], halves["even"]):
            counts = in_field.get(name, [])[part]
            cells.append(f"{statistics.fmean(counts):.1f}, {sum(c * 2 >= TOP for c in counts)}"
                         f"/{len(counts)}" if counts else "–")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return lines


def report(figures: dict[tuple[str, int], tuple[float, float]], dislikes: list[DislikeResult],
           sizes: str) -> str:
    names = list(dict.fromkeys(name for name, _ in figures))
    head = "| method | " + " | ".join(f"nDCG@10 k={k} | Recall@10 k={k}" for k in SEEDS) + " |"
    lines = [f"## Recommendations ({sizes})", "", head,
             "|---|" + "---:|---:|" * len(SEEDS)]
    for name in names:
        cells = " | ".join(f"{figures[(name, k)][0]:.3f} | {figures[(name, k)][1]:.3f}"
                           for k in SEEDS)
        lines.append(f"| {name} | {cells} |")
    lines += ["", "👎 on two of the first ten, nDCG@10 of the next ten (paperclub):", "",
              "| k | without 👎 | with 👎 | change | members better / worse |",
              "|---:|---:|---:|---:|---:|"]
    for d in dislikes:
        change = (d.with_dislikes - d.without) / d.without if d.without else 0.0
        lines.append(f"| {d.k} | {d.without:.3f} | {d.with_dislikes:.3f} | {change:+.1%} | "
                     f"{d.better} / {d.worse} |")
    return "\n".join(lines)


def configure(parser: argparse.ArgumentParser) -> None:
    """The benchmark's options."""
    parser.add_argument("--sample", type=Path, default=SAMPLE, help="the arXiv JSON Lines")
    parser.add_argument("--sizes", type=int, nargs="*", default=None,
                        help="catalog sizes for the latency part (the sample, repeated; "
                             "default 100,000, and 1,000,000 with --latency)")
    parser.add_argument("--runs", type=int, default=60, help="rankings per size and k")
    parser.add_argument("--tiled", type=int, nargs="*", default=[],
                        help="with --latency: also rank on the sample's features tiled to "
                             "these sizes (ranking time only, no fit to wait for)")
    parser.add_argument("--latency", action="store_true",
                        help="only the latency part: p50/p99 ranking time, fitting time, "
                             "memory, SQLite round trip")
    parser.add_argument("--meaning", action="store_true",
                        help="also the sentence encoder alone and blended at several weights "
                             "(the cached vectors of bench.meaning_vectors); no latency part")
    parser.add_argument("--model", default=DEFAULT_MODEL, choices=sorted(MODELS),
                        help="with --meaning: the sentence encoder (default: %(default)s)")
    parser.add_argument("--bound", action="store_true",
                        help="only how far the in-field check can go: per member, papers left "
                             "to find, one bookmark's neighbours in the field, a classifier "
                             "told most labels (with the encoder's vectors under --meaning)")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--seed", type=int, default=22, help="the random baseline's seed")


def _bound(args: argparse.Namespace, papers: list[Paper], index: features.FeatureIndex,
           members: list[Member]) -> int:
    from bench.recommend_bound import any_category_share, bound_table, field_bounds

    vectors = None
    if args.meaning:
        from bench.recommend_meaning import aligned

        vectors = aligned(papers, index, args.model)
    publish(f"## Recommendations: the in-field check's reach ({len(papers):,} papers)"
            + bound_table(field_bounds(papers, index, members, vectors),
                          any_category_share(papers, index)),
            args.out if args.out != OUT else OUT.with_name("recommend-bound.md"), TAG)
    return 0


def run(args: argparse.Namespace) -> int:
    """Build every method on the same catalog, score every member, print the table."""
    if not args.sample.exists():
        progress(TAG, f"{args.sample} is missing (the shared real-world data)")
        return 2
    papers = read_sample(args.sample)
    members = members_of(papers)
    seeds = [m.papers for m in members]
    if args.latency:
        sizes = args.sizes if args.sizes is not None else [100_000, 1_000_000]
        rows = [latency(papers, size, seeds, args.runs) for size in sizes]
        rows += [tiled_latency(papers, size, seeds, args.runs) for size in args.tiled]
        publish(f"## Recommendation latency ({len(members)} members)" + latency_table(rows),
                args.out if args.out != OUT else OUT.with_name("recommend-latency.md"), TAG)
        return 0
    started = time.perf_counter()
    index = features.build(papers)
    built = time.perf_counter() - started
    if args.bound:
        return _bound(args, papers, index, members)
    progress(TAG, f"{len(papers)} papers, {len(members)} members, features in {built:.1f} s")
    rankers: dict[str, Ranker] = {
        "paperclub": paperclub_ranker(index),
        TFIDF_ALONE: paperclub_ranker(features.FeatureIndex(index.ids, index.matrix,
                                                            index.vocabulary)),
        RECIPE: ArxivSanityLite(papers).rank,
        "most recent first": recent_ranker(papers),
        "random": random_ranker(papers, args.seed),
    }
    if args.meaning:
        from bench.recommend_meaning import meaning_rankers

        rankers.update(meaning_rankers(papers, index, TOP, args.model))
    in_field: dict[str, list[int]] = {}
    each: dict[tuple[str, int], list[float]] = {}
    figures = evaluate(rankers, members, in_field, each)
    dislikes = [dislike_effect(index, members, k) for k in SEEDS]
    sizes = (f"{len(papers):,} papers, {len(members)} members (arXiv categories), "
             f"features built in {built:.1f} s")
    timings = [latency(papers, size, seeds, args.runs)
               for size in (args.sizes if args.sizes is not None else [100_000])
               if not args.meaning]
    publish(report(figures, dislikes, sizes) + "\n" + "\n".join(field_table(in_field, members))
            + "\n" + "\n".join(split_table(each, in_field))
            + (latency_table(timings) if timings else ""),
            args.out, TAG)
    return 0
