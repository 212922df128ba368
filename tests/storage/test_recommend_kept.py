"""The recommendation features kept with the catalog, through the service, on both backends:
fitted once after a load and stored, read back (not refitted) by the next start with the same
ranking as a fresh fit, an added paper transformed alone and stored, a file load refitting;
stored rows read back bit for bit."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.features.catalog.jsonl import dumps
from bot.features.catalog.loader import load_catalog
from bot.features.recommend import features, keeper, model, topics
from bot.features.recommend.features import FeatureIndex
from bot.features.recommend.keeper import decode_rows, encode_rows
from bot.features.recommend.profile import member_profile, seed_profile
from bot.features.recommend.service import Audience, RecommendService
from domain.paper import Paper
from domain.recommend import Verdict
from tests.backends import Backend

T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
GUILD, ALICE = 1, 10
IN_PROCESS = 0


def _service(backend: Backend) -> RecommendService:
    """A fresh process's service (nothing in memory)."""
    return RecommendService(backend.papers(), backend.recommendations(), lambda: T0,
                            features=backend.recommend_features())


async def _caught_up(service: RecommendService) -> FeatureIndex:
    await service.prepare()
    await service.features.built()
    return await service.index()


def _same_rows(a: FeatureIndex, b: FeatureIndex) -> bool:
    return a.ids == b.ids and a.matrix.shape == b.matrix.shape and (
        a.matrix != b.matrix).nnz == 0


def _ranked(picks: list[model.Pick]) -> list[model.Pick]:
    """The picks without their reasons' words (the service keeps only readable ones)."""
    return [replace(pick, words=()) for pick in picks]


async def test_a_restart_reads_the_kept_features_and_ranks_as_a_fresh_fit(
        backend: Backend, catalog_path: Path, bundled_papers: list[Paper]) -> None:
    await load_catalog(backend.papers(), catalog_path, process_from=IN_PROCESS)
    signals = backend.recommendations()
    ids = sorted(p.id for p in bundled_papers)
    for pid in ids[:3]:
        await signals.rate(GUILD, ALICE, pid, Verdict.UP, T0)
    await signals.rate(GUILD, ALICE, ids[7], Verdict.DOWN, T0)
    profile = member_profile(await signals.signals(GUILD), ALICE)
    reference = model.recommend(features.build(bundled_papers), profile, 10)
    assert len(reference) == 10

    first = _service(backend)
    fresh = [r.pick for r in await first.recommend(GUILD, ALICE, Audience.ME, 10)]
    assert _ranked(fresh) == _ranked(reference)  # its reasons' words made readable
    assert first.features.fits == 1
    again = _service(backend)
    assert [r.pick for r in await again.recommend(GUILD, ALICE, Audience.ME, 10)] == fresh
    assert again.features.fits == 0  # read back, not refitted
    fitted = await first.index()
    assert _same_rows(fitted, await again.index())

    new = replace(bundled_papers[2], title_en="Grokking in ridge regression, revisited")
    await backend.papers().add_papers([new])  # `first` is not asked again: only `again`
    grown = await _caught_up(again)  # transforms it (`first` would, too, and count it)
    assert again.features.fits == 0 and len(grown) == len(bundled_papers) + 1
    assert grown.vocabulary is fitted.vocabulary or \
        grown.vocabulary.encode() == fitted.vocabulary.encode()
    row = grown.row(new.id)
    assert row is not None and (grown.matrix[row] != grown.transform([new])).nnz == 0
    fit = await backend.recommend_features().current()
    assert fit is not None and fit.transformed == 1 and fit.papers == len(bundled_papers)
    third = _service(backend)
    assert _same_rows(await third.index(), grown) and third.features.fits == 0


async def test_a_file_load_refits_and_an_unchanged_reload_does_not(
        backend: Backend, catalog_path: Path, bundled_papers: list[Paper],
        tmp_path: Path) -> None:
    await load_catalog(backend.papers(), catalog_path, process_from=IN_PROCESS)
    service = _service(backend)
    before = await service.index()
    await load_catalog(backend.papers(), catalog_path, process_from=IN_PROCESS)
    assert await _caught_up(service) is before and service.features.fits == 1
    edited = tmp_path / "edited.jsonl"
    changed = replace(bundled_papers[0], summary_zh="一个全新的中文总结，讲述知识蒸馏与岭回归。")
    edited.write_text("".join(dumps(p) + "\n" for p in [changed, *bundled_papers[1:]]),
                      encoding="utf-8")
    await load_catalog(backend.papers(), edited, process_from=IN_PROCESS)
    after = await _caught_up(service)
    assert service.features.fits == 2 and after.vocabulary is not before.vocabulary
    assert "全新" in set(after.terms)
    restarted = _service(backend)
    assert _same_rows(await restarted.index(), after) and restarted.features.fits == 0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.dictionaries(st.integers(0, 499), st.floats(-4, 4, width=32,
                                                                allow_nan=False)),
                max_size=12))
def test_stored_rows_read_back_bit_for_bit(rows: list[dict[int, float]]) -> None:
    indptr = np.cumsum([0] + [len(r) for r in rows])
    columns = [c for r in rows for c in sorted(r)]
    values = [r[c] for r in rows for c in sorted(r)]
    matrix = sp.csr_matrix((np.array(values, dtype=np.float32),
                            np.array(columns, dtype=np.int32), indptr), shape=(len(rows), 500))
    back = decode_rows(encode_rows(matrix), 500)
    assert back.shape == matrix.shape and back.dtype == np.float32
    assert np.array_equal(back.indptr, matrix.indptr)
    assert np.array_equal(back.indices, matrix.indices)
    assert back.data.tobytes() == matrix.data.tobytes()


async def test_a_restart_fits_the_topics_of_the_features_read_back(
        backend: Backend, catalog_path: Path, bundled_papers: list[Paper],
        monkeypatch: pytest.MonkeyPatch) -> None:
    for module in (topics, keeper):  # topics for the small bundled catalog
        monkeypatch.setattr(module, "TOPICS_FROM", 5)
    monkeypatch.setattr(topics, "DIMENSIONS", 8)
    await load_catalog(backend.papers(), catalog_path, process_from=IN_PROCESS)
    fitted = await _caught_up(_service(backend))
    again = _service(backend)
    read = await _caught_up(again)
    assert again.features.fits == 0  # read back, not refitted
    assert fitted.topics is not None and read.topics is not None
    assert np.allclose(read.topics.vectors, fitted.topics.vectors, atol=1e-5)
    profile = seed_profile(sorted(p.id for p in bundled_papers)[:3])
    assert _ranked(model.recommend(read, profile, 10)) == _ranked(
        model.recommend(fitted, profile, 10))
