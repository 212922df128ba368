"""`/metrics` after a scripted session: every documented metric is there, the counts follow
what happened, no label holds anything a member typed or a name, and Prometheus's own
`promtool check metrics` accepts the scrape."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from pathlib import Path

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.samples import Sample

from bot.client.bot import PaperclubBot
from bot.ops.settings import OpsSettings
from bot.settings import Settings, load_settings
from discord_standin import Fault, Guild, StandIn
from domain.paper import Paper
from tests.clocks import FakeClock
from tests.e2e.group_steps import answer, suggest
from tests.e2e.harness import e2e_environment
from tests.e2e.test_subscriptions import _next_paper_topic
from tests.group import People

DOCUMENTED = Path(__file__).resolve().parents[2] / "docs" / "operators" / "operations.md"
TYPED = "grokking transformers"
"""What alice searches for: it must never show in a label."""


@pytest.fixture
def settings(tmp_path: Path, people: People) -> Settings:
    """The e2e settings with the operations listener on a free port."""
    base = load_settings(None, e2e_environment(tmp_path, people))
    return base.model_copy(update={"ops": OpsSettings(enabled=True, port=0)})


async def _scrape(paperclub: PaperclubBot) -> str:
    assert paperclub.ops is not None and paperclub.ops.listener is not None
    url = f"http://127.0.0.1:{paperclub.ops.listener.port}/metrics"
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
        return await response.text()


async def _session(bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
                   settings: Settings, clock: FakeClock, papers: list[Paper]) -> None:
    """Search, a refusal, a rate-limited answer, a write behind the lock, a paper of the day
    with a DM Discord refuses, and a vote announced."""
    assert "Grokking" in (await answer(standin, "paper", {"query": TYPED}, guild=guild,
                                       user=people.alice)).embeds[0]["title"]
    refused = await answer(standin, "digest set", {"channel": guild.channel("papers").id,
                                                   "time": "09:00", "timezone": "UTC"},
                           guild=guild, user=people.alice)  # alice may not manage the server
    assert "Manage Server" in (refused.content or "")
    standin.fail("POST", "/interactions/*/callback", Fault.rate_limited(retry_after=0.05))
    await answer(standin, "paper", {"query": "diffusion"}, guild=guild, user=people.alice)
    other = sqlite3.connect(settings.database.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # a catalog load holds the write lock a moment
    handle = await standin.slash("subscribe", {"topic": "grokking"}, guild=guild,
                                 user=people.carol)
    await handle.response()
    other.execute("COMMIT")
    other.close()
    await handle.followup()
    topic = await _next_paper_topic(standin, guild, people)  # sets the paper of the day
    await answer(standin, "subscribe", {"topic": topic, "delivery": "dm"}, guild=guild,
                 user=people.carol)  # her DMs are closed: Discord refuses the one she is due
    for paper in papers[:2]:
        await suggest(standin, guild, people.alice, paper.id)
    await answer(standin, "vote start", {"from": 2, "hours": 1}, guild=guild, user=people.bob)
    clock.advance(hours=2)  # 10:00 in Berlin: the paper of the day is due, the vote is over
    await bot.digest_tick()
    await bot.background_done()  # the DMs it owes


def _samples(text: str) -> dict[str, list[Sample]]:
    return {family.name: family.samples for family in text_string_to_metric_families(text)}


def _value(samples: list[Sample], name: str, **labels: str) -> float:
    return sum(s.value for s in samples if s.name == name and labels.items() <= s.labels.items())


async def test_a_scrape_after_a_session_counts_it_and_passes_promtool(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        settings: Settings, clock: FakeClock, bundled_papers: list[Paper]) -> None:
    await _session(bot, standin, guild, people, settings, clock, bundled_papers)
    text = await _scrape(bot)
    families = _samples(text)

    def value(family: str, name: str | None = None, **labels: str) -> float:
        return _value(families[family], name or family, **labels)

    assert value("paperclub_gateway_connected", shard="0") == 1
    assert value("paperclub_interactions", "paperclub_interactions_total",
                 command="paper", outcome="ok") == 2
    assert value("paperclub_interactions", "paperclub_interactions_total",
                 command="digest set", outcome="refused") == 1
    assert value("paperclub_interaction_response_seconds",
                 "paperclub_interaction_response_seconds_count", command="paper") == 2
    assert value("paperclub_search_seconds", "paperclub_search_seconds_count") >= 2
    assert value("paperclub_discord_rate_limits", "paperclub_discord_rate_limits_total") == 1
    assert value("paperclub_discord_rate_limit_wait_seconds",
                 "paperclub_discord_rate_limit_wait_seconds_total") > 0
    assert value("paperclub_database_busy_waits", "paperclub_database_busy_waits_total") >= 1
    assert value("paperclub_digest_posts", "paperclub_digest_posts_total",
                 outcome="late") == 1  # due at 09:00, posted at 10:00
    assert value("paperclub_vote_announcements", "paperclub_vote_announcements_total",
                 outcome="posted") == 1
    assert value("paperclub_dms_refused", "paperclub_dms_refused_total") == 1
    assert value("paperclub_outbox_depth") == 0  # nothing left to send
    assert value("paperclub_outbox_oldest_age_seconds") == 0
    for name in documented_metrics():
        assert name in families, f"{name} is documented but not in the scrape"
    labels = {value for samples in families.values() for s in samples
              for key, value in s.labels.items() if key not in ("le",)}
    for private in (TYPED, "diffusion", "grokking", guild.name, people.alice.name,
                    str(guild.id), str(people.alice.id)):
        assert all(private not in label for label in labels), private
    promtool = shutil.which("promtool")
    if promtool is None:
        pytest.skip("promtool not installed (Debian package prometheus): parser checks only")
    checked = subprocess.run([promtool, "check", "metrics"], input=text, text=True,
                             capture_output=True, check=False)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def documented_metrics() -> list[str]:
    """The metric families docs/operators/operations.md lists (its `paperclub_…` rows)."""
    names = []
    for line in DOCUMENTED.read_text(encoding="utf-8").splitlines():
        if line.startswith("| `paperclub_"):
            name = line.split("`")[1].split("{")[0]
            names.append(name.removesuffix("_total"))
    return names
