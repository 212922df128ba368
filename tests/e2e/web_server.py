"""What the end-to-end tests of the bot's web server share: settings with the server on at a
free local port, and the reading group whose members the page and the feed name."""

from __future__ import annotations

import socket
from pathlib import Path

from bot.settings import Settings, load_settings
from discord_standin import Guild, Member
from tests.group import People


def free_port() -> int:
    """A local port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def web_settings(tmp_path: Path, people: People) -> Settings:
    """The e2e settings with the web server on (a free local port)."""
    return load_settings(None, {
        "PAPERCLUB_DATABASE__PATH": str(tmp_path / "e2e.db"),
        "PAPERCLUB_DISCORD__SYNC": "global",
        "PAPERCLUB_DISCORD__OWNER_IDS": f"[{people.bob.id}]",
        "PAPERCLUB_DIGEST__TICK_SECONDS": "3600",
        "PAPERCLUB_ARXIV__API_BASE": "http://127.0.0.1:9/api/query",
        "PAPERCLUB_ARXIV__MAX_RETRIES": "0",
        "PAPERCLUB_WEB__ENABLED": "true",
        "PAPERCLUB_WEB__PORT": str(free_port()),
    })


def reading_group(people: People) -> Guild:
    """The reading group; carol presents under her server nickname."""
    return Guild("Reading Group", channels=["general", "papers"],
                 members=[people.alice, Member(people.bob, roles=[people.admin_role]),
                          Member(people.carol, nick="Carol Reader")])
