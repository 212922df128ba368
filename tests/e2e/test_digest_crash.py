"""SIGKILL the real bot process at each step of the paper of the day; restart it; one post."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.core.digest_types import DigestConfig, LedgerEntry
from discord_standin import Fault, Guild, StandIn
from storage.database import Database
from storage.digests import SqliteDigestStore

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]


async def _ledger(db_path: Path, guild_id: int) -> list[LedgerEntry]:
    db = await Database.open(db_path)
    try:
        return await SqliteDigestStore(db).recent(guild_id)
    finally:
        await db.close()


async def _until(check: Callable[[], Awaitable[bool]], what: str, timeout: float = 30) -> None:
    try:
        async with asyncio.timeout(timeout):
            while not await check():
                await asyncio.sleep(0.05)
    except TimeoutError:
        raise AssertionError(f"timed out waiting for {what}") from None


class BotProcess:
    """`paperclub run` in a subprocess, connected to the stand-in in this process."""

    def __init__(self, standin: StandIn, tmp_path: Path) -> None:
        self.config = tmp_path / "paperclub.toml"
        self.db_path = tmp_path / "crash.db"
        self.log = tmp_path / "bot.log"
        self.config.write_text(
            f'[database]\npath = "{self.db_path}"\n'
            f'[discord]\napi_base = "{standin.rest_base}"\n'
            f'gateway_url = "{standin.gateway_url}"\nsync = "global"\n'
            "[digest]\ntick_seconds = 5\n", encoding="utf-8")
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        env = {**os.environ, "DISCORD_TOKEN": "standin-token", "PYTHONUNBUFFERED": "1"}
        with self.log.open("ab") as log:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", "run", "--config", str(self.config), cwd=ROOT,
                env=env, stdout=log, stderr=log)

    async def kill(self) -> None:
        assert self.proc is not None and self.proc.returncode is None, self.log.read_text()
        self.proc.send_signal(signal.SIGKILL)
        assert await self.proc.wait() == -signal.SIGKILL

    async def stop(self) -> None:
        """SIGTERM, as systemd sends: the bot closes cleanly and exits 0."""
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                code = await asyncio.wait_for(self.proc.wait(), 15)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
                tail = self.log.read_text()[-3000:]
                raise AssertionError(f"no stop on SIGTERM:\n{tail}") from None
            assert code == 0, self.log.read_text()


async def _configure(db_path: Path, guild: Guild) -> None:
    """A digest due two minutes ago, enabled an hour ago."""
    now = datetime.now(UTC)
    db = await Database.open(db_path)
    try:
        await SqliteDigestStore(db).save_config(DigestConfig(
            guild.id, guild.channel("papers").id, (now - timedelta(minutes=2)).strftime("%H:%M"),
            "UTC", enabled_since=now - timedelta(hours=1)))
    finally:
        await db.close()


# step -> (route that keeps failing, the fault, whether Discord still carries the request out)
STEPS = {
    "after claim": ("/channels/*/messages", Fault.server_error(500), False),
    "after send": ("/channels/*/messages", Fault.server_error(502), True),
    "after record": ("/channels/*/messages/*/threads", Fault.server_error(500), False),
}


@pytest.mark.parametrize("trial", [1, 2])
@pytest.mark.parametrize("step", list(STEPS))
async def test_killed_at_any_step_then_restarted_posts_exactly_once(
        tmp_path: Path, step: str, trial: int) -> None:
    guild = Guild("Crash Group", channels=["papers"])
    async with StandIn(guilds=[guild]) as standin:
        bot = BotProcess(standin, tmp_path)
        await _configure(bot.db_path, guild)
        route, fault, processed = STEPS[step]
        standin.fail("POST", route, fault, times=1000, after_processing=processed)
        papers = guild.channel("papers")
        await bot.start()
        try:
            async def reached() -> bool:
                suffix = "/threads" if step == "after record" else "/messages"
                return any(r.path.endswith(suffix) for r in standin.requests(
                    "POST", f"/channels/{papers.id}/"))

            await _until(reached, f"the bot to reach '{step}'")
            await bot.kill()
        finally:
            await bot.stop()
        (entry,) = await _ledger(bot.db_path, guild.id)
        assert entry.status == ("posted" if step == "after record" else "claimed")
        standin.rest.faults.clear()
        def sends() -> int:
            return len([r for r in standin.requests("POST", f"/channels/{papers.id}/")
                        if r.path.endswith("/messages")])

        sends_before = sends()
        await bot.start()
        try:
            async def finished() -> bool:
                entries = await _ledger(bot.db_path, guild.id)
                return bool(entries) and entries[0].thread_id is not None

            await _until(finished, "the restarted bot to finish the post")
        finally:
            await bot.stop()
        posts = [m for m in standin.messages(papers) if m.embeds]
        assert len(posts) == 1, f"{step} (trial {trial}): {len(posts)} posts"
        (entry,) = await _ledger(bot.db_path, guild.id)
        assert entry.message_id == posts[0].id
        assert posts[0].thread is not None and entry.thread_id == posts[0].thread.id
        # Sent but not recorded: the restart finds the post instead of sending it again.
        assert sends() - sends_before == {"after claim": 1, "after send": 0,
                                          "after record": 0}[step]
