""""Papers like my bookmarks" and `pick:recommended` on the real arXiv sample.

Catalog: `../shared/realworld/arxiv-metadata/arxiv-sample.jsonl` split in time: the earliest
80% of the 11,648 papers are the catalog (features built on them), the latest 20% arrive as
new papers (transformed into the kept features, as an add does). Members: one per arXiv
category on 30 to 3,000 papers (the bench recommend's members); a member bookmarked their k
earliest catalog papers (k = 3, 10), and a new paper is relevant to them when it is listed in
their category (categories are never features).

Notifications: a member is told of every new paper whose standing (0-100, the share of the
catalog it would rank above for them) reaches the threshold. Reported per threshold: the
share of members' notifications that are relevant (precision), the share of relevant new
papers told (recall), and notifications per member per 1,000 new papers; beside the share
relevant at random (what telling at random would get, whatever the rate).

Paper of the day: each member's bookmarks as a group profile, over the whole catalog; ten
days of picks (the best ten) with the recency prior and without it (the model's order alone):
the share in the member's category (any of their papers but the seeds) and the median age on
the sample's last day.
"""

from __future__ import annotations

import argparse
import statistics
import time
from datetime import date
from pathlib import Path

import numpy as np

from bench.recommend import SAMPLE, members_of, read_sample
from bench.report import p99, progress, publish
from bot.features.digest.recommended import CANDIDATES, published_on, ranked
from bot.features.recommend import features, model
from bot.features.recommend.profile import group_profile
from bot.features.recommend.standing import standing
from domain.paper import Paper
from domain.recommend import Signal, SignalKind

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "out" / "similar.md"
TAG = "similar"
SEEDS = (3, 10)
THRESHOLDS = (50, 80, 90, 95, 99)
NEW_SHARE = 0.2
USER = 1
DAYS = 10


def _split(papers: list[Paper]) -> tuple[list[Paper], list[Paper]]:
    ordered = sorted(papers, key=lambda p: (p.links.published, p.links.arxiv_id))
    cut = int(len(ordered) * (1 - NEW_SHARE))
    return ordered[:cut], ordered[cut:]


def _signals(seeds: list[str], at: Paper) -> list[Signal]:
    moment = at.links.published
    assert moment is not None
    return [Signal(USER, pid, SignalKind.BOOKMARKED, moment) for pid in seeds]


def configure(parser: argparse.ArgumentParser) -> None:
    """The benchmark's options."""
    parser.add_argument("--sample", type=Path, default=SAMPLE, help="the arXiv JSON Lines")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--meaning", action="store_true",
                        help="the paper of the day's picks with the sentence encoder blended "
                             "in, as the product blends it (the cached vectors of "
                             "bench.meaning_vectors)")


def run(args: argparse.Namespace) -> int:
    """Score every member's notifications and digest picks; print the tables."""
    if not args.sample.exists():
        progress(TAG, f"{args.sample} is missing (the shared real-world data)")
        return 2
    papers = read_sample(args.sample)
    old, new = _split(papers)
    started = time.perf_counter()
    index = features.build(old).with_papers(new)
    progress(TAG, f"{len(old)} catalog + {len(new)} new papers, features in "
                  f"{time.perf_counter() - started:.1f} s")
    vectors = None
    if args.meaning:
        from bench.recommend_meaning import aligned

        vectors = aligned(papers, index)
    old_ids = {p.id for p in old}
    new_ids = [p.id for p in new]
    by_id = {p.id: p for p in papers}
    members = members_of(papers)
    day = max(p.links.published for p in papers if p.links.published).date()
    lines = [f"Catalog {len(old):,} papers, {len(new):,} new; {len(members)} members.", ""]
    lines += ["| k | threshold | precision | recall | told per 1,000 new | random precision |",
              "|---:|---:|---:|---:|---:|---:|"]
    picks: dict[int, list[tuple[float, float, float, float]]] = {}
    timings: list[float] = []
    for k in SEEDS:
        told = {t: [0, 0, 0, 0] for t in THRESHOLDS}  # told, relevant told, relevant, members
        base: list[float] = []
        for member in members:
            seeds = [pid for pid in member.papers if pid in old_ids][:k]
            relevant = {pid for pid in member.papers if pid not in old_ids}
            if len(seeds) < k or not relevant:
                continue
            signals = _signals(seeds, by_id[seeds[-1]])
            started = time.perf_counter()
            ranked = standing(index, signals, USER, new_ids)
            timings.append(time.perf_counter() - started)
            base.append(len(relevant) / len(new_ids))
            for threshold, counts in told.items():
                chosen = {pid for pid, s in ranked.of.items() if s >= threshold}
                counts[0] += len(chosen)
                counts[1] += len(chosen & relevant)
                counts[2] += len(relevant)
                counts[3] += 1
            picks.setdefault(k, []).append(_digest_pick(
                index, signals, by_id, set(member.papers) - set(seeds), day, vectors))
        for threshold, (n, hits, rel, count) in told.items():
            lines.append(f"| {k} | {threshold} | {hits / n if n else 0:.3f} | {hits / rel:.3f} "
                         f"| {1000 * n / count / len(new_ids):.1f} | "
                         f"{statistics.mean(base):.3f} |")
    ms = [t * 1000 for t in timings]
    lines += ["", f"One member's standings of {len(new_ids):,} new papers: median "
                  f"{statistics.median(ms):.0f} ms, p99 {p99(ms):.0f} ms.", ""]
    lines += ["| k | 10 picks relevant (prior) | (no prior) | median age, days (prior) | "
              "(no prior) |", "|---:|---:|---:|---:|---:|"]
    for k, rows in picks.items():
        lines.append(f"| {k} | {statistics.mean(r[0] for r in rows):.3f} | "
                     f"{statistics.mean(r[2] for r in rows):.3f} | "
                     f"{statistics.median(r[1] for r in rows):.0f} | "
                     f"{statistics.median(r[3] for r in rows):.0f} |")
    publish("\n".join(lines), args.out, TAG)
    return 0


def _digest_pick(index: features.FeatureIndex, signals: list[Signal], by_id: dict[str, Paper],
                 relevant: set[str], day: date, vectors: np.ndarray | None = None
                 ) -> tuple[float, float, float, float]:
    """Ten days of picks (the best ten) with the recency prior and without (the model's
    order): the share in the member's category and the median age, each; `vectors`: the
    encoder's, blended in as `RecommendService.group_picks` does."""
    profile = group_profile(signals)
    dense = None
    if vectors is not None:
        from bench.recommend_meaning import centroid_similarity

        rows = [r for pid in profile.positives if (r := index.row(pid)) is not None]
        dense = centroid_similarity(vectors, rows)
    picks = model.recommend(index, profile, CANDIDATES, dense)
    dated = [(pick, published_on(by_id[pick.paper_id])) for pick in picks]
    with_prior = [r.paper_id for r in ranked(dated, day)[:DAYS]]
    plain = [pick.paper_id for pick in picks[:DAYS]]

    def age(pid: str) -> int:
        published = published_on(by_id[pid])
        return (day - published).days if published else 0

    return (statistics.mean(pid in relevant for pid in with_prior),
            statistics.median(age(pid) for pid in with_prior),
            statistics.mean(pid in relevant for pid in plain),
            statistics.median(age(pid) for pid in plain))
