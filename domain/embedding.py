"""A paper's sentence-encoder vector as kept with the catalog."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class StoredEmbedding:
    """One paper's vector under one model: the hash of the text embedded (a paper whose text
    moves is embedded again), the int8 codes and the scale that brings them back."""

    paper_id: str
    text_hash: str
    vector: bytes
    scale: float
