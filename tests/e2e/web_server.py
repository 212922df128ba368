"""What the end-to-end tests of the bot's web server share: settings with the server on at a
free local port, and the reading group whose members the page and the feed name."""

from __future__ import annotations

import socket
from pathlib import Path

from bot.settings import Settings, load_settings
from discord_standin import Guild, Member
from tests.e2e.harness import e2e_environment
from tests.group import People


def free_port() -> int:
    """A local port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def web_settings(tmp_path: Path, people: People) -> Settings:
    """The e2e settings with the web server on (a free local port)."""
    return load_settings(None, {**e2e_environment(tmp_path, people),
                                 "PAPERCLUB_WEB__ENABLED": "true",
                                 "PAPERCLUB_WEB__PORT": str(free_port())})


def reading_group(people: People) -> Guild:
    """The reading group; carol presents under her server nickname."""
    return Guild("Reading Group", channels=["general", "papers"],
                 members=[people.alice, Member(people.bob, roles=[people.admin_role]),
                          Member(people.carol, nick="Carol Reader")])
