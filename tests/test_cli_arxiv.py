"""`paperclub add` and `paperclub import --arxiv-query` as a script sees them, against the arXiv
stand-in (the CLI runs in a subprocess; the stand-in answers on this test's event loop)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from arxiv_standin import ArxivFault, ArxivStandIn

Result = subprocess.CompletedProcess[str]
Run = Callable[..., Awaitable[Result]]


@pytest.fixture
async def arxiv() -> AsyncIterator[ArxivStandIn]:
    async with ArxivStandIn() as server:
        yield server


@pytest.fixture
def run(tmp_path: Path, arxiv: ArxivStandIn) -> Run:
    """`paperclub ARGS --db tmp.db` with arxiv.api_base at the stand-in, asked once."""
    env = {**os.environ, "COLUMNS": "200", "PAPERCLUB_ARXIV__API_BASE": arxiv.api_base,
           "PAPERCLUB_ARXIV__MAX_RETRIES": "0"}

    async def invoke(*args: str) -> Result:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", *args, "--db", str(tmp_path / "cli.db"), env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        stdout, stderr = await asyncio.wait_for(process.communicate(), 60)
        assert process.returncode is not None
        return Result(list(args), process.returncode, stdout.decode(), stderr.decode())

    return invoke


async def test_add_adds_links_and_reports_ids_arxiv_does_not_know(
        run: Run, arxiv: ArxivStandIn, catalog_path: Path) -> None:
    assert (await run("import", str(catalog_path))).returncode == 0
    added = await run("add", "arXiv:2401.01234", "https://arxiv.org/abs/2602.01234v2")
    assert added.returncode == 0, added.stderr
    first, second = added.stdout.splitlines()
    assert first.startswith("2401.01234v1: added: Grokking Beyond ℓ_2: Sparse Circuits")
    assert second.startswith("2602.01234v2: linked to the paper already in the catalog: To Grok")
    assert "asking arXiv for 2 papers" in added.stderr
    assert len(arxiv.requests) == 1
    again = await run("add", "2401.01234", "2509.99999")
    assert again.returncode == 1
    assert again.stdout.startswith("2401.01234v1: already in the catalog")
    assert "not on arXiv: 2509.99999" in again.stderr
    shown = await run("search", "sparse circuits emerge")
    assert "Sparse Circuits" in shown.stdout


async def test_bad_ids_are_refused_before_asking_arxiv(run: Run, arxiv: ArxivStandIn) -> None:
    malformed = await run("add", "2401.01234", "arXiv:2401.1")
    assert malformed.returncode == 2
    assert malformed.stderr.strip().splitlines() == [
        "paperclub: 'arXiv:2401.1' is not an arXiv id: the number after the dot is too short "
        "(4 digits before 2015, 5 since)"]
    nothing = await run("add", "grokking")
    assert nothing.returncode == 2 and "is not an arXiv id or link" in nothing.stderr
    assert arxiv.requests == []


async def test_a_busy_arxiv_is_one_line_and_exit_1(run: Run, arxiv: ArxivStandIn) -> None:
    arxiv.fail(ArxivFault.rate_exceeded())
    busy = await run("add", "2401.01234")
    assert busy.returncode == 1
    assert busy.stderr.splitlines()[-1] == (
        f"paperclub: arXiv is busy or unreachable ({arxiv.api_base}): try again in a minute")
    arxiv.fail(ArxivFault.unavailable(retry_after=1))
    query = await run("import", "--arxiv-query", "abs:grokking")
    assert query.returncode == 1 and "busy or unreachable" in query.stderr


async def test_import_an_arxiv_query(run: Run, arxiv: ArxivStandIn) -> None:
    imported = await run("import", "--arxiv-query", "cat:cs.LG AND abs:grokking", "--max", "2")
    assert imported.returncode == 0, imported.stderr
    assert "searching arXiv for up to 2 papers" in imported.stderr
    assert "2 fetched: 2 added, 0 updated, 0 filled, 0 unchanged, 0 conflict" in imported.stdout
    assert arxiv.requests[0].params["search_query"] == "cat:cs.LG AND abs:grokking"
    again = await run("import", "--arxiv-query", "cat:cs.LG AND abs:grokking", "--max", "2")
    assert "0 added, 0 updated, 0 filled, 2 unchanged" in again.stdout


async def test_import_arguments_are_checked(run: Run, arxiv: ArxivStandIn) -> None:
    for args in (("import",), ("import", "x.txt", "--arxiv-query", "abs:x"),
                 ("import", "--arxiv-query", " "), ("import", "x.txt", "--max", "3"),
                 ("import", "--arxiv-query", "abs:x", "--max", "0")):
        result = await run(*args)
        assert result.returncode == 2, (args, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    rejected = await run("import", "--arxiv-query", "abs:(grokking")
    assert rejected.returncode == 2
    assert rejected.stderr.splitlines()[-1] == (
        "paperclub: arXiv refused the request: unbalanced parentheses")
    assert len(arxiv.requests) == 1
