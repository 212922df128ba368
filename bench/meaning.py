"""Search by meaning on the real arXiv sample: descriptive Chinese and English queries
(`bench.meaning_queries`, judged by their stated rules), today's lexical search beside the
hybrid (`/paper`'s lexical tiers, then papers close in meaning) and the encoder alone, in one
run: precision@5 and recall@20 per language, the threshold's effect, `/paper` latency (its first
answer, lexical, against lexical only; the semantic step that edits it in the background; the
inline search of the CLI and the web page), encoding throughput and the vectors' memory.

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
from bench.meaning_unseen import UNSEEN
from bench.meaning_vectors import model_vectors
from bench.recommend import SAMPLE
from bench.report import fmt_ms, p99, progress, publish
from bot.features.catalog.loader import load_catalog
from bot.features.meaning.encoder import Encoder, paper_text, quantise, text_hash
from bot.features.meaning.index import MeaningIndex
from bot.features.meaning.keeper import Cut, MeaningKeeper
from bot.features.meaning.models import DEFAULT_MODEL, MODELS, chosen
from bot.features.papers.cog import FIRST_SEARCH
from bot.features.papers.query import parse_query
from bot.features.papers.results import PER_PAGE
from bot.features.papers.search import MEANING_ROOM, SearchService
from bot.settings import bundled_catalog
from domain.embedding import StoredEmbedding
from domain.paper import Paper
from storage.backend import EMBEDDINGS, PAPERS
from storage.sqlite.database import Database

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "out" / "meaning.md"
TAG = "meaning"
THRESHOLDS = tuple(round(0.16 + 0.02 * n, 2) for n in range(12))
"""The cuts swept (the nearest paper's centred cosine), 0.16 to 0.38."""
OFF_TOPIC = ("一个巧克力蛋糕的做法", "上周末足球比赛的比分", "我家的猫喜欢睡觉",
             "recipe for a chocolate cake", "football scores from last weekend",
             "my cat likes to sleep all day", "cheap flights to paris")
"""Queries nothing in the sample is about: the hybrid should find nothing close in meaning."""
MAX_UNCACHED = 200
"""Papers the bench may encode itself (a few seconds each on a busy machine)."""
LOOKUPS = 300
"""Title lookups timed beside the descriptive queries (the common /paper call: the page full)."""

ABOUT_THRESHOLDS = (0.3, 0.35, 0.4, 0.45)
"""Thresholds tried for a description subscription (`kind:about`, not built yet)."""
SYNTHETIC = 100_000
"""Papers of the synthetic index the semantic step is timed on (random unit vectors)."""

Ranker = Callable[[Described], Awaitable[list[str]]]


async def _about(keeper: MeaningKeeper, papers: list[Paper],
                 relevant: dict[str, set[str]]) -> list[str]:
    """Each descriptive query taken as a description subscription: the papers at or above a
    threshold would be notified; how many, and the share of them relevant."""
    ids = [p.id for p in papers]
    queries = (*QUERIES, *UNSEEN)
    vectors = [await keeper.query_vector(q.text, wait=True) for q in queries]
    rows = [keeper.index.aligned(v, ids) for v in vectors if v is not None]
    wanted = [relevant[q.text] for q in queries]
    lines = ["", f"A description as a subscription ({len(wanted)} queries of both sets, every "
             "paper of the sample arriving): papers at or above the threshold (centred)", "",
             "| threshold | papers per description | precision | descriptions with none |",
             "| ---: | ---: | ---: | ---: |"]
    for threshold in ABOUT_THRESHOLDS:
        hits = [{ids[c] for c in np.flatnonzero(row >= threshold)} for row in rows]
        found = sum(len(h) for h in hits)
        right = sum(len(h & w) for h, w in zip(hits, wanted, strict=True))
        lines.append(f"| {threshold} | {found / len(hits):.1f} | "
                     f"{right / found if found else 0:.3f} | {sum(not h for h in hits)} |")
    return lines


def _at_scale(encoder: Encoder, texts: list[str]) -> list[str]:
    """The semantic step's two parts timed at `SYNTHETIC` papers: encoding the query and
    scoring the index (centred), and the vectors' memory."""
    rng = np.random.default_rng(41)
    width = encoder.encode_queries(["warm up"]).shape[1]
    rows = rng.normal(size=(SYNTHETIC, width)).astype(np.float32)
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    index = MeaningIndex.of([StoredEmbedding(str(n), "", code, scale)
                             for n, (code, scale) in enumerate(quantise(rows))])
    del rows
    index.nearest(encoder.encode_queries(["warm up"])[0], MEANING_ROOM)  # centring, once
    encoding, scoring = [], []
    for text in texts:
        started = time.perf_counter()
        vector = encoder.encode_queries([text])[0]
        encoding.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        index.nearest(vector, MEANING_ROOM, threshold=0.0)
        scoring.append((time.perf_counter() - started) * 1000)
    return ["", f"The semantic step at {SYNTHETIC:,} papers (synthetic vectors, "
            f"{len(texts)} queries), ms:", "", "| part | p50 | p99 |", "| --- | ---: | ---: |",
            f"| encoding the query | {fmt_ms(statistics.median(encoding))} | "
            f"{fmt_ms(p99(encoding))} |",
            f"| scoring the index (centred) | {fmt_ms(statistics.median(scoring))} | "
            f"{fmt_ms(p99(scoring))} |", "",
            f"Vectors in memory at {SYNTHETIC:,}: {index.nbytes / 1e6:.1f} MB."]


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


async def _ranked(rank: Ranker, queries: tuple[Described, ...] = QUERIES
                  ) -> dict[str, list[str]]:
    return {q.text: await rank(q) for q in queries}


def _table(systems: dict[str, dict[str, list[str]]], queries: tuple[Described, ...],
           relevant: dict[str, set[str]]) -> list[str]:
    lines = ["| system | language | precision@5 | recall@20 | answered nothing |",
             "| --- | --- | ---: | ---: | ---: |"]
    for name, ranked in systems.items():
        for lang in ("zh", "en"):
            chosen = [q for q in queries if q.lang == lang]
            precision, recall, empty = _scores(chosen, ranked, relevant)
            lines.append(f"| {name} | {lang} | {precision:.3f} | {recall:.3f} | "
                         f"{empty}/{len(chosen)} |")
    return lines


async def _stored(db: Database, papers: list[Paper], setting: str) -> int:
    """The cached vectors written under the model's name as the keeper would have written
    them; how many papers have none."""
    have, vectors = model_vectors(papers, setting)
    await EMBEDDINGS.open(db).write(chosen(setting).encoder().name, [
        StoredEmbedding(papers[i].id, text_hash(paper_text(papers[i])), code, scale)
        for i, (code, scale) in zip(have, quantise(vectors), strict=True)])
    return len(papers) - len(have)


async def _timed(search: SearchService, texts: list[str], by_meaning: bool) -> list[float]:
    """`/paper`'s search inline, lexical only or with the semantic step, ms per query."""
    times = []
    for text in texts:
        started = time.perf_counter()
        await search.search(parse_query(text), limit=FIRST_SEARCH, papers=PER_PAGE,
                            by_meaning=by_meaning)
        times.append((time.perf_counter() - started) * 1000)
    return times


async def _progressive(search: SearchService, texts: list[str]
                       ) -> tuple[list[float], list[float]]:
    """`/paper`'s search as the cog runs it (`search_first`): ms to the first answer, and ms
    of the step by meaning that edits it (each query's, when it runs)."""
    first, edit = [], []
    for text in texts:
        started = time.perf_counter()
        answer = await search.search_first(parse_query(text), limit=FIRST_SEARCH,
                                           papers=PER_PAGE)
        first.append((time.perf_counter() - started) * 1000)
        if answer.later is not None:
            started = time.perf_counter()
            await answer.later()
            edit.append((time.perf_counter() - started) * 1000)
    return first, edit


def _latency(texts: list[str], without: list[float], inline: list[float], first: list[float],
             edit: list[float]) -> list[str]:
    """The latency table: the first answer against lexical only (the target), and the step by
    meaning (inline before, an edit now)."""
    ratio = p99(first) / p99(without)
    return ["", f"/paper's search (limit {FIRST_SEARCH}, {len(texts)} queries: the "
            f"descriptive ones and {LOOKUPS} titles, 3 interleaved passes through "
            "`SearchService`), ms:", "",
            "| | p50 | p99 |", "| --- | ---: | ---: |",
            f"| lexical only | {fmt_ms(statistics.median(without))} | {fmt_ms(p99(without))} |",
            f"| first answer, progressive (`search_first`) | "
            f"{fmt_ms(statistics.median(first))} | {fmt_ms(p99(first))} |",
            f"| the step by meaning, in the background until the edit ({len(edit)} runs) | "
            f"{fmt_ms(statistics.median(edit)) if edit else '—'} | "
            f"{fmt_ms(p99(edit)) if edit else '—'} |",
            f"| inline with the semantic step (the CLI, the web page) | "
            f"{fmt_ms(statistics.median(inline))} | {fmt_ms(p99(inline))} |", "",
            f"First answer's p99 against lexical only: {ratio:.2f}× (target ≤ 1.3×: "
            f"{'met' if ratio <= 1.3 else 'NOT met'})."]


BUNDLED_DESCRIPTIONS = (
    "从数据中找出描述系统的方程", "如何让模型更小更快", "为什么神经网络会突然学会泛化",
    "让模型合并得更好",
    "how do networks suddenly start to generalise",
    "finding equations that describe a system from data",
    "making several fine-tuned models into one", "保护举报人的隐私",
    "training with fewer bits of precision", "语言模型会编造事实吗")
"""Descriptions of papers of the bundled catalog, none in its papers' words."""


async def _bundled(scratch: Path, encoder: Encoder, cut: Cut) -> list[str]:
    """A catalog too small to centre (the bundled one, 30 papers): the nearest paper's plain
    cosine for its descriptions and for the off-topic queries, against the model's bar."""
    db = await Database.open(scratch / "bundled.db")
    try:
        store = PAPERS.open(db)
        await load_catalog(store, bundled_catalog())
        papers = [p async for p in store.iter_papers()]
    finally:
        await db.close()
    vectors = encoder.encode([paper_text(p) for p in papers])
    near = {name: np.sort((encoder.encode_queries(list(texts), centred=False)
                           @ vectors.T).max(axis=1))
            for name, texts in (("descriptions", BUNDLED_DESCRIPTIONS),
                                ("off-topic", OFF_TOPIC))}
    bar = cut.bar(MeaningIndex.of([]))
    return ["", f"The bundled catalog ({len(papers)} papers, too few to centre: plain cosines, "
            f"the bar {bar}): the nearest paper's cosine", "", "| queries | lowest | highest | "
            "at or above the bar |", "| --- | ---: | ---: | ---: |",
            *(f"| {len(best)} {name} | {best[0]:.3f} | {best[-1]:.3f} | "
              f"{int((best >= bar).sum())}/{len(best)} |" for name, best in near.items())]


async def _bench(scratch: Path, setting: str) -> str:
    db = await Database.open(scratch / "arxiv.db")
    try:
        store = PAPERS.open(db)
        progress(TAG, f"loading {SAMPLE}")
        await load_catalog(store, SAMPLE)
        papers = [p async for p in store.iter_papers()]
        model = chosen(setting)
        missing = await _stored(db, papers, setting)
        if missing > MAX_UNCACHED:
            raise SystemExit(f"{missing} papers have no cached vector of {setting}: fill the "
                             "caches first (`python -m bench.meaning_vectors`; "
                             "`python -m bench.meaning_encoders --fill e5small --views text`)")
        encoder = model.encoder()
        keeper = MeaningKeeper(store, EMBEDDINGS.open(db), encoder, cut=model.cut)
        lexical, hybrid = SearchService(store), SearchService(store, meaning=keeper)
        started = time.perf_counter()
        await hybrid.prepare()
        await keeper.built()
        await keeper.query_vector("warm up", wait=True)
        read_back = time.perf_counter() - started
        assert keeper.encoded == missing, "the cache did not cover the catalog"
        relevant = {q.text: {p.id for p in papers if q.relevant(p)}
                    for q in (*QUERIES, *UNSEEN)}
        progress(TAG, f"{len(QUERIES)} queries")

        async def lexical_rank(q: Described) -> list[str]:
            return [h.id for h in (await lexical.search(parse_query(q.text), limit=20)).hits]

        async def hybrid_rank(q: Described) -> list[str]:
            outcome = await hybrid.search(parse_query(q.text), limit=20, by_meaning=True)
            return [h.id for h in outcome.hits]

        async def alone_rank(q: Described) -> list[str]:
            return [pid for pid, _ in await keeper.nearest(q.text, 20, threshold=-1.0)]

        rankers = {"today's lexical search": lexical_rank,
                   "hybrid (lexical, then close in meaning)": hybrid_rank,
                   "encoder alone (top 20, centred)": alone_rank}
        systems = {name: await _ranked(rank) for name, rank in rankers.items()}
        unseen = {name: await _ranked(rank, UNSEEN) for name, rank in rankers.items()}
        off_topic = [bool((await hybrid.search(parse_query(text), limit=20,
                                               by_meaning=True)).close)
                     for text in OFF_TOPIC]
        lines = [f"# Search by meaning: {setting} ({encoder.name})", "",
                 f"{len(papers):,} real arXiv papers; {len(QUERIES)} descriptive queries "
                 f"({sum(q.lang == 'zh' for q in QUERIES)} Chinese, "
                 f"{sum(q.lang == 'en' for q in QUERIES)} English); vectors read back in "
                 f"{read_back:.1f} s (with the query encoder's load and {missing} papers "
                 "not in the cache encoded).", "",
                 *_table(systems, QUERIES, relevant), "",
                 f"The unseen set (`bench.meaning_unseen`, {len(UNSEEN)} queries written "
                 "before any result was seen, never tuned on):", "",
                 *_table(unseen, UNSEEN, relevant), "",
                 f"Off-topic queries the hybrid answers with papers close in meaning: "
                 f"{sum(off_topic)}/{len(OFF_TOPIC)}."]
        lines += ["", f"The threshold (now {model.cut.threshold}, margin "
                  f"{model.cut.margin}; hybrid precision@5 per language, our queries "
                  "answering nothing, off-topic ones answered):", "",
                  "| threshold | zh | en | nothing | off-topic |",
                  "| ---: | ---: | ---: | ---: | ---: |"]
        for threshold in THRESHOLDS:
            keeper.cut = Cut(threshold, model.cut.margin)
            ranked = await _ranked(hybrid_rank)
            zh = _scores([q for q in QUERIES if q.lang == "zh"], ranked, relevant)
            en = _scores([q for q in QUERIES if q.lang == "en"], ranked, relevant)
            answered = [bool((await hybrid.search(parse_query(text), limit=20,
                                                  by_meaning=True)).close)
                        for text in OFF_TOPIC]
            lines.append(f"| {threshold} | {zh[0]:.3f} | {en[0]:.3f} | {zh[2] + en[2]} | "
                         f"{sum(answered)}/{len(OFF_TOPIC)} |")
        keeper.cut = model.cut
        texts = [q.text for q in QUERIES] + [p.title_en for p in papers[:LOOKUPS]]
        without, inline, first, edit = [], [], [], []
        for _ in range(3):  # interleaved passes
            without += await _timed(hybrid, texts, False)
            shown, edited = await _progressive(hybrid, texts)
            first += shown
            edit += edited
            inline += await _timed(hybrid, texts, True)
        lines += _latency(texts, without, inline, first, edit)
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
        if setting == DEFAULT_MODEL:  # (its thresholds are the bundled model's)
            lines += await _about(keeper, papers, relevant)
        lines += _at_scale(encoder, [q.text for q in QUERIES])
        lines += await _bundled(scratch, encoder, model.cut)
        await hybrid.close()
        return "\n".join(lines)
    finally:
        await db.close()


def configure(parser: argparse.ArgumentParser) -> None:
    """The model (`[search] meaning_model`); the sample and the caches are fixed."""
    parser.add_argument("--model", choices=sorted(MODELS), default=DEFAULT_MODEL,
                        help="the sentence encoder (default: %(default)s)")


def run(args: argparse.Namespace) -> int:
    """Print the figures."""
    with tempfile.TemporaryDirectory() as scratch:
        out = OUT if args.model == DEFAULT_MODEL else OUT.with_name(f"meaning-{args.model}.md")
        publish(asyncio.run(_bench(Path(scratch), args.model)), out, TAG)
    return 0
