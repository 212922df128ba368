"""The reading group every stand-in test uses: three people, an admin role, one server."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import discord

from discord_standin import Guild, Member, Role, User


@dataclass
class People:
    """A member, an admin (who owns the bot in e2e tests), an outsider with closed DMs."""

    alice: User
    bob: User
    carol: User
    admin_role: Role


def new_people() -> People:
    """Fresh users (the stand-in gives each a new id)."""
    admin = Role("admins", permissions=discord.Permissions(manage_guild=True).value)
    return People(User("alice"), User("bob"), User("carol", dms_open=False), admin)


def reading_group(people: People, name: str = "Reading Group") -> Guild:
    """A server with #general and #papers; bob holds the admin role."""
    return Guild(name, channels=["general", "papers"],
                 members=[people.alice, Member(people.bob, roles=[people.admin_role]),
                          people.carol])


def assert_no_tasks_left() -> None:
    """Nothing a test started may keep running after its stand-in and bot are closed."""
    leftover = [t for t in asyncio.all_tasks() if t is not asyncio.current_task() and not t.done()]
    assert leftover == [], f"tasks left running: {[t.get_coro() for t in leftover]}"
