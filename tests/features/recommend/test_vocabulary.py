"""The fitted vocabulary: it turns a paper into the row the build gave it (so an added paper, or
a restart, needs no refit), and its stored bytes read back to the same vocabulary."""

from __future__ import annotations

import numpy as np
import pytest

from bot.features.recommend import features
from bot.features.recommend.vocabulary import Vocabulary
from domain.paper import Paper


def test_transforming_a_catalog_gives_the_rows_its_build_gave(
        bundled_papers: list[Paper]) -> None:
    index = features.build(bundled_papers)
    ordered = sorted(bundled_papers, key=lambda p: p.id)
    again = index.transform(ordered)
    assert again.shape == index.matrix.shape and again.dtype == np.float32
    assert np.array_equal(again.indptr, index.matrix.indptr)
    assert np.array_equal(again.indices, index.matrix.indices)
    assert np.allclose(again.data, index.matrix.data, atol=1e-6)
    assert {len(b.terms) > 0 for b in index.vocabulary.blocks} == {True}  # en, zh, authors


def test_the_stored_vocabulary_reads_back_whole(bundled_papers: list[Paper]) -> None:
    vocabulary = features.build(bundled_papers).vocabulary
    back = Vocabulary.decode(vocabulary.encode())
    assert [b.terms for b in back.blocks] == [b.terms for b in vocabulary.blocks]
    assert [b.weight for b in back.blocks] == [b.weight for b in vocabulary.blocks]
    for mine, theirs in zip(back.blocks, vocabulary.blocks, strict=True):
        assert np.array_equal(mine.idf, theirs.idf)
    some = bundled_papers[:3]
    assert (back.transform(some) != vocabulary.transform(some)).nnz == 0


@pytest.mark.parametrize("data", [b"", b"PCRV", b"JUNKJUNKJUNKJUNK"])
def test_bytes_that_are_no_vocabulary_are_refused(data: bytes) -> None:
    with pytest.raises(ValueError):
        Vocabulary.decode(data)


def test_a_vocabulary_of_another_format_is_refused(bundled_papers: list[Paper]) -> None:
    data = features.build(bundled_papers[:4]).vocabulary.encode()
    with pytest.raises(ValueError, match="format"):
        Vocabulary.decode(data.replace(b'"format": 1', b'"format": 9', 1))
    with pytest.raises(ValueError, match="length"):
        Vocabulary.decode(data + b"\0")


def test_an_empty_catalog_has_an_empty_index() -> None:
    index = features.build([])
    assert len(index) == 0 and len(index.vocabulary) == 0


def test_a_paper_added_to_a_catalog_without_chinese_is_transformed() -> None:
    # an English-only catalog fits no Chinese block; an added paper's row must still be made
    catalog = [Paper(title_en=f"Robot grasping study {i}", title_zh="", authors=(f"A {i}",),
                     summary_en="Robot arms learn grasping of objects from camera images.")
               for i in range(6)]
    index = features.build(catalog)
    assert [len(b.terms) > 0 for b in index.vocabulary.blocks] == [True, False, True]
    added = Paper(title_en="Grasping objects with robot arms", title_zh="", authors=("B",),
                  summary_en="Robot arms and camera images.")
    grown = index.with_papers([added])
    row = grown.row(added.id)
    assert len(grown) == 7 and row is not None and grown.matrix[row].nnz > 0
