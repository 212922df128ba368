"""New-paper DMs survive SIGKILL and SIGTERM of the real bot process during `/catalog reload`:
at the reload's commit and at random moments, every subscriber is told of every new paper
matching their topic once (0 lost, 0 doubled), and the log holds no traceback."""

from __future__ import annotations

import asyncio
import contextlib
import random
import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from bot.features.catalog.listing_writer import format_listing
from bot.features.catalog.loader import load_catalog
from bot.features.subscriptions.topic_match import normalise_topic
from discord_standin import Guild, StandIn, User
from domain.paper import Paper
from domain.subscriptions import Delivery, Subscription
from storage.backend import SUBSCRIPTIONS
from storage.papers.sqlite import SqlitePaperStore
from storage.sqlite.database import Database
from tests.e2e.test_digest_crash import BotProcess, _until
from tests.e2e.test_dm_crash import PacedBotProcess

pytestmark = pytest.mark.slow
READERS = 12
BASE = 40
"""Papers in the catalog before the first reload."""
BATCH = 400
"""Papers each reload adds: enough that announcing them takes a moment to kill."""
ROUNDS = 2
"""Reloads interrupted at a random moment, each adding a batch."""
AUTHOR = "Ada Lindqvist"
"""The author every reader follows; one paper of each batch is hers."""


def _papers(first: int, count: int) -> list[Paper]:
    return [Paper(title_en=f"Synthetic study {n} of sparse widget networks",
                  title_zh=f"稀疏部件网络的合成研究 {n}",
                  authors=(AUTHOR if n % BATCH == BATCH // 2 else f"Author{n} Person",),
                  summary_zh=f"本文研究第 {n} 种稀疏部件网络。")
            for n in range(first, first + count)]


def _write(path: Path, papers: list[Paper]) -> None:
    path.write_text("".join(format_listing(papers, "ICML")), encoding="utf-8")


class ReloadingBot(PacedBotProcess):
    """A paced bot whose catalog file is `catalog`, owned by `owner` (who may reload it)."""

    def __init__(self, standin: StandIn, tmp_path: Path, owner: User) -> None:
        super().__init__(standin, tmp_path)
        self.catalog = tmp_path / "catalog.txt"
        text = self.config.read_text(encoding="utf-8").replace(
            "[discord]\n", f"[discord]\nowner_ids = [{owner.id}]\n")
        self.config.write_text(text + f'[catalog]\npath = "{self.catalog}"\n',
                               encoding="utf-8")

    def loads(self) -> int:
        """How many loads the database has recorded (a reload's commit adds one)."""
        with contextlib.closing(sqlite3.connect(self.db_path, timeout=5)) as conn:
            return int(conn.execute("SELECT count(*) FROM catalog_loads").fetchone()[0])

    def tracebacks(self) -> int:
        return self.log.read_text(encoding="utf-8", errors="replace").count("Traceback")


async def _prepare(bot: ReloadingBot, guild: Guild, readers: list[User]) -> None:
    """The catalog's first papers, and readers following AUTHOR by DM."""
    _write(bot.catalog, _papers(0, BASE))
    db = await Database.open(bot.db_path)
    try:
        await load_catalog(SqlitePaperStore(db), bot.catalog)
        store = SUBSCRIPTIONS.open(db)
        topic = f"author:{AUTHOR.split()[-1]}"
        for reader in readers:
            await store.add(Subscription(guild.id, reader.id, topic, normalise_topic(topic),
                                         Delivery.DM))
    finally:
        await db.close()


async def _connected(standin: StandIn, bot: BotProcess) -> None:
    """Start `bot` and wait until it is connected with its commands synced."""
    before = standin.gateway_stats.identifies
    await bot.start()

    async def ready() -> bool:
        return (standin.gateway_stats.identifies > before
                and standin.world.find_command("catalog", None) is not None)

    await _until(ready, "the bot to connect")


def _told(standin: StandIn, readers: list[User], papers: list[Paper]) -> Counter[tuple[str, str]]:
    """How many times each reader was told of each paper (by its id in a DM)."""
    counts: Counter[tuple[str, str]] = Counter()
    for reader in readers:
        dms = [message.content for message in standin.messages(standin.dm_channel(reader))]
        for paper in papers:
            counts[reader.name, paper.id] = sum(dm.count(paper.id) for dm in dms)
    return counts


async def _all_told(standin: StandIn, bot: ReloadingBot, readers: list[User],
                    hers: list[Paper], reload_by: User | None = None,
                    guild: Guild | None = None) -> Counter[tuple[str, str]]:
    """Start the bot once more (and reload the catalog once more, uninterrupted, as
    `reload_by`), wait until every reader was told of every paper of hers (or 60 s), and stop
    it cleanly; the counts."""
    await _connected(standin, bot)
    try:
        if reload_by is not None:
            await standin.slash("catalog reload", guild=guild, user=reload_by)
        async def everyone() -> bool:
            return all(_told(standin, readers, hers).values())

        with contextlib.suppress(AssertionError):  # the counts below say who is missing
            await _until(everyone, "every reader told", timeout=60)
        await asyncio.sleep(0.5)  # time for a wrong second DM to show up
    finally:
        await bot.stop()
    return _told(standin, readers, hers)


@pytest.mark.parametrize("signal_name", ["SIGKILL", "SIGTERM"])
async def test_stopped_at_the_reloads_commit_every_reader_is_told_once(
        tmp_path: Path, signal_name: str) -> None:
    readers = [User(f"reader{n}") for n in range(READERS)]
    owner = User("owner")
    guild = Guild("Reload Group", channels=["papers"], members=[owner, *readers])
    async with StandIn(guilds=[guild]) as standin:
        bot = ReloadingBot(standin, tmp_path, owner)
        await _prepare(bot, guild, readers)
        added = _papers(BASE, BATCH)
        _write(bot.catalog, _papers(0, BASE) + added)
        loads = bot.loads()
        await _connected(standin, bot)
        try:
            await standin.slash("catalog reload", guild=guild, user=owner)

            async def committed() -> bool:
                return bot.loads() > loads

            await _until(committed, "the reload's commit")
            if signal_name == "SIGKILL":
                await bot.kill()
        finally:
            await bot.stop()
        hers = [p for p in added if AUTHOR in p.authors]
        assert len(hers) == 1
        counts = await _all_told(standin, bot, readers, hers)
        assert set(counts.values()) == {1}, counts
        assert bot.tracebacks() == 0, bot.log.read_text(encoding="utf-8")


@pytest.mark.parametrize("signal_name", ["SIGKILL", "SIGTERM"])
async def test_reloads_stopped_at_random_moments_tell_every_reader_once(
        tmp_path: Path, signal_name: str) -> None:
    rng = random.Random(signal_name)
    readers = [User(f"reader{n}") for n in range(READERS)]
    owner = User("owner")
    guild = Guild("Reload Group", channels=["papers"], members=[owner, *readers])
    async with StandIn(guilds=[guild]) as standin:
        bot = ReloadingBot(standin, tmp_path, owner)
        await _prepare(bot, guild, readers)
        papers = _papers(0, BASE)
        for _ in range(ROUNDS):  # each round's file holds every earlier round's papers too
            papers += _papers(len(papers), BATCH)
            _write(bot.catalog, papers)
            await _connected(standin, bot)
            try:
                await standin.slash("catalog reload", guild=guild, user=owner)
                await asyncio.sleep(rng.uniform(0.2, 2.0))
                if signal_name == "SIGKILL":
                    await bot.kill()
            finally:
                await bot.stop()
        hers = [p for p in papers if AUTHOR in p.authors]
        assert len(hers) == ROUNDS
        # what the last kill kept out of the catalog is added (and announced) by this reload
        counts = await _all_told(standin, bot, readers, hers, owner, guild)
        assert set(counts.values()) == {1}, counts
        assert bot.tracebacks() == 0, bot.log.read_text(encoding="utf-8")
