"""SIGKILL the real bot process at each step of the paper of the day; restart it; one post."""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import sys
from collections import Counter
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from discord_standin import Fault, Guild, Message, StandIn, User
from domain.digest import DigestConfig, LedgerEntry
from storage.backend import DIGESTS
from storage.sqlite.database import Database
from tests.clocks import Ticker

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
TRIALS = range(1, int(os.environ.get("PAPERCLUB_CRASH_TRIALS", "1")) + 1)
"""How many times each kill-at-a-step test runs (more on demand: the kill lands elsewhere)."""


async def _ledger(db_path: Path, guild_id: int) -> list[LedgerEntry]:
    db = await Database.open(db_path)
    try:
        return await DIGESTS.open(db).recent(guild_id)
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

    def __init__(self, standin: StandIn, tmp_path: Path, *, name: str = "bot",
                 lease_seconds: int = 1, postgres_url: str | None = None) -> None:
        """Processes with different `name`s share the database (one per `tmp_path`, or the
        PostgreSQL database of `postgres_url`)."""
        self.config = tmp_path / f"{name}.toml"
        self.db_path = tmp_path / "crash.db"
        self.log = tmp_path / f"{name}.log"
        url = "" if postgres_url is None else f'url = "{postgres_url}"\n'
        self.config.write_text(
            f'[database]\npath = "{self.db_path}"\n{url}'
            f'[discord]\napi_base = "{standin.rest_base}"\n'
            f'gateway_url = "{standin.gateway_url}"\nsync = "global"\n'
            # a lease is never shorter than a Discord call may take: the calls are cut sooner
            f"call_timeout_seconds = {lease_seconds}\n"
            f"[digest]\ntick_seconds = 5\nclaim_lease_seconds = {lease_seconds}\n",
            encoding="utf-8")
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


async def restart_until_posted(bot: BotProcess, guild_id: int) -> None:
    """Start the bot again and stop it once the server's post is finished (its thread open)."""
    await bot.start()
    try:
        async def finished() -> bool:
            entries = await _ledger(bot.db_path, guild_id)
            return bool(entries) and entries[0].thread_id is not None

        await _until(finished, "the restarted bot to finish the post")
    finally:
        await bot.stop()


async def _configure(db_path: Path, guild: Guild) -> None:
    """A digest due two minutes ago, enabled an hour ago."""
    now = datetime.now(UTC)
    db = await Database.open(db_path)
    try:
        await DIGESTS.open(db).save_config(DigestConfig(
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


@pytest.mark.parametrize("trial", TRIALS)
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
        await restart_until_posted(bot, guild.id)
        posts = [m for m in standin.messages(papers) if m.embeds]
        assert len(posts) == 1, f"{step} (trial {trial}): {len(posts)} posts"
        (entry,) = await _ledger(bot.db_path, guild.id)
        assert entry.message_id == posts[0].id
        assert posts[0].thread is not None and entry.thread_id == posts[0].thread.id
        # Sent but not recorded: the restart finds the post instead of sending it again.
        assert sends() - sends_before == {"after claim": 1, "after send": 0,
                                          "after record": 0}[step]


# --- repeated kills at random moments ------------------------------------------------------

ROUNDS = int(os.environ.get("PAPERCLUB_CRASH_ROUNDS", "4"))
SERVERS_PER_ROUND = 3
CHATTER = 60  # members' messages after each kill: more than one default page of history
NONCE_WINDOW = 300.0
IDENTIFY_SPACING = 5.0  # Discord's interval between two IDENTIFYs of one bucket
TWO_PROCESS_SERVERS = 12
MARKED_DATE = re.compile(r"📅 (\d{4}-\d{2}-\d{2})")  # the footer marker


async def _round_faults(standin: StandIn, rng: random.Random, guilds: list[Guild]) -> str:
    """Lost answers that widen the moments a kill can land in: the post or the thread is
    carried out by Discord, its answer is lost, and discord.py waits before trying again."""
    kind = rng.choice(["none", "post answer lost", "thread answer lost"])
    for guild in guilds:
        papers = guild.channel("papers")
        if kind == "post answer lost":
            standin.fail("POST", f"/channels/{papers.id}/messages", Fault.server_error(502),
                         times=rng.randint(1, 2), after_processing=True)
        elif kind == "thread answer lost":
            standin.fail("POST", f"/channels/{papers.id}/messages/*/threads",
                         Fault.server_error(500), after_processing=True)
    return kind


async def test_repeated_kills_at_random_moments_post_each_server_day_exactly_once(
        tmp_path: Path) -> None:
    seed = int(os.environ.get("PAPERCLUB_CRASH_SEED", random.randrange(1 << 30)))
    rng = random.Random(seed)
    nonces = Ticker()  # the stand-in's nonce memory ages by it: restarts come after the window
    chatter = User("chatter")
    async with StandIn(nonce_window=NONCE_WINDOW, clock=nonces) as standin:
        bot = BotProcess(standin, tmp_path)
        kills = unrecorded_at_kill = 0
        days: list[Guild] = []
        for round_no in range(ROUNDS):
            guilds = [await standin.add_guild(Guild(f"Round {round_no} group {n}",
                                                    channels=["papers"], members=[chatter]))
                      for n in range(SERVERS_PER_ROUND)]
            for guild in guilds:
                await _configure(bot.db_path, guild)
            days += guilds
            channels = {g.channel("papers").id for g in guilds}
            await _round_faults(standin, rng, guilds)

            async def finished(round_guilds: list[Guild] = guilds) -> bool:
                for guild in round_guilds:
                    entries = await _ledger(bot.db_path, guild.id)
                    if not entries or entries[0].thread_id is None:
                        return False
                return True

            for _ in range(rng.randint(1, 2)):
                seen = len(standin.requests("POST"))
                nonces.advance(IDENTIFY_SPACING)  # the stand-in's clock times IDENTIFYs too
                await bot.start()

                async def working(round_channels: set[int] = channels, since: int = seen) -> bool:
                    return any(any(str(c) in r.path for c in round_channels)
                               for r in standin.requests("POST")[since:])

                try:
                    await _until(lambda: _either(working, finished), "the bot to start posting")
                except AssertionError:
                    await bot.stop()
                    raise
                await asyncio.sleep(rng.uniform(0, 1.2))
                await bot.kill()
                kills += 1
                for guild in guilds:
                    entries = await _ledger(bot.db_path, guild.id)
                    if entries and entries[0].status == "claimed" and _posts(standin, guild):
                        unrecorded_at_kill += 1
                for guild in guilds:
                    for i in range(CHATTER):
                        await standin.say(guild.channel("papers"), chatter, f"comment {i}")
                nonces.advance(NONCE_WINDOW + 1)
            identified = standin.gateway_stats.identifies
            nonces.advance(IDENTIFY_SPACING)
            await bot.start()
            try:
                async def connected(before: int = identified) -> bool:
                    return standin.gateway_stats.identifies > before  # SIGTERM handled by now

                await _until(connected, "the restarted bot to connect")
                await _until(finished, "the restarted bot to finish the round", timeout=60)
            finally:
                await bot.stop()
            standin.rest.faults.clear()
        per_day = {(g.id, day): count for g in days
                   for day, count in _posts_per_date(standin, g).items()}
        print(f"\ncrash run (seed {seed}): {len(days)} server-days, {kills} kills, "
              f"{unrecorded_at_kill} posts sent but not recorded at a kill, "
              f"{sum(c - 1 for c in per_day.values())} duplicates, "
              f"{len(days) - len(per_day)} days without a post")
        assert len(per_day) == len(days), f"seed {seed}: a day without a post"
        assert all(count == 1 for count in per_day.values()), f"seed {seed}: {per_day}"
        for guild in days:
            (entry,) = await _ledger(bot.db_path, guild.id)
            (post,) = _posts(standin, guild)
            assert (entry.status, entry.message_id, entry.reason) == ("posted", post.id, None)
            assert post.thread is not None and entry.thread_id == post.thread.id


async def _either(first: Callable[[], Awaitable[bool]],
                  second: Callable[[], Awaitable[bool]]) -> bool:
    return await first() or await second()


def _posts(standin: StandIn, guild: Guild) -> list[Message]:
    return [m for m in standin.messages(guild.channel("papers")) if m.embeds]


def _posts_per_date(standin: StandIn, guild: Guild) -> Counter[str]:
    """How many paper-of-the-day posts a server got for each date (named in the footer)."""
    return Counter(match.group(1) for m in _posts(standin, guild)
                   if (match := MARKED_DATE.search(m.embeds[0]["footer"]["text"])))


async def test_two_processes_on_one_database_post_each_server_day_once(tmp_path: Path) -> None:
    """A rolling restart: the new process starts while the old one is posting (each post
    refused three times, so it stays in flight for about 9 s); once every server has its post,
    the old one is killed at a random moment. Discord's
    nonce memory is made useless (it forgets at once), so only the claims' leases keep the
    new process from posting what the old one is posting."""
    seed = int(os.environ.get("PAPERCLUB_CRASH_SEED", random.randrange(1 << 30)))
    rng = random.Random(seed)
    nonces = Ticker()
    async with StandIn(nonce_window=NONCE_WINDOW, clock=nonces) as standin:
        guilds = [await standin.add_guild(Guild(f"Group {n}", channels=["papers"]))
                  for n in range(TWO_PROCESS_SERVERS)]
        # The lease outlasts a post's retries (about 9 s here; discord.py's own at most ~25 s).
        old = BotProcess(standin, tmp_path, name="old", lease_seconds=15)
        new = BotProcess(standin, tmp_path, name="new", lease_seconds=15)
        for guild in guilds:
            await _configure(old.db_path, guild)
            standin.fail("POST", f"/channels/{guild.channel('papers').id}/messages",
                         Fault.server_error(500), times=3)

        async def forget_nonces() -> None:
            while True:
                nonces.advance(NONCE_WINDOW + 1)
                await asyncio.sleep(0.05)

        forgetting = asyncio.create_task(forget_nonces())
        try:
            await old.start()
            await _until(lambda: _any_post(standin), "the old process to start posting")
            identified = standin.gateway_stats.identifies
            await new.start()

            async def connected() -> bool:
                return standin.gateway_stats.identifies > identified

            await _until(connected, "the new process to connect")

            async def all_posted() -> bool:
                return all(_posts(standin, guild) for guild in guilds)

            await _until(all_posted, "every server's post", timeout=30)
            await asyncio.sleep(rng.uniform(0, 2))  # both processes retry what they had sent
            await old.kill()

            async def finished() -> bool:
                for guild in guilds:
                    entries = await _ledger(new.db_path, guild.id)
                    if not entries or entries[0].thread_id is None:
                        return False
                return True

            await _until(finished, "the new process to finish every post", timeout=60)
        finally:
            forgetting.cancel()
            await asyncio.gather(forgetting, return_exceptions=True)
            await new.stop()
            await old.stop()
        counts = [len(_posts(standin, guild)) for guild in guilds]
        print(f"\ntwo processes (seed {seed}): {len(guilds)} server-days, "
              f"{sum(c - 1 for c in counts if c > 1)} duplicates, {counts.count(0)} missing")
        assert counts == [1] * len(guilds), f"seed {seed}: posts per server {counts}"
        for guild in guilds:
            (entry,) = await _ledger(new.db_path, guild.id)
            (post,) = _posts(standin, guild)
            assert (entry.status, entry.message_id, entry.reason) == ("posted", post.id, None)
            assert post.thread is not None and entry.thread_id == post.thread.id


async def _any_post(standin: StandIn) -> bool:
    return bool(standin.requests("POST", route="/channels/{channel_id}/messages"))
