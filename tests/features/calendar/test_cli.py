"""`paperclub calendar --server ID [-o FILE]` as a script runs it: the same file the feed's
service builds, to a file or standard output."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import icalendar
import ics

from bot.graphs.calendar import calendar_service
from bot.settings import Settings
from bot.shared.lang import Lang
from domain.paper import Paper
from domain.sessions import Place, SessionStatus
from storage import backend as stores
from storage.sqlite.database import Database

GUILD = 4242
PAPER = Paper(title_en="Deep Residual Learning", title_zh="深度残差学习", authors=("K. He",))


def _paperclub(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "bot", *args], capture_output=True,
                          env={**os.environ, "COLUMNS": "200"}, timeout=60, check=False)


async def _seed(path: Path) -> bytes:
    """Two sessions (one cancelled) in a fresh database; the file the service builds for it."""
    db = await Database.open(path)
    try:
        await stores.PAPERS.open(db).add_papers([PAPER])
        sessions = stores.SESSIONS.open(db)
        await stores.GROUPS.open(db).set_timezone(GUILD, "Asia/Taipei")
        first = await sessions.create(GUILD, PAPER.id, datetime(2026, 12, 3, 12, tzinfo=UTC), 9,
                                      Place(), 77)
        second = await sessions.create(GUILD, PAPER.id, datetime(2026, 12, 10, 12, tzinfo=UTC),
                                       None, Place(), 77)
        await sessions.move(first.id, datetime(2026, 12, 4, 12, tzinfo=UTC))
        await sessions.finish(second.id, SessionStatus.CANCELLED)
        service = calendar_service(db, Settings())
        return await service.feed(GUILD, server_name="paperclub", lang=Lang.ZH_HANT)
    finally:
        await db.close()


async def test_calendar_command_writes_the_feed_file(tmp_path: Path) -> None:
    db = tmp_path / "club.db"
    expected = await _seed(db)
    out = tmp_path / "club.ics"
    done = _paperclub("calendar", "--server", str(GUILD), "--lang", "zh-TW", "-o", str(out),
                      "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert out.read_bytes() == expected
    events = icalendar.Calendar.from_ical(out.read_bytes()).walk("VEVENT")
    assert sorted(str(e["status"]) for e in events) == ["CANCELLED", "CONFIRMED"]
    assert {str(e["summary"]) for e in events} == {"深度殘差學習"}
    assert len(ics.Calendar(out.read_text(encoding="utf-8")).events) == 2
    piped = _paperclub("calendar", "--server", str(GUILD), "--lang", "zh-TW", "--db", str(db))
    assert piped.returncode == 0 and piped.stdout == expected


def test_calendar_command_without_a_database_creates_none(tmp_path: Path) -> None:
    db = tmp_path / "none.db"
    done = _paperclub("calendar", "--server", "1", "--db", str(db))
    assert done.returncode == 1 and b"no database" in done.stderr
    assert not db.exists()
