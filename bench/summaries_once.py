"""AI summaries exactly once across processes and SIGKILLs: two `paperclub summarize` processes
on one SQLite file summarise `--papers` arXiv-style papers (an English abstract, no Chinese) in
both languages against the chat-completions stand-in (in this process, so that every request is
counted), while one of them is killed with SIGKILL `--kills` times and started again. Once the
dead processes' leases have run out, one more run takes up what they held.

Reported and checked: every paper has exactly one stored summary per language; no
(paper, language) was asked twice except the claims a killed process held (at most
`--kills` x its batch); the day's tokens within the budget. Exit code 1 if a check fails."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
import tempfile
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

from bot.features.catalog.jsonl import dumps
from bot.settings_llm import LlmSettings
from llm_standin import LlmStandIn
from storage.sqlite.database import Database
from tools.synthetic_catalog import synthetic_papers

CONCURRENCY = 4
BATCH = 2 * CONCURRENCY
"""Claims a process holds at most (the worker claims twice its concurrency at a time)."""
TIMEOUT, CONNECT = 2.0, 1.0
BUDGET = 1_000_000_000


def configure(parser: argparse.ArgumentParser) -> None:
    """The benchmark's options."""
    parser.add_argument("--papers", type=int, default=10_000, help="papers (default 10000)")
    parser.add_argument("--kills", type=int, default=4, help="SIGKILLs (default 4)")
    parser.add_argument("--every", type=float, default=5.0,
                        help="seconds between kills (default 5)")


def run(args: argparse.Namespace) -> int:
    """Run, check and print."""
    if args.papers < 1 or args.kills < 0 or args.every <= 0:
        print("--papers must be positive, --kills not negative, --every positive")
        return 2
    with tempfile.TemporaryDirectory(prefix="paperclub-summaries-once-") as tmp:
        lines, ok = asyncio.run(measure(Path(tmp), args.papers, args.kills, args.every))
    print("\n".join(lines))
    return 0 if ok else 1


def _env(base_url: str, database: Path) -> dict[str, str]:
    return {**os.environ, "PAPERCLUB_LLM__ENABLED": "true", "PAPERCLUB_LLM__BASE_URL": base_url,
            "PAPERCLUB_LLM__MODEL": "standin-1",
            "PAPERCLUB_LLM__CONCURRENCY": str(CONCURRENCY),
            "PAPERCLUB_LLM__REQUESTS_PER_MINUTE": "10000",
            "PAPERCLUB_LLM__TIMEOUT_SECONDS": str(TIMEOUT),
            "PAPERCLUB_LLM__CONNECT_TIMEOUT_SECONDS": str(CONNECT),
            "PAPERCLUB_LLM__DAILY_TOKEN_BUDGET": str(BUDGET),
            "PAPERCLUB_DATABASE__PATH": str(database)}


async def _paperclub(*args: str, env: dict[str, str]) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", *args, env=env, stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL)


async def _import(tmp: Path, papers: int, env: dict[str, str]) -> None:
    """`papers` arXiv-style papers: the synthetic listing's, with an English abstract instead
    of the Chinese summary."""
    source = tmp / "papers.jsonl"
    with source.open("w", encoding="utf-8") as handle:
        for paper in synthetic_papers(papers):
            english = replace(paper, summary_zh="", summary_en=(
                f"We study {paper.title_en.lower()} and show it improves on prior methods."))
            handle.write(dumps(english) + "\n")
    process = await _paperclub("import", str(source), env=env)
    if await process.wait() != 0:
        raise RuntimeError("the import failed")


async def measure(tmp: Path, papers: int, kills: int, every: float) -> tuple[list[str], bool]:
    """Import, summarise with kills, finish, check (see the module's docstring)."""
    logging.getLogger("aiohttp.server").setLevel(logging.CRITICAL)  # a killed client's reset
    async with LlmStandIn() as llm:
        env = _env(llm.base_url, tmp / "once.db")
        await _import(tmp, papers, env)
        started = time.perf_counter()
        steady = await _paperclub("summarize", env=env)
        for _ in range(kills):
            victim = await _paperclub("summarize", env=env)
            await asyncio.sleep(every)
            if victim.returncode is None:
                victim.send_signal(signal.SIGKILL)
            await victim.wait()
        await steady.wait()
        lease = LlmSettings(timeout_seconds=TIMEOUT, connect_timeout_seconds=CONNECT
                            ).lease_seconds
        await asyncio.sleep(lease + 1)  # the killed processes' claims are free again
        last = await _paperclub("summarize", env=env)
        await last.wait()
        elapsed = time.perf_counter() - started
        return await _check(tmp / "once.db", llm, papers, kills, elapsed)


async def _check(path: Path, llm: LlmStandIn, papers: int, kills: int,
                 elapsed: float) -> tuple[list[str], bool]:
    db = await Database.open(path)
    try:
        rows = await db.fetch("SELECT lang, status, COUNT(*) FROM paper_summaries "
                                 "GROUP BY lang, status ORDER BY 1, 2")
        spent = await db.fetch("SELECT COALESCE(SUM(tokens), 0) FROM llm_usage")
    finally:
        await db.close()
    stored = {(str(lang), str(status)): int(count) for lang, status, count in rows}
    asked = Counter((request.user.split("\n")[1], request.language)
                    for request in llm.requests)
    twice = sum(count - 1 for count in asked.values())
    checks = {
        "every paper summarised in both languages, once": stored == {
            ("en", "done"): papers, ("zh-CN", "done"): papers},
        "asked again only what a killed process held": twice <= kills * BATCH
        and len(asked) == 2 * papers,
        "within the budget": int(spent[0][0]) <= BUDGET,
    }
    lines = [f"{papers:,} papers x 2 languages, 2 processes, {kills} SIGKILLs, "
             f"{elapsed:.0f} s (lease wait included)",
             f"  stored: {stored}",
             f"  requests: {len(llm.requests):,} for {len(asked):,} (paper, language) pairs; "
             f"asked twice or more: {twice} (bound {kills * BATCH})",
             f"  tokens counted: {int(spent[0][0]):,}"]
    lines += [f"  {'ok  ' if ok else 'FAIL'} {name}" for name, ok in checks.items()]
    return lines, all(checks.values())
