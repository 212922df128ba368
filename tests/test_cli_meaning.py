"""`paperclub embed` and `paperclub search` by meaning, with the real bundled model on the
bundled catalog (30 papers: a few seconds of encoding): the embed reports its progress and
resumes with nothing to do, and a Chinese description none of whose words a paper holds is
answered by meaning, each line marked "close in meaning" (and flagged in the JSON). How good
the answers are is `bench meaning`'s business, on 11,648 real papers."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

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
