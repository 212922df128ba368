"""Search by meaning on the real arXiv sample: descriptive Chinese and English queries
(`bench.meaning_queries`, judged by their stated rules), today's lexical search beside the
hybrid (`/paper`'s lexical tiers, then papers close in meaning) and the encoder alone, in one
run: precision@5 and recall@20 per language, the threshold's effect, `/paper` latency with and
without the semantic step, encoding throughput and the vectors' memory.

The sample's vectors come from the cache `python -m bench.meaning_vectors` fills (the bundled
model, ~20 minutes on one core); they are written to the catalog's `paper_embeddings` and read
back by `MeaningKeeper` as at a bot's start. precision@5 = relevant among the first 5 /
min(5, relevant papers), recall@20 likewise over 20 (as `bench crosslingual`).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import numpy as np

from bench.meaning_queries import QUERIES, Described
from bench.meaning_vectors import CACHE, cached_vectors
from bench.recommend import SAMPLE
from bench.report import fmt_ms, p99, progress, publish
from bot.features.catalog.loader import load_catalog
from bot.features.meaning.encoder import BundledEncoder, paper_text, quantise, text_hash
from bot.features.meaning.keeper import MeaningKeeper
from bot.features.papers.cog import FIRST_SEARCH
from bot.features.papers.query import parse_query
from bot.features.papers.results import PER_PAGE
from bot.features.papers.search import MEANING_THRESHOLD, SearchService
from domain.embedding import StoredEmbedding
from domain.paper import Paper
from storage.backend import EMBEDDINGS, PAPERS
from storage.sqlite.database import Database

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "out" / "meaning.md"
TAG = "meaning"
THRESHOLDS = (0.2, 0.25, 0.3, 0.35)
MAX_UNCACHED = 200
"""Papers the bench may encode itself (a few seconds each on a busy machine)."""
LOOKUPS = 300
"""Title lookups timed beside the descriptive queries (the common /paper call: the page full)."""

Ranker = Callable[[Described], Awaitable[list[str]]]


def _scores(queries: list[Described], ranked: dict[str, list[str]],
            relevant: dict[str, set[str]]) -> tuple[float, float, int]:
    """Mean precision@5, recall@20, and how many queries answered nothing."""
    precision, recall, empty = [], [], 0
    for q in queries:
        ids, wanted = ranked[q.text], relevant[q.text]
        empty += not ids
        if wanted:
            precision.append(len(wanted & set(ids[:5])) / min(5, len(wanted)))
            recall.append(len(wanted & set(ids[:20])) / min(20, len(wanted)))
    return statistics.fmean(precision), statistics.fmean(recall), empty


async def _ranked(rank: Ranker) -> dict[str, list[str]]:
    return {q.text: await rank(q) for q in QUERIES}


def _cached_hashes() -> set[str]:
    if not CACHE.exists():
        return set()
    with np.load(CACHE) as stored:
        return set(stored["hashes"].tolist())


async def _stored(db: Database, papers: list[Paper], model: str) -> None:
    """The cached vectors written as the keeper would have written them."""
    vectors = cached_vectors(papers)
    codes = quantise(vectors)
    await EMBEDDINGS.open(db).write(model, [
        StoredEmbedding(p.id, text_hash(paper_text(p)), code, scale)
        for p, (code, scale) in zip(papers, codes, strict=True)])


async def _timed(search: SearchService, texts: list[str], by_meaning: bool) -> list[float]:
    times = []
    for text in texts:
        started = time.perf_counter()
        await search.search(parse_query(text), limit=FIRST_SEARCH, papers=PER_PAGE,
                            by_meaning=by_meaning)
        times.append((time.perf_counter() - started) * 1000)
    return times


async def _bench(scratch: Path) -> str:
    db = await Database.open(scratch / "arxiv.db")
    try:
        store = PAPERS.open(db)
        progress(TAG, f"loading {SAMPLE}")
        await load_catalog(store, SAMPLE)
        papers = [p async for p in store.iter_papers()]
        missing = len(papers) - len(_cached_hashes() & {text_hash(paper_text(p)) for p in papers})
        if missing > MAX_UNCACHED:
            raise SystemExit(f"{missing} papers have no cached vector: run "
                             "`python -m bench.meaning_vectors` first (~20 minutes)")
        encoder = BundledEncoder()
        await _stored(db, papers, encoder.name)
        keeper = MeaningKeeper(store, EMBEDDINGS.open(db), encoder)
        lexical, hybrid = SearchService(store), SearchService(store, meaning=keeper)
        started = time.perf_counter()
        await hybrid.prepare()
        await keeper.built()
        await keeper.query_vector("warm up", wait=True)
        read_back = time.perf_counter() - started
        assert keeper.encoded == 0, "the cache did not cover the catalog"
        relevant = {q.text: {p.id for p in papers if q.relevant(p)} for q in QUERIES}
        progress(TAG, f"{len(QUERIES)} queries")

        async def lexical_rank(q: Described) -> list[str]:
            return [h.id for h in (await lexical.search(parse_query(q.text), limit=20)).hits]

        async def hybrid_rank(q: Described) -> list[str]:
            outcome = await hybrid.search(parse_query(q.text), limit=20, by_meaning=True)
            return [h.id for h in outcome.hits]

        async def alone_rank(q: Described) -> list[str]:
            return [pid for pid, _ in await keeper.nearest(q.text, 20, threshold=-1.0)]

        systems = {"today's lexical search": await _ranked(lexical_rank),
                   "hybrid (lexical, then close in meaning)": await _ranked(hybrid_rank),
                   "encoder alone (top 20)": await _ranked(alone_rank)}
        lines = ["# Search by meaning", "",
                 f"{len(papers):,} real arXiv papers; {len(QUERIES)} descriptive queries "
                 f"({sum(q.lang == 'zh' for q in QUERIES)} Chinese, "
                 f"{sum(q.lang == 'en' for q in QUERIES)} English); vectors read back in "
                 f"{read_back:.1f} s (with the query encoder's load).", "",
                 "| system | language | precision@5 | recall@20 | answered nothing |",
                 "| --- | --- | ---: | ---: | ---: |"]
        for name, ranked in systems.items():
            for lang in ("zh", "en"):
                chosen = [q for q in QUERIES if q.lang == lang]
                precision, recall, empty = _scores(chosen, ranked, relevant)
                lines.append(f"| {name} | {lang} | {precision:.3f} | {recall:.3f} | "
                             f"{empty}/{len(chosen)} |")
        lines += ["", "The threshold (hybrid, precision@5 per language; queries answering "
                  "nothing):", "", "| threshold | zh | en | nothing |", "| ---: | ---: | ---: "
                  "| ---: |"]
        for threshold in THRESHOLDS:
            hybrid.meaning_threshold = threshold
            ranked = await _ranked(hybrid_rank)
            zh = _scores([q for q in QUERIES if q.lang == "zh"], ranked, relevant)
            en = _scores([q for q in QUERIES if q.lang == "en"], ranked, relevant)
            lines.append(f"| {threshold} | {zh[0]:.3f} | {en[0]:.3f} | {zh[2] + en[2]} |")
        hybrid.meaning_threshold = MEANING_THRESHOLD
        texts = [q.text for q in QUERIES] + [p.title_en for p in papers[:LOOKUPS]]
        without, with_meaning = [], []
        for _ in range(3):  # interleaved passes
            without += await _timed(hybrid, texts, False)
            with_meaning += await _timed(hybrid, texts, True)
        ratio = p99(with_meaning) / p99(without)
        lines += ["", f"/paper's search (limit {FIRST_SEARCH}, {len(texts)} queries: the "
                  f"descriptive ones and {LOOKUPS} titles, 3 interleaved passes), ms:", "",
                  "| | p50 | p99 |", "| --- | ---: | ---: |",
                  f"| lexical only | {fmt_ms(statistics.median(without))} | "
                  f"{fmt_ms(p99(without))} |",
                  f"| with the semantic step | {fmt_ms(statistics.median(with_meaning))} | "
                  f"{fmt_ms(p99(with_meaning))} |", "",
                  f"p99 ratio {ratio:.2f}× (target ≤ 1.3×: "
                  f"{'met' if ratio <= 1.3 else 'NOT met'})."]
        batch = [paper_text(p) for p in papers[:64]]
        started = time.perf_counter()
        await asyncio.to_thread(encoder.encode, batch)
        rate = len(batch) / (time.perf_counter() - started)
        nbytes = keeper.index.nbytes
        per_paper = nbytes / max(len(keeper.index), 1)
        lines += ["", f"Encoding: {rate:.1f} papers/s on one thread of this (shared) machine "
                  f"(64 papers' texts); 100k papers ≈ {100_000 / rate / 3600:.1f} h in the "
                  f"worker. Vectors in memory: {nbytes / 1e6:.1f} MB for "
                  f"{len(keeper.index):,} papers ({per_paper:.0f} B each): "
                  f"{per_paper * 1e5 / 1e6:.0f} MB at 100k, {per_paper * 1e6 / 1e6:.0f} MB "
                  "at 1M."]
        await hybrid.close()
        return "\n".join(lines)
    finally:
        await db.close()


def configure(parser: argparse.ArgumentParser) -> None:
    """No options: the sample and the cache are fixed."""


def run(args: argparse.Namespace) -> int:
    """Print the figures."""
    with tempfile.TemporaryDirectory() as scratch:
        publish(asyncio.run(_bench(Path(scratch))), OUT, TAG)
    return 0
