"""`paperclub corrections export|import`: a server's approved corrections round-trip through a
JSON Lines file into another server (attributed to "import", with a history event, no member
id in the file), a second import changes nothing, and a hostile or malformed file is reported
line by line while its good lines still apply; bad arguments are one line and exit 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.features.corrections.service import CorrectionService
from bot.features.corrections.transfer import CorrectionTransfer
from bot.features.corrections.views import review_embed
from bot.shared.lang import Lang
from bot.shared.messages import Refusal
from domain.corrections import Action, Field, Status, Target
from storage import backend as stores
from storage.papers.sqlite import SqlitePaperStore
from storage.sqlite.database import Database
from tests.clocks import FakeClock

SOURCE_GUILD, TARGET_GUILD, MEMBER, CURATOR = 901, 902, 3141592653589793, 2718281828459045
HOSTILE = ("@everyone <@&1234> <@5678> **粗体** ```代码``` [链接](https://evil.example) \ud800"
           + "长" * 2000)


def _paperclub(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "bot", *args], capture_output=True,
                          env={**os.environ, "COLUMNS": "200"}, timeout=60, check=False)


@pytest.fixture
def service(db: Database, store: SqlitePaperStore) -> CorrectionService:
    return CorrectionService(stores.CORRECTIONS.open(db), store,
                             FakeClock(datetime(2026, 12, 1, 9, tzinfo=UTC)))


@pytest.fixture
def transfer(db: Database, store: SqlitePaperStore,
             service: CorrectionService) -> CorrectionTransfer:
    return CorrectionTransfer(stores.CORRECTIONS.open(db), service, store)


async def _approve(service: CorrectionService, target: Target, value: str, reason: str) -> None:
    made = (await service.propose(SOURCE_GUILD, target, value, reason, MEMBER)).proposal
    assert await service.decide(SOURCE_GUILD, made.id, approve=True, by=CURATOR) is not None


async def test_export_then_import_round_trips_into_another_server(
        db: Database, store: SqlitePaperStore, service: CorrectionService,
        tmp_path: Path) -> None:
    first, second = (await store.paper_ids())[:2]
    await _approve(service, Target(first, Field.TITLE_ZH), "更好的标题", "机翻")
    await _approve(service, Target(second, Field.SUMMARY_ZH), HOSTILE, HOSTILE[:400])
    exported = tmp_path / "corrections.jsonl"
    done = _paperclub("corrections", "export", "--server", str(SOURCE_GUILD), "-o",
                      str(exported), "--db", str(tmp_path / "test.db"))
    assert done.returncode == 0, done.stderr
    assert b"exported 2 approved corrections" in done.stderr
    text = exported.read_text(encoding="utf-8")
    assert str(MEMBER) not in text and str(CURATOR) not in text  # never who
    records = [json.loads(line) for line in text.splitlines()]
    assert [r["field"] for r in records] == ["title_zh", "summary_zh"]
    assert set(records[0]) == {"paper_id", "arxiv_id", "field", "position", "value",
                               "source_value", "reason", "at"}
    source = await store.get(second)
    assert source is not None and records[1]["source_value"] == source.summary_zh
    assert "\ud800" not in records[1]["value"] and records[1]["value"].startswith("@everyone")

    applied = _paperclub("corrections", "import", "--server", str(TARGET_GUILD),
                         str(exported), "--db", str(tmp_path / "test.db"))
    assert applied.returncode == 0, applied.stderr
    assert applied.stdout.strip() == b"2 applied, 0 skipped, 0 malformed"
    for paper_id in (first, second):
        paper = await store.get(paper_id)
        assert paper is not None
        assert (await service.overlay_one(TARGET_GUILD, paper)) == (
            await service.overlay_one(SOURCE_GUILD, paper))
    imported = await service.proposals(TARGET_GUILD, Status.APPROVED)
    assert all(p.imported and p.proposed_by is None for p in imported)
    card = review_embed(imported[0], "x", Lang.EN).to_dict()
    by = {f["name"]: f["value"] for f in card.get("fields", [])}
    assert by["Proposed by"] == "import" and by["Status"].endswith("· import")
    history = await service.history(TARGET_GUILD, first)
    assert [(e.action, e.actor_id, e.note) for e in history] == [(Action.IMPORTED, None, "机翻")]
    again = _paperclub("corrections", "import", "--server", str(TARGET_GUILD), str(exported),
                       "--db", str(tmp_path / "test.db"))
    assert again.returncode == 0 and b"0 applied, 2 skipped" in again.stdout
    assert again.stderr.count(b"already applied") == 2


async def test_a_hostile_file_is_reported_line_by_line(
        transfer: CorrectionTransfer, store: SqlitePaperStore,
        service: CorrectionService) -> None:
    paper_id = (await store.paper_ids())[0]
    paper = await store.get(paper_id)
    assert paper is not None

    def line(**fields: object) -> bytes:
        return json.dumps({"paper_id": paper_id, **fields}).encode()

    lines = [
        line(field="title_zh", value="好标题"),  # 1 applied
        b"{not json",  # 2
        b"[1, 2]",  # 3
        b"\xff\xfe\x00garbage",  # 4
        line(field="colour", value="x"),  # 5
        line(field="title_zh", value="长" * 301),  # 6 over the field's limit
        json.dumps({"paper_id": "0000000000000000", "field": "title_zh",
                    "value": "x"}).encode(),  # 7 unknown paper: skipped
        b"",  # 8 blank: ignored
        line(field="year", value="3000"),  # 9
        line(field="conference", value="ICML \ud800<@&1> `x`"),  # 10 applied, cleaned
        json.dumps({"arxiv_id": "9999.99999", "field": "title_zh", "value": "x"}).encode(),
        line(field="title_zh", value="好标题"),  # 12 already applied
        line(field="title_zh", value=42),  # 13
        line(field="affiliation_en", value="Lab", position=-1),  # 14
        b"x" * 30_000,  # 15
    ]
    report = await transfer.import_lines(TARGET_GUILD, lines)
    assert [n for n, _ in report.malformed] == [2, 3, 4, 5, 6, 9, 13, 14, 15]
    reasons = dict(report.malformed)
    assert "not JSON" in reasons[2] and "not a JSON object" in reasons[3]
    assert "UTF-8" in reasons[4] and "unknown field" in reasons[5]
    assert "too long" in reasons[6] and reasons[9] == str(Refusal("corrections.bad_year"))
    assert "not a string" in reasons[13] and "position" in reasons[14]
    assert [n for n, _ in report.skipped] == [7, 11, 12]
    assert [p.new_value for p in report.applied] == ["好标题", "ICML <@&1> `x`"]
    shown = await service.overlay_one(TARGET_GUILD, paper)
    assert shown.title_zh == "好标题" and shown.venue.conference == "ICML <@&1> `x`"


def test_bad_arguments_are_one_line_and_exit_2(tmp_path: Path) -> None:
    for args in (("import", "--server", "abc", str(tmp_path)),
                 ("import", "--server", "5", str(tmp_path / "missing.jsonl")),
                 ("export", "--server", "0"),
                 ("export", "--server", str(2**63))):
        done = _paperclub("corrections", *args, "--db", str(tmp_path / "x.db"))
        assert done.returncode == 2, (args, done.stderr)
        assert len(done.stderr.decode().strip().splitlines()) == 1, done.stderr
