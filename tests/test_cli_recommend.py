"""`paperclub recommend` and `paperclub similar` in a subprocess: the service's ranking as JSON,
nothing the member already bookmarked or turned down, exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.features.recommend.service import Audience, RecommendService
from domain.group import Bookmark
from domain.paper import Paper
from domain.recommend import Verdict
from storage.backend import BOOKMARKS, RECOMMENDATIONS
from storage.papers.sqlite import SqlitePaperStore
from storage.sqlite.database import Database

T0 = datetime(2026, 11, 30, tzinfo=UTC)
GUILD, ALICE = 1, 10


def _paperclub(*args: str, db: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", *args, "--db", str(db)],
                          capture_output=True, text=True, timeout=120, check=False,
                          env={**os.environ, "COLUMNS": "200"})


@pytest.fixture
async def seeded(tmp_path: Path, bundled_papers: list[Paper]) -> Path:
    """A database with the bundled catalog, Alice's two bookmarks and one 👎."""
    path = tmp_path / "rec.db"
    db = await Database.open(path)
    try:
        await SqlitePaperStore(db).add_papers(bundled_papers)
        bookmarks = BOOKMARKS.open(db)
        await bookmarks.add(Bookmark(GUILD, ALICE, bundled_papers[1].id, T0))
        await bookmarks.add(Bookmark(GUILD, ALICE, bundled_papers[4].id, T0))
        await RECOMMENDATIONS.open(db).rate(GUILD, ALICE, bundled_papers[7].id, Verdict.DOWN, T0)
    finally:
        await db.close()
    return path


async def test_recommend_json_is_the_services_ranking(seeded: Path,
                                                      bundled_papers: list[Paper]) -> None:
    result = _paperclub("recommend", "--server", str(GUILD), "--user", str(ALICE),
                        "--limit", "8", "--json", db=seeded)
    assert result.returncode == 0, result.stderr
    picks = json.loads(result.stdout)
    ids = [p["id"] for p in picks]
    assert len(ids) == 8
    assert not {bundled_papers[i].id for i in (1, 4, 7)} & set(ids)
    assert all(p["like"] in {bundled_papers[1].id, bundled_papers[4].id} for p in picks)
    assert all(p["signal"] == "bookmarked" and p["reason"].startswith("like *") for p in picks)
    assert [p["score"] for p in picks] == sorted((p["score"] for p in picks), reverse=True)
    db = await Database.open(seeded)
    try:
        service = RecommendService(SqlitePaperStore(db), RECOMMENDATIONS.open(db), lambda: T0)
        direct = await service.recommend(GUILD, ALICE, Audience.ME, 8)
    finally:
        await db.close()
    assert [r.paper.id for r in direct] == ids


def test_similar_lists_neighbours_and_an_unknown_paper_finds_nothing(
        seeded: Path, bundled_papers: list[Paper]) -> None:
    grok = next(p for p in bundled_papers if "Grokking" in p.title_en)
    result = _paperclub("similar", grok.id, "--limit", "3", "--json", db=seeded)
    assert result.returncode == 0, result.stderr
    near = json.loads(result.stdout)
    assert len(near) == 3 and grok.id not in {n["id"] for n in near}
    assert all(n["words"] for n in near)
    text = _paperclub("similar", grok.id, "--limit", "2", db=seeded)
    assert text.returncode == 0 and "shared words:" in text.stdout
    assert _paperclub("similar", "0000000000000000", db=seeded).returncode == 1
    assert _paperclub("recommend", "--server", "99", db=seeded).returncode == 1


def test_similar_names_its_paper_as_show_does(seeded: Path,
                                              bundled_papers: list[Paper]) -> None:
    """By its exact title in either script too; several papers are choices, nothing a guess."""
    grok = next(p for p in bundled_papers if "Grokking" in p.title_en)
    by_id = _paperclub("similar", grok.id, "--limit", "3", "--json", db=seeded)
    for reference in (grok.title_en, grok.title_zh):
        named = _paperclub("similar", reference, "--limit", "3", "--json", db=seeded)
        assert named.returncode == 0, named.stderr
        assert json.loads(named.stdout) == json.loads(by_id.stdout)
    several = _paperclub("similar", "learning", db=seeded)
    assert several.returncode == 1 and several.stdout == ""
    assert "matches several papers; compare one by its id:" in several.stderr


def test_the_command_line_never_fails_silently(seeded: Path) -> None:
    unknown = _paperclub("similar", "ffffffffffffffff", db=seeded)
    assert unknown.returncode == 1
    assert unknown.stderr.strip() == "no paper with id ffffffffffffffff in the catalog"
    nobody = _paperclub("recommend", "--server", "42", db=seeded)
    assert nobody.returncode == 1 and nobody.stdout == ""
    assert nobody.stderr.startswith("paperclub: nothing to recommend for server 42: ")
    as_json = _paperclub("recommend", "--server", "42", "--json", db=seeded)
    assert as_json.returncode == 1 and json.loads(as_json.stdout) == []
