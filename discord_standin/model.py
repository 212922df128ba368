"""The stand-in's domain: users, roles, guilds and channels, shaped like Discord's (messages are
`discord_standin.messages`)."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import IntEnum, IntFlag
from typing import Any

JSONObject = dict[str, Any]
"""A decoded JSON object, as sent to or received from discord.py."""

DISCORD_EPOCH_MS = 1_420_070_400_000
_sequence = itertools.count()
_last_id = 0


def new_id() -> int:
    """Return a fresh, strictly increasing snowflake whose timestamp is now."""
    global _last_id  # noqa: PLW0603 - one id space per process, like Discord's
    stamp = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
    _last_id = max(_last_id + 1, stamp | (next(_sequence) & 0xFFF))
    return _last_id


def iso_now() -> str:
    """Return the current UTC time as Discord's ISO 8601 timestamp."""
    return datetime.now(UTC).isoformat()


class ChannelType(IntEnum):
    """Discord channel types the stand-in knows."""

    TEXT = 0
    DM = 1
    VOICE = 2
    CATEGORY = 4
    NEWS = 5
    NEWS_THREAD = 10
    PUBLIC_THREAD = 11
    PRIVATE_THREAD = 12
    STAGE_VOICE = 13
    FORUM = 15


THREAD_TYPES = frozenset(
    {ChannelType.NEWS_THREAD, ChannelType.PUBLIC_THREAD, ChannelType.PRIVATE_THREAD}
)


class Permission(IntFlag):
    """Discord permission bits (the subset the stand-in checks or a test is likely to set)."""

    KICK_MEMBERS = 1 << 1
    BAN_MEMBERS = 1 << 2
    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    MANAGE_GUILD = 1 << 5
    ADD_REACTIONS = 1 << 6
    CONNECT = 1 << 20
    MANAGE_EVENTS = 1 << 33
    CREATE_EVENTS = 1 << 44
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    MENTION_EVERYONE = 1 << 17
    MANAGE_ROLES = 1 << 28
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    SEND_MESSAGES_IN_THREADS = 1 << 38
    SEND_POLLS = 1 << 49


ALL_PERMISSIONS = (1 << 53) - 1
CHAT_PERMISSIONS = int(
    Permission.VIEW_CHANNEL
    | Permission.SEND_MESSAGES
    | Permission.EMBED_LINKS
    | Permission.ATTACH_FILES
    | Permission.READ_MESSAGE_HISTORY
    | Permission.ADD_REACTIONS
    | Permission.USE_APPLICATION_COMMANDS
)
"""What anyone may do in a conversation: all of a DM channel's permissions."""
DEFAULT_EVERYONE_PERMISSIONS = CHAT_PERMISSIONS | int(
    Permission.CREATE_PUBLIC_THREADS
    | Permission.CREATE_PRIVATE_THREADS
    | Permission.SEND_MESSAGES_IN_THREADS
    | Permission.SEND_POLLS
)
"""What @everyone may do in a fresh guild (close to Discord's defaults)."""

DEFAULT_BOT_PERMISSIONS = DEFAULT_EVERYONE_PERMISSIONS | int(
    Permission.MANAGE_MESSAGES | Permission.MANAGE_THREADS | Permission.MANAGE_EVENTS
    | Permission.CONNECT
)
"""Permissions of the bot's managed role in every guild unless a guild says otherwise."""


@dataclass(eq=False)
class User:
    """A Discord user; ``dms_open=False`` makes DMs to them fail with 403/50007."""

    name: str
    id: int = field(default_factory=new_id)
    bot: bool = False
    dms_open: bool = True
    global_name: str | None = None

    def payload(self) -> JSONObject:
        """Return the user object."""
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    @property
    def mention(self) -> str:
        """Return the ``<@id>`` mention string."""
        return f"<@{self.id}>"


@dataclass(eq=False)
class Role:
    """A guild role with its permission bits."""

    name: str
    permissions: int = 0
    id: int = field(default_factory=new_id)
    position: int = 1
    managed: bool = False

    def payload(self) -> JSONObject:
        """Return the role object."""
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }


@dataclass(eq=False)
class Overwrite:
    """A channel permission overwrite for one role or one member."""

    target_id: int
    is_member: bool
    allow: int = 0
    deny: int = 0

    @classmethod
    def for_member(cls, user: User, *, allow: int = 0, deny: int = 0) -> Overwrite:
        """Overwrite for one member (for instance the bot)."""
        return cls(user.id, True, allow, deny)

    @classmethod
    def for_role(cls, role: Role, *, allow: int = 0, deny: int = 0) -> Overwrite:
        """Overwrite for one role."""
        return cls(role.id, False, allow, deny)

    def payload(self) -> JSONObject:
        """Return the overwrite object."""
        return {
            "id": str(self.target_id),
            "type": 1 if self.is_member else 0,
            "allow": str(self.allow),
            "deny": str(self.deny),
        }


@dataclass(eq=False)
class Channel:
    """A guild channel, thread or DM channel."""

    name: str
    type: ChannelType = ChannelType.TEXT
    id: int = field(default_factory=new_id)
    guild_id: int | None = None
    parent_id: int | None = None
    position: int = 0
    topic: str | None = None
    overwrites: list[Overwrite] = field(default_factory=list)
    recipients: list[User] = field(default_factory=list)
    owner_id: int | None = None
    archived: bool = False
    message_count: int = 0

    @property
    def is_thread(self) -> bool:
        """Whether this channel is a thread."""
        return self.type in THREAD_TYPES

    @property
    def is_dm(self) -> bool:
        """Whether this channel is a DM channel."""
        return self.type is ChannelType.DM

    @property
    def mention(self) -> str:
        """Return the ``<#id>`` mention string."""
        return f"<#{self.id}>"

    def payload(self) -> JSONObject:
        """Return the channel object."""
        data: JSONObject = {"id": str(self.id), "type": int(self.type), "flags": 0}
        if self.is_dm:
            data["recipients"] = [user.payload() for user in self.recipients]
            data["last_message_id"] = None
            return data
        data |= {
            "name": self.name,
            "guild_id": str(self.guild_id),
            "parent_id": None if self.parent_id is None else str(self.parent_id),
            "position": self.position,
            "nsfw": False,
            "rate_limit_per_user": 0,
        }
        if self.is_thread:
            data |= {
                "owner_id": str(self.owner_id),
                "message_count": self.message_count,
                "total_message_sent": self.message_count,
                "member_count": 1,
                "thread_metadata": {
                    "archived": self.archived,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": iso_now(),
                    "locked": False,
                    "create_timestamp": iso_now(),
                },
            }
        else:
            data["topic"] = self.topic
            data["permission_overwrites"] = [o.payload() for o in self.overwrites]
        if self.type in (ChannelType.VOICE, ChannelType.STAGE_VOICE):
            data |= {"bitrate": 64000, "user_limit": 0, "rtc_region": None,
                     "video_quality_mode": 1}
        return data


@dataclass(eq=False)
class Member:
    """A user's membership in a guild."""

    user: User
    roles: list[Role] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=iso_now)

    def payload(self, *, permissions: int | None = None, with_user: bool = True) -> JSONObject:
        """Return the guild member object (``permissions`` as in interaction payloads)."""
        data: JSONObject = {
            "roles": [str(role.id) for role in self.roles],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "communication_disabled_until": None,
            "premium_since": None,
            "joined_at": self.joined_at,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
        }
        if with_user:
            data["user"] = self.user.payload()
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


class Guild:
    """A guild: its roles (with @everyone), channels and members."""

    def __init__(
        self,
        name: str,
        *,
        channels: Iterable[str | Channel] = ("general",),
        members: Iterable[User | Member] = (),
        roles: Iterable[Role] = (),
        everyone_permissions: int = DEFAULT_EVERYONE_PERMISSIONS,
        owner: User | None = None,
        locale: str = "en-US",
        id: int | None = None,
    ) -> None:
        self.id = new_id() if id is None else id
        self.name = name
        self.locale = locale
        self.everyone = Role("@everyone", everyone_permissions, id=self.id, position=0)
        self.roles: list[Role] = [self.everyone, *roles]
        self.channels: list[Channel] = []
        self.threads: list[Channel] = []
        self.members: list[Member] = []
        for position, item in enumerate(channels):
            channel = Channel(item, position=position) if isinstance(item, str) else item
            self.add_channel(channel)
        for person in members:
            self.add_member(person)
        self.owner_id = owner.id if owner is not None else None

    def __repr__(self) -> str:
        return f"Guild({self.name!r}, id={self.id})"

    def add_channel(self, channel: Channel) -> Channel:
        """Add a channel (or thread) to this guild."""
        channel.guild_id = self.id
        (self.threads if channel.is_thread else self.channels).append(channel)
        return channel

    def add_member(self, member: User | Member) -> Member:
        """Add a user (or a prepared member) to this guild."""
        if isinstance(member, User):
            member = Member(member)
        for role in member.roles:
            if role not in self.roles:
                self.roles.append(role)
        self.members.append(member)
        return member

    def channel(self, name: str) -> Channel:
        """Return the channel or thread called ``name``."""
        for channel in itertools.chain(self.channels, self.threads):
            if channel.name == name:
                return channel
        raise LookupError(f"{self!r} has no channel named {name!r}")

    def member(self, user: User | int) -> Member | None:
        """Return the membership of ``user``, if any."""
        user_id = user if isinstance(user, int) else user.id
        return next((m for m in self.members if m.user.id == user_id), None)

    def role(self, name: str) -> Role:
        """Return the role called ``name``."""
        for role in self.roles:
            if role.name == name:
                return role
        raise LookupError(f"{self!r} has no role named {name!r}")

    def base_permissions(self, member: Member) -> int:
        """Guild-level permissions of ``member`` (owner and administrators get all)."""
        if member.user.id == self.owner_id:
            return ALL_PERMISSIONS
        value = self.everyone.permissions
        for role in member.roles:
            value |= role.permissions
        return ALL_PERMISSIONS if value & Permission.ADMINISTRATOR else value

    def permissions_in(self, member: Member, channel: Channel | None) -> int:
        """Permissions of ``member`` in ``channel``, overwrites applied like Discord does."""
        value = self.base_permissions(member)
        if value == ALL_PERMISSIONS or channel is None:
            return value
        if channel.is_thread and channel.parent_id is not None:
            parent = next((c for c in self.channels if c.id == channel.parent_id), None)
            return self.permissions_in(member, parent)
        role_ids = {role.id for role in member.roles}
        overwrites = channel.overwrites
        for ow in overwrites:
            if not ow.is_member and ow.target_id == self.id:
                value = (value & ~ow.deny) | ow.allow
        allow = deny = 0
        for ow in overwrites:
            if not ow.is_member and ow.target_id in role_ids:
                allow |= ow.allow
                deny |= ow.deny
        value = (value & ~deny) | allow
        for ow in overwrites:
            if ow.is_member and ow.target_id == member.user.id:
                value = (value & ~ow.deny) | ow.allow
        return value

    def payload(self) -> JSONObject:
        """Return the GUILD_CREATE payload."""
        return {
            "id": str(self.id),
            "name": self.name,
            "unavailable": False,
            "icon": None,
            "owner_id": None if self.owner_id is None else str(self.owner_id),
            "preferred_locale": self.locale,
            "features": [],
            "emojis": [],
            "stickers": [],
            "large": False,
            "member_count": len(self.members),
            "roles": [role.payload() for role in self.roles],
            "channels": [channel.payload() for channel in self.channels],
            "threads": [thread.payload() for thread in self.threads],
            "members": [member.payload() for member in self.members],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "joined_at": iso_now(),
        }
