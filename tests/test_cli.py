"""The command line as a script sees it: stdout, stderr and exit codes."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from bibtexparser.entrypoint import parse_string
from bibtexparser.middlewares import LatexDecodingMiddleware

from domain.group import Bookmark
from domain.paper import Paper
from storage.backend import BOOKMARKS, HISTORY, QUEUE
from storage.sqlite.database import Database

Run = Callable[..., subprocess.CompletedProcess[str]]


def _paperclub(*args: str, db_path: Path | None, env: dict[str, str] | None = None
               ) -> subprocess.CompletedProcess[str]:
    """Run `paperclub ARGS --db DB_PATH` in a subprocess."""
    extra = ["--db", str(db_path)] if db_path else []
    return subprocess.run(
        [sys.executable, "-m", "bot", *args, *extra], capture_output=True, text=True,
        env={**os.environ, "COLUMNS": "200", **(env or {})}, timeout=60, check=False,
    )


@pytest.fixture
def run(tmp_path: Path) -> Run:
    """Run `paperclub ARGS --db tmp.db` in a subprocess."""
    db = tmp_path / "cli.db"

    def invoke(*args: str, db_path: Path | None = db, env: dict[str, str] | None = None
               ) -> subprocess.CompletedProcess[str]:
        return _paperclub(*args, db_path=db_path, env=env)

    return invoke


@pytest.fixture(scope="session")
def imported(tmp_path_factory: pytest.TempPathFactory, catalog_path: Path) -> Path:
    """A database that `paperclub import` loaded the bundled catalog into, once per run."""
    db = tmp_path_factory.mktemp("cli-imported") / "cli.db"
    result = _paperclub("import", str(catalog_path), db_path=db)
    assert result.returncode == 0, result.stderr
    assert "30 added, 0 updated, 0 unchanged, 0 removed, 0 rejected" in result.stdout
    return db


@pytest.fixture
def loaded(run: Run, imported: Path, tmp_path: Path) -> Run:
    """`run` on a copy of the imported database (a fresh one for every test)."""
    for suffix in ("", "-wal"):  # a write-ahead log, if the import left one, goes with it
        if (source := imported.with_name(imported.name + suffix)).exists():
            shutil.copy(source, tmp_path / f"cli.db{suffix}")
    return run


def test_search_table_and_exit_codes(loaded: Run) -> None:
    found = loaded("search", "grokking")
    assert found.returncode == 0
    assert "To Grok Grokking" in found.stdout
    missing = loaded("search", "qqqqzzzz")
    assert missing.returncode == 1
    assert "no match" in missing.stderr


def test_search_json_is_an_array_best_first(loaded: Run) -> None:
    result = loaded("search", "蒸馏", "--json")
    assert result.returncode == 0
    hits = json.loads(result.stdout)
    assert hits[0]["title_en"].startswith("Symbiosis-Inspired Knowledge Distillation")
    assert [h["rank"] for h in hits] == list(range(1, len(hits) + 1))
    assert {"id", "title_zh", "authors", "affiliations", "summary_zh", "venue"} <= set(hits[0])
    empty = loaded("search", "qqqqzzzz", "--json")
    assert (empty.returncode, json.loads(empty.stdout)) == (1, [])


def test_search_filters_and_typo_hint(loaded: Run) -> None:
    spot = loaded("search", "--honours", "spotlight", "--json", "--limit", "50")
    assert len(json.loads(spot.stdout)) == 2
    typo = loaded("search", "grokkng")
    assert typo.returncode == 0
    assert "did you mean: grokking" in typo.stderr


def test_show_both_languages_and_json(loaded: Run) -> None:
    paper_id = json.loads(loaded("search", "whistleblower", "--json").stdout)[0]["id"]
    shown = loaded("show", paper_id)
    assert shown.returncode == 0
    assert "Plausible Deniability Guarantees for Whistleblowers" in shown.stdout
    assert "AI总结" in shown.stdout
    as_json = json.loads(loaded("show", paper_id, "--json").stdout)
    assert as_json["id"] == paper_id
    assert loaded("show", "0" * 16).returncode == 1


def test_show_takes_any_reference_the_bot_takes_and_never_guesses(loaded: Run) -> None:
    """Issue 21: `show` resolves as every `paper:` option does."""
    by_title = loaded("show", "plausible", "deniability", "guarantees", "for", "whistleblowers")
    assert by_title.returncode == 0, by_title.stderr
    assert "Plausible Deniability Guarantees for Whistleblowers" in by_title.stdout
    several = loaded("show", "learning")
    assert several.returncode == 1 and several.stdout == ""
    assert "matches several papers" in several.stderr
    ids = [line.split()[0] for line in several.stderr.splitlines()[1:]]
    assert len(ids) >= 2 and loaded("show", ids[1]).returncode == 0
    missing = loaded("show", "arXiv:2401.01234")
    assert missing.returncode == 1 and "no paper with id 2401.01234" in missing.stderr


def test_stats_json(loaded: Run) -> None:
    stats = json.loads(loaded("stats", "--json").stdout)
    assert stats["papers"] == 30
    assert {(v["conference"], v["track"]) for v in stats["venues"]} == {
        ("ICML", "main"), ("ICML", "workshop"), ("ICMLCN", "main"), ("MLMI", "main")}


def test_export_round_trip(loaded: Run, tmp_path: Path, run: Run) -> None:
    out = tmp_path / "out.jsonl"
    assert loaded("export", "--format", "jsonl", "-o", str(out)).returncode == 0
    other = tmp_path / "other.db"
    assert run("import", str(out), db_path=other).returncode == 0
    again = tmp_path / "again.jsonl"
    assert run("export", "-o", str(again), db_path=other).returncode == 0
    assert again.read_text(encoding="utf-8") == out.read_text(encoding="utf-8")
    assert len(out.read_text(encoding="utf-8").splitlines()) == 30


@pytest.mark.parametrize("args", [
    ("search",),
    ("search", "grokking", "--limit", "0"),
    ("search", "grokking", "--honours", "best"),
    ("search", "year:20x6"),
    ("frobnicate",),
    ("import",),
])
def test_bad_usage_exits_2_without_traceback(loaded: Run, args: tuple[str, ...]) -> None:
    result = loaded(*args)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.strip()


def test_bad_files_exit_2_with_clear_messages(run: Run, tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    result = run("import", str(empty))
    assert (result.returncode, "Traceback" in result.stderr) == (2, False)
    assert "empty" in result.stderr
    missing = run("import", str(tmp_path / "missing.txt"))
    assert missing.returncode == 2 and "no such file" in missing.stderr


def test_rejected_records_are_listed_on_stderr(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "mixed.txt"
    path.write_text("ICML\n\nA Title\n\n标题\n\nAnn A\n\nAI总结 好。\n\nOrphan\n", encoding="utf-8")
    result = run("import", str(path))
    assert result.returncode == 0
    assert "rejected line 11" in result.stderr
    assert "1 added" in result.stdout and "1 rejected" in result.stdout
    strict = run("import", str(path), "--strict", db_path=tmp_path / "strict.db")
    assert strict.returncode == 2 and "line 11" in strict.stderr


def test_ignored_fields_are_warnings_and_the_import_succeeds(run: Run, tmp_path: Path) -> None:
    path = tmp_path / "extra.jsonl"
    record = {"title_en": "A Paper", "title_zh": "论文", "authors": ["Ann"], "summary_zh": "摘要。"}
    path.write_text(json.dumps({**record, "colour": "red"}) + "\n", encoding="utf-8")
    result = run("import", str(path))
    assert result.returncode == 0, result.stderr
    assert "warning line 1: unknown field 'colour' ignored" in result.stderr.splitlines()
    assert "rejected" not in result.stderr
    assert "1 added" in result.stdout and "0 rejected" in result.stdout


def test_messages_are_not_wrapped_when_piped(run: Run, tmp_path: Path) -> None:
    missing = tmp_path / ("d" * 120) / "catalog.txt"
    result = run("import", str(missing), env={"COLUMNS": "40"})
    assert result.returncode == 2
    (line,) = [x for x in result.stderr.splitlines() if x.startswith("paperclub:")]
    assert str(missing) in line


def test_config_errors_name_the_key(run: Run, tmp_path: Path) -> None:
    config = tmp_path / "bad.toml"
    config.write_text("[search]\nlimit = 'ten'\n")
    result = run("stats", "--config", str(config))
    assert result.returncode == 2
    assert "search.limit" in result.stderr


def test_schema_too_new_is_refused(run: Run, tmp_path: Path) -> None:
    import sqlite3

    db = tmp_path / "future.db"
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA user_version = 999")
    result = run("stats", db_path=db)
    assert result.returncode == 2
    assert "newer than this paperclub" in result.stderr


def test_local_mode_script_shows_the_bot_answering(run: Run) -> None:
    # search by meaning off: it loads the bundled encoder (tests/test_local_mode.py shows it)
    result = run("local", "--script", "--no-meaning")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "connected to the local Discord stand-in" in out
    assert "Search by meaning" not in out
    assert "No paper matches **从数据中找出描述系统的方程**" in out
    assert "> /paper grokking" in out
    assert "**To Grok Grokking: Provable Grokking in Ridge Regression**" in out
    assert "Showing results for **grokking**" in out
    assert "More than 10 papers match “venue:workshop”" in out and "Page 2 of 2+" in out
    assert "12 papers match “venue:workshop”" in out and "Page 3 of 3" in out
    assert "only you can see this" in out
    assert "30** papers" in out
    assert "Subscribed to **differential equations** (mention in the paper of the day)" in out
    assert "Posted today's paper" in out
    assert "For: @you — matched differential equations" in out
    assert "[#papers] paperclub" in out and "**Paper of the day** · 1 of 30 in this cycle" in out
    assert "[thread opened: #" in out
    assert "Recent: " in out and "✅ posted · 1 of 30" in out
    assert "**Reading queue**" in out and "> @you: read before the session" in out
    assert "**Which paper next?**" in out and "[1]  [2]" in out
    assert "You're in the presenter rotation." in out
    assert "[#general] you: Worth a read: https://arxiv.org/abs/2401.01234" in out
    assert "Added `2401.01234v1`: Grokking Beyond" in out  # from the local arXiv stand-in
    assert "📎 paperclub-queue-" in out
    assert "Traceback" not in result.stderr
    opened = out.split("> open 6")[1].split("> back")[0]
    assert "[Back to results]" in opened and "**Not All Needles Are Found" in opened
    back = out.split("> back")[1].split("> next")[0]
    assert "Page 2 of 2+" in back  # back to the list's page, then on to the searched rest
    assert "Page 3 of 3" in out.split("> back")[1].split("> next")[1].split("> /paper")[0]
    assert "\n! " not in out  # the script itself runs without a mistake


def test_local_mode_runs_given_lines_and_reports_mistakes(run: Run) -> None:
    result = run("local", "--no-meaning", "/paper whistleblower", "/nosuch", "next",
                 "/paper gro?", "locale zh-CN", "/paper 蒸馏")
    assert result.returncode == 0, result.stderr
    assert "Plausible Deniability Guarantees for Whistleblowers" in result.stdout
    assert "! unknown command /nosuch" in result.stdout
    assert "! no result list to page" in result.stdout
    assert "To Grok Grokking" in result.stdout
    assert "**共生启发的知识蒸馏用于增量目标检测**" in result.stdout and "作者" in result.stdout


def test_local_mode_twice_on_the_same_database(run: Run) -> None:
    """Each run starts a fresh stand-in, which must be told the commands again."""
    for _ in range(2):
        result = run("local", "--no-meaning", "/paper grokking")
        assert result.returncode == 0, result.stderr
        assert "**To Grok Grokking: Provable Grokking in Ridge Regression**" in result.stdout


def test_local_mode_searches_by_meaning_unless_told_not_to(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """On by default, whatever `search.by_meaning` says; `--no-meaning` turns it off."""
    from click.testing import CliRunner

    from bot.cli import discord_commands
    from bot.cli.main import cli

    asked: list[bool | None] = []

    async def script(*_: object, meaning: bool | None = None) -> None:
        asked.append(meaning)

    monkeypatch.setattr(discord_commands, "run_script", script)
    env = {"PAPERCLUB_SEARCH__BY_MEANING": "false"}
    for args in (["local", "--script"], ["local", "--no-meaning", "/paper x"],
                 ["local", "--meaning", "/paper x"]):
        result = CliRunner().invoke(cli, args, env=env)
        assert result.exit_code == 0, result.output
    assert asked == [True, False, True]


def test_run_without_a_token_says_what_to_set(run: Run) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    result = subprocess.run([sys.executable, "-m", "bot", "run"], capture_output=True,
                            text=True, env=env, timeout=60, check=False)
    assert result.returncode == 2
    assert "DISCORD_TOKEN" in result.stderr and "paperclub local" in result.stderr


def test_invite_link_has_exactly_the_needed_scopes_and_permissions(run: Run) -> None:
    import discord

    from bot.client.invite import invite_permissions

    result = run("invite", "--application-id", "123456789012345678")
    assert result.returncode == 0, result.stderr
    url = result.stdout.strip()
    assert url.startswith("https://discord.com/oauth2/authorize?client_id=123456789012345678")
    assert "scope=bot+applications.commands" in url
    perms = discord.Permissions(int(url.split("permissions=")[1].split("&")[0]))
    assert perms == invite_permissions()
    assert perms.send_polls, "native polls (/vote start style:Discord poll) need Send Polls"
    assert not perms.administrator and not perms.mention_everyone and not perms.manage_messages


def test_stats_and_search_on_an_empty_database_say_how_to_load(run: Run, tmp_path: Path,
                                                               catalog_path: Path) -> None:
    empty = tmp_path / "empty.db"
    asyncio.run(_create(empty))
    for args in (("stats",), ("search", "grokking")):
        result = run(*args, db_path=empty)
        assert result.returncode == 1, args
        assert "catalog is empty" in result.stderr and "paperclub import" in result.stderr


async def _create(path: Path) -> None:
    """A new paperclub database, with no papers."""
    await (await Database.open(path)).close()


READING = (("stats",), ("search", "grokking"), ("show", "0" * 16), ("export",),
           ("export", "--format", "bibtex"), ("export", "--format", "markdown", "--query", "x"),
           ("export", "--server", "1", "--what", "history", "--format", "markdown"))


@pytest.mark.parametrize("args", READING, ids=" ".join)
def test_reading_commands_never_create_a_database(run: Run, tmp_path: Path,
                                                   args: tuple[str, ...]) -> None:
    """A typo in --db, or a text file, is said to hold no database: one line, exit 1 (as an
    empty catalog), and nothing is written."""
    typo, text = tmp_path / "typo.db", tmp_path / "empty.txt"
    text.touch()
    for path, says in ((typo, f"no database at {typo}"), (text, "is an empty file")):
        result = run(*args, "-o", str(tmp_path / "out"), db_path=path) if args[0] == "export" \
            else run(*args, db_path=path)
        assert result.returncode == 1, result.stderr
        line, = result.stderr.strip().splitlines()
        assert says in line and "paperclub import FILE" in line
        assert result.stdout == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.txt"]
    assert text.stat().st_size == 0


def test_reading_commands_never_migrate_a_database(loaded: Run, tmp_path: Path) -> None:
    """A database an older paperclub wrote is left as it is; a command that writes upgrades."""
    db = tmp_path / "cli.db"
    with sqlite3.connect(db) as conn:
        older = conn.execute("PRAGMA user_version").fetchone()[0] - 1
        conn.execute(f"PRAGMA user_version = {older}")
    line = _one_line_refusal(loaded("stats"))
    assert f"older paperclub (schema {older}" in line and "paperclub import" in line
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == older


def test_prune_tells_files_apart_by_path_or_by_the_source_given(loaded: Run,
                                                                 tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    whole, part = tmp_path / "a" / "rg.jsonl", tmp_path / "b" / "rg.jsonl"
    assert loaded("export", "-o", str(whole)).returncode == 0
    assert loaded("import", str(whole)).returncode == 0
    part.write_text("".join(whole.read_text(encoding="utf-8").splitlines(True)[:5]),
                    encoding="utf-8")
    other = loaded("import", str(part), "--prune")
    assert other.returncode == 0 and "5 unchanged, 0 removed" in other.stdout
    same = loaded("import", str(part), "--prune", "--source", str(whole))
    assert same.returncode == 0 and same.stdout.startswith(f"{whole}: ")
    assert "25 removed" in same.stdout


def _one_line_refusal(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def test_unusable_database_paths_are_refused_in_one_line(run: Run, tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("not a database\n")
    assert "is a directory" in _one_line_refusal(run("stats", db_path=tmp_path))
    assert "not a SQLite database" in _one_line_refusal(run("stats", db_path=text))
    assert "empty" in _one_line_refusal(run("stats", "--db", "", db_path=None))
    missing = tmp_path / "missing" / "dir" / "x.db"
    assert "no such directory" in _one_line_refusal(run("stats", db_path=missing))
    assert not (tmp_path / "missing").exists()


def test_a_corrupted_database_is_refused_by_stats_and_run(loaded: Run, tmp_path: Path) -> None:
    db = tmp_path / "cli.db"
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size, pages = (conn.execute(f"PRAGMA {p}").fetchone()[0]
                            for p in ("page_size", "page_count"))
    with db.open("r+b") as handle:
        for page in range(2, pages, 3):
            handle.seek(page * page_size + 16)
            handle.write(b"\xa5" * 200)
    assert "corrupted" in _one_line_refusal(loaded("stats"))
    refused = loaded("run", env={"DISCORD_TOKEN": "x.y.z"})
    assert "corrupted" in _one_line_refusal(refused)


def test_a_new_database_is_created_quietly(run: Run, catalog_path: Path) -> None:
    result = run("import", str(catalog_path))
    assert result.returncode == 0
    assert "migrating" not in result.stderr


# -- export --what … --format markdown|bibtex: a server's records without Discord ----------

SERVER, MEMBER = 4242, 77
WHEN = datetime(2026, 11, 2, 18, 0, tzinfo=UTC)


async def _seed(db_path: Path, papers: list[Paper]) -> None:
    db = await Database.open(db_path)
    try:
        history = HISTORY.open(db)
        for paper in papers[:3]:
            await history.record_discussed(SERVER, paper.id, WHEN, MEMBER, "<@1> & 50%", 9)
        await BOOKMARKS.open(db).add(Bookmark(SERVER, MEMBER, papers[3].id, WHEN))
        await QUEUE.open(db).suggest(SERVER, papers[4].id, MEMBER, "worth a look", WHEN)
    finally:
        await db.close()


@pytest.fixture
async def seeded(loaded: Run, tmp_path: Path, bundled_papers: list[Paper]) -> Run:
    await _seed(tmp_path / "cli.db", bundled_papers)
    return loaded


def test_history_as_bibtex_and_markdown(seeded: Run, tmp_path: Path,
                                        bundled_papers: list[Paper]) -> None:
    out = tmp_path / "history.bib"
    result = seeded("export", "--server", str(SERVER), "--what", "history", "--format",
                    "bibtex", "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert f"exported 3 papers (history) to {out}" in result.stderr
    library = parse_string(out.read_text(encoding="utf-8"),
                           append_middleware=[LatexDecodingMiddleware()])
    assert sorted(e.fields_dict["title"].value for e in library.entries) == sorted(
        p.title_en for p in bundled_papers[:3])
    shown = seeded("export", "--server", str(SERVER), "--what", "history", "--format",
                   "markdown")
    assert shown.returncode == 0 and shown.stdout.startswith("# Reading group history")
    assert "presented by a member" in shown.stdout and str(MEMBER) not in shown.stdout
    assert f"https://discord.com/channels/{SERVER}/9" in shown.stdout
    assert "> \\<\\@1\\> & 50%" in shown.stdout


@pytest.mark.parametrize("fmt", ["markdown", "bibtex"])
def test_no_member_id_leaves_in_an_export(seeded: Run, fmt: str) -> None:
    """Display names are Discord's: the command line names no member, and writes no id."""
    for what in ("history", "queue"):
        shown = seeded("export", "--server", str(SERVER), "--what", what, "--format", fmt)
        assert shown.returncode == 0, shown.stderr
        assert str(MEMBER) not in shown.stdout and "a member" in shown.stdout


def test_bookmarks_need_a_member(seeded: Run, bundled_papers: list[Paper]) -> None:
    mine = seeded("export", "--server", str(SERVER), "--what", "bookmarks", "--user",
                  str(MEMBER), "--format", "markdown")
    assert mine.returncode == 0 and bundled_papers[3].title_en in mine.stdout
    other = seeded("export", "--server", "1", "--what", "queue", "--format", "bibtex")
    assert other.returncode == 1 and other.stdout == ""  # as a catalog query finding nothing
    assert other.stderr.strip() == "paperclub: the queue of server 1 is empty (nothing exported)"


def test_an_empty_history_export_writes_nothing_and_exits_1(seeded: Run,
                                                            tmp_path: Path) -> None:
    out = tmp_path / "history.md"
    result = seeded("export", "--server", "1", "--what", "history", "--format", "markdown",
                    "-o", str(out))
    assert result.returncode == 1 and "nothing exported" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and not out.exists()


@pytest.mark.parametrize(("args", "message"), [
    (("--what", "bookmarks", "--server", "1", "--format", "bibtex"), "--user goes with"),
    (("--what", "history", "--format", "markdown"), "--what and --server go together"),
    (("--what", "history", "--server", "1"), "--format markdown or bibtex"),
    (("--what", "history", "--server", "1", "--user", "3", "--format", "markdown"),
     "--user goes with"),
    (("--what", "nothing", "--server", "1", "--format", "markdown"), "nothing"),
    (("--server", "x", "--what", "queue", "--format", "markdown"), "x"),
    (("--what", "history", "--server", "1", "--format", "bibtex", "--query", "x"),
     "do not go with --what"),
    (("--format", "bibtex", "--query", "x", "--ids", "a"), "not both"),
    (("--format", "bibtex", "--limit", "3"), "--limit goes with --query"),
])
def test_bad_input_is_one_line_and_exit_2(seeded: Run, args: tuple[str, ...],
                                          message: str) -> None:
    result = seeded("export", *args)
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1 and message in result.stderr


# -- BibTeX in and out, and the catalog as a reading list ----------------------------------


def _jsonl(run: Run, db_path: Path | None = None) -> list[dict[str, object]]:
    result = run("export", **({"db_path": db_path} if db_path else {}))
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def _facts(records: list[dict[str, object]]) -> list[tuple[object, ...]]:
    return sorted((r["id"], r["title_en"], tuple(r["authors"]),  # type: ignore[arg-type]
                   r["venue"]["conference"], r["venue"]["year"],  # type: ignore[index]
                   r["venue"]["track"]) for r in records)  # type: ignore[index]


def test_a_bibtex_export_reimports_to_the_same_papers(loaded: Run, tmp_path: Path) -> None:
    bib = tmp_path / "catalog.bib"
    result = loaded("export", "--format", "bibtex", "-o", str(bib))
    assert result.returncode == 0 and "exported 30 papers" in result.stderr
    fresh = tmp_path / "fresh.db"
    again = loaded("import", str(bib), db_path=fresh)
    assert again.returncode == 0, again.stderr
    assert "30 added, 0 updated, 0 unchanged, 0 removed, 0 rejected" in again.stdout
    assert _facts(_jsonl(loaded, fresh)) == _facts(_jsonl(loaded))
    same = loaded("import", str(bib))
    assert "0 added, 0 updated, 30 unchanged, 0 removed, 0 rejected" in same.stdout


def test_a_bib_entry_fills_in_a_known_paper_and_never_erases(
        loaded: Run, tmp_path: Path, bundled_papers: list[Paper]) -> None:
    known = bundled_papers[0]
    bib = tmp_path / "refs.txt"
    bib.write_text(f"@article{{x, title = {{{known.title_en.upper()}}}, author = {{Solo, Han}},"
                   f" abstract = {{An abstract.}}}}\n"
                   "@misc{y, title = {Brand New {\\\"U}ber Paper}, year = 2031}\n"
                   "@misc{z, author = {No Title}}\n", encoding="utf-8")
    sniffed = loaded("import", str(bib))
    assert sniffed.returncode == 0, sniffed.stderr
    assert "1 added, 1 updated, 0 unchanged, 0 removed, 1 rejected" in sniffed.stdout
    assert "rejected line 3: entry has no title" in sniffed.stderr
    shown = json.loads(loaded("show", known.id, "--json").stdout)
    assert (shown["title_en"], shown["title_zh"], shown["authors"], shown["summary_en"]) == (
        known.title_en, known.title_zh, list(known.authors), "An abstract.")
    new = json.loads(loaded("search", "Über", "--json").stdout)[0]
    assert (new["title_en"], new["venue"]["year"]) == ("Brand New Über Paper", 2031)
    strict = loaded("import", str(bib), "--format", "bibtex", "--strict")
    assert strict.returncode == 2 and "line 3: entry has no title" in strict.stderr


def test_export_a_selection_by_query_or_ids(loaded: Run, bundled_papers: list[Paper]) -> None:
    found = loaded("export", "--format", "markdown", "--query", "grokking")
    assert found.returncode == 0, found.stderr
    assert found.stdout.startswith("# Reading list: grokking")
    assert "To Grok Grokking" in found.stdout
    assert "   AI" not in found.stdout
    first, second = bundled_papers[3], bundled_papers[1]
    chosen = loaded("export", "--format", "jsonl", "--ids", f"{first.id}, {second.id.upper()}")
    assert [json.loads(line)["id"] for line in chosen.stdout.splitlines()] == [first.id, second.id]
    unknown = loaded("export", "--format", "bibtex", "--ids", f"{first.id},ffffffffffffffff")
    assert unknown.returncode == 1 and unknown.stdout == ""
    assert "no paper with id ffffffffffffffff" in unknown.stderr
    nothing = loaded("export", "--format", "bibtex", "--query", "qqqqzzzz")
    assert nothing.returncode == 1 and nothing.stdout == ""


@pytest.mark.parametrize(("args", "problem"), [
    (["--shard-count", "2", "--shard-ids", "0,2"], "shard ids must be between 0 and 1"),
    (["--shard-count", "3", "--shard-ids", "1,1"], "shard ids must not repeat"),
    (["--shard-count", "2", "--shard-ids", "1-2"], "shard ids must be between 0 and 1"),
    (["--shard-count", "4", "--shard-ids", "0-1,1"], "shard ids must not repeat"),
    (["--shard-ids", "0"], "shard_ids needs shard_count (how many shards there are in all)"),
])
def test_run_refuses_impossible_shards_in_one_line(run: Run, args: list[str],
                                                   problem: str) -> None:
    result = run("run", *args, env={"DISCORD_TOKEN": "x"})
    assert result.returncode == 2
    assert result.stderr.strip() == f"paperclub: error: --shard-count/--shard-ids: {problem}"


# -- PostgreSQL: PAPERCLUB_DATABASE__URL selects the server; the commands work unchanged --

def _on(url: str, tmp_path: Path) -> dict[str, str]:
    return {"PAPERCLUB_DATABASE__URL": url,
            "PAPERCLUB_DATABASE__PATH": str(tmp_path / "never-created.db")}


def test_import_search_and_stats_on_postgres(run: Run, postgres_url: str, catalog_path: Path,
                                             tmp_path: Path) -> None:
    env = _on(postgres_url, tmp_path)
    imported = run("import", str(catalog_path), db_path=None, env=env)
    assert imported.returncode == 0, imported.stderr
    assert "30 added, 0 updated, 0 unchanged, 0 removed, 0 rejected" in imported.stdout
    found = run("search", "grokking", "--json", db_path=None, env=env)
    assert found.returncode == 0, found.stderr
    hits = json.loads(found.stdout)
    assert "Grokking" in hits[0]["title_en"]
    assert run("search", "zzzqqqxxy", db_path=None, env=env).returncode == 1
    stats = run("stats", "--json", db_path=None, env=env)
    assert stats.returncode == 0 and json.loads(stats.stdout)["papers"] == 30
    assert not (tmp_path / "never-created.db").exists()


def test_an_unreachable_server_is_one_line_and_exit_2(run: Run, tmp_path: Path) -> None:
    url = f"postgresql://paperclub:secret@/paperclub?host={tmp_path / 'no-server-here'}"
    for args, extra in ((("stats",), {}), (("run",), {"DISCORD_TOKEN": "x.y.z"})):
        line = _one_line_refusal(run(*args, db_path=None, env={**_on(url, tmp_path), **extra}))
        assert "cannot reach PostgreSQL at paperclub@" in line
        assert "secret" not in line


def test_a_missing_database_on_the_server_is_named(run: Run, postgres_url: str,
                                                  tmp_path: Path) -> None:
    url = postgres_url.replace("/test_", "/missing_")
    line = _one_line_refusal(run("stats", db_path=None, env=_on(url, tmp_path)))
    assert "no such database" in line


def _ctrl_c_at_prompt(command: list[str], prompt: bytes, limit: float = 60.0) -> tuple[int, str]:
    """Run `command` in a terminal, press Ctrl-C once `prompt` shows; its exit code and
    everything it wrote (killed, code -9, if it has not ended 10 s after the Ctrl-C)."""
    pty = pytest.importorskip("pty")
    import select
    import signal
    import time

    pid, fd = pty.fork()
    if pid == 0:  # the child: run the command in the new terminal, as a shell starts it
        # (Ctrl-C neither ignored nor blocked: a test worker's own signal state, which other
        # tests' libraries change, must not decide whether the command hears it)
        signal.pthread_sigmask(signal.SIG_SETMASK, set())
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.execvpe(command[0], command, {**os.environ, "COLUMNS": "200"})
    written, pressed, status = b"", None, None
    deadline = time.monotonic() + limit
    while status is None and time.monotonic() < min(deadline, (pressed or deadline) + 10):
        if select.select([fd], [], [], 0.1)[0]:
            with contextlib.suppress(OSError):
                written += os.read(fd, 65536)
        if pressed is None and prompt in written:
            os.write(fd, b"\x03")
            pressed = time.monotonic()
        done, code = os.waitpid(pid, os.WNOHANG)
        status = code if done else None
    if status is None:
        os.kill(pid, signal.SIGKILL)
        status = os.waitpid(pid, 0)[1]
    os.close(fd)
    return os.waitstatus_to_exitcode(status), written.decode(errors="replace")


def test_ctrl_c_at_the_demo_prompt_ends_it_quietly(tmp_path: Path) -> None:
    """`python3 dev.py demo` at a terminal, then Ctrl-C: no traceback, no wait for a line."""
    root, db = Path(__file__).resolve().parents[1], tmp_path / "x.db"
    start = (f"import sys; from pathlib import Path; sys.path.insert(0, {str(root)!r}); "
             "import dev; dev.BIN = Path(sys.executable).parent; "  # this venv, not .venv
             "sys.exit(dev.run('python', '-m', 'bot', 'local', '--no-meaning', '--db', "
             f"{str(db)!r}))")
    code, written = _ctrl_c_at_prompt([sys.executable, "-c", start], b"paperclub> ")
    assert code == 0, written
    assert "Traceback" not in written and "KeyboardInterrupt" not in written
    assert written.rstrip().endswith("paperclub> ^C"), written


def test_run_on_a_read_only_database_is_one_line_at_start(loaded: Run, tmp_path: Path) -> None:
    """Not three tracebacks from the outbox once connected: refused before Discord is asked."""
    from tests.storage.test_storage_faults import unwritable

    db = tmp_path / "cli.db"
    with sqlite3.connect(db) as conn:  # everything in the file itself, no -wal to write to
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    with unwritable(db):
        nowhere = {"DISCORD_TOKEN": "x.y.z",  # were it to get that far: a closed port
                   "PAPERCLUB_DISCORD__API_BASE": "http://127.0.0.1:9/api/v10",
                   "PAPERCLUB_DISCORD__GATEWAY_URL": "ws://127.0.0.1:9"}
        line = _one_line_refusal(loaded("run", env=nowhere))
        assert line.startswith(f"paperclub: error: read-only database: {db}: "), line
        assert loaded("stats").returncode == 0  # reading it still works


def test_search_says_which_terms_it_read_in_the_other_language(loaded: Run) -> None:
    """`大模型` is nowhere in the listing's Chinese; its English `large language model` / `LLM`
    titles are found, and the table and the JSON say so."""
    result = loaded("search", "大模型", "--json")
    assert result.returncode == 0
    hits = json.loads(result.stdout)
    assert hits and all("LLM" in h["title_en"] or "Language Model" in h["title_en"]
                        for h in hits)
    assert all(h["matched"][0]["source"] == "大模型" for h in hits)
    assert {h["matched"][0]["target"] for h in hits} <= {"large language model", "LLM",
                                                         "large language models", "LLMs"}
    table = loaded("search", "大模型")
    assert "matched 大模型 → " in table.stdout
