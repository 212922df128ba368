"""A tiny deterministic encoder for tests where the real model is not the point: each text's
character trigrams hashed into 512 dimensions (crc32: the same in every process)."""

from __future__ import annotations

import time
import zlib
from collections.abc import Sequence

import numpy as np

from bot.features.meaning.encoder import unit_rows
from domain.embedding import StoredEmbedding

WIDTH = 512


class TrigramEncoder:
    """Texts sharing trigrams are close; `fail_after` batches, it raises (a crash)."""

    gates_apart = False

    def __init__(self, name: str = "tiny-trigrams", fail_after: int | None = None) -> None:
        self.name = name
        self.fail_after = fail_after
        self.batches = 0

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if self.fail_after is not None and self.batches >= self.fail_after:
            raise RuntimeError("the worker died")
        self.batches += 1
        rows = np.zeros((len(texts), WIDTH), dtype=np.float32)
        for row, text in enumerate(texts):
            folded = f"  {text.casefold()}  "
            for at in range(len(folded) - 2):
                rows[row, zlib.crc32(folded[at:at + 3].encode()) % WIDTH] += 1.0
        return unit_rows(rows)

    def encode_queries(self, texts: Sequence[str], *, centred: bool = True,
                       gate: bool = False) -> np.ndarray:
        return self.encode(texts)


class MemoryEmbeddings:
    """An `EmbeddingStore` in a dict (for end-to-end tests whose bot keeps its database)."""

    def __init__(self) -> None:
        self.rows: dict[str, tuple[str, StoredEmbedding]] = {}

    async def text_hashes(self, model: str) -> dict[str, str]:
        return {pid: e.text_hash for pid, (m, e) in self.rows.items() if m == model}

    async def write(self, model: str, embeddings: Sequence[StoredEmbedding]) -> None:
        self.rows.update((e.paper_id, (model, e)) for e in embeddings)

    async def embeddings(self, model: str, after: str, limit: int) -> list[StoredEmbedding]:
        return [e for pid, (m, e) in sorted(self.rows.items()) if m == model and pid > after
                ][:limit]

    async def remove(self, paper_ids: Sequence[str]) -> None:
        for pid in paper_ids:
            self.rows.pop(pid, None)


class SlowTrigramEncoder(TrigramEncoder):
    """The trigram encoder taking `seconds` a batch (time to kill its worker mid-run)."""

    def __init__(self, name: str, seconds: float) -> None:
        super().__init__(name)
        self.seconds = seconds

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        time.sleep(self.seconds)
        return super().encode(texts)
