"""The stand-in's messages, shaped like Discord's: their flags, who they ping
(``allowed_mentions`` applied), and their components."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import IntFlag

from .model import Channel, JSONObject, User, iso_now, new_id
from .polls import Poll


class MessageFlag(IntFlag):
    """Message flags the stand-in sets or reads."""

    SUPPRESS_EMBEDS = 1 << 2
    HAS_THREAD = 1 << 5
    EPHEMERAL = 1 << 6
    LOADING = 1 << 7
    SUPPRESS_NOTIFICATIONS = 1 << 12
    IS_COMPONENTS_V2 = 1 << 15


_USER_MENTION = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")


@dataclass(frozen=True)
class Pings:
    """Who a message notifies once ``allowed_mentions`` is applied (embeds never notify)."""

    users: frozenset[int] = frozenset()
    roles: frozenset[int] = frozenset()
    everyone: bool = False


def resolve_pings(
    content: str, allowed: JSONObject | None, *, default_parse: Iterable[str]
) -> Pings:
    """Apply Discord's ``allowed_mentions`` rules to the mentions written in ``content``."""
    if allowed is None:
        parse, users, roles = set(default_parse), set(), set()
    else:
        parse = set(allowed.get("parse") or ())
        users = {int(u) for u in allowed.get("users") or ()}
        roles = {int(r) for r in allowed.get("roles") or ()}
    written_users = {int(m) for m in _USER_MENTION.findall(content)}
    written_roles = {int(m) for m in _ROLE_MENTION.findall(content)}
    return Pings(
        users=frozenset(u for u in written_users if "users" in parse or u in users),
        roles=frozenset(r for r in written_roles if "roles" in parse or r in roles),
        everyone="everyone" in parse and ("@everyone" in content or "@here" in content),
    )


@dataclass(eq=False)
class Message:
    """A message as stored by the stand-in (the latest state, after edits)."""

    channel_id: int
    author: User
    content: str = ""
    embeds: list[JSONObject] = field(default_factory=list)
    components: list[JSONObject] = field(default_factory=list)
    allowed_mentions: JSONObject | None = None
    flags: int = 0
    id: int = field(default_factory=new_id)
    guild_id: int | None = None
    nonce: str | int | None = None
    type: int = 0
    webhook_id: int | None = None
    interaction_metadata: JSONObject | None = None
    attachments: list[JSONObject] = field(default_factory=list)
    reactions: list[str] = field(default_factory=list)
    message_reference: JSONObject | None = None
    thread: Channel | None = None
    pings: Pings = field(default_factory=Pings)
    mentioned_users: list[User] = field(default_factory=list)
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None
    deleted: bool = False
    edits: int = 0
    poll: Poll | None = None

    @property
    def ephemeral(self) -> bool:
        """Whether only the invoking user can see this message."""
        return bool(self.flags & MessageFlag.EPHEMERAL)

    @property
    def loading(self) -> bool:
        """Whether this is a deferred response still 'thinking'."""
        return bool(self.flags & MessageFlag.LOADING)

    def payload(self) -> JSONObject:
        """Return the message object."""
        data: JSONObject = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": self.pings.everyone,
            "mentions": [user.payload() for user in self.mentioned_users],
            "mention_roles": [str(r) for r in sorted(self.pings.roles)],
            "attachments": self.attachments,
            "embeds": self.embeds,
            "components": self.components,
            "reactions": [
                {"emoji": {"id": None, "name": e}, "count": 1, "me": True} for e in self.reactions
            ],
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.nonce is not None:
            data["nonce"] = self.nonce
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        if self.message_reference is not None:
            data["message_reference"] = self.message_reference
        if self.thread is not None:
            data["thread"] = self.thread.payload()
        if self.poll is not None:
            data["poll"] = self.poll.payload()
        return data

    def walk_components(self) -> Iterator[JSONObject]:
        """Yield every component of this message, nested ones included."""
        yield from walk_components(self.components)

    def component(self, custom_id: str) -> JSONObject:
        """Return the component with ``custom_id``."""
        for item in self.walk_components():
            if item.get("custom_id") == custom_id:
                return item
        ids = [c["custom_id"] for c in self.walk_components() if "custom_id" in c]
        raise LookupError(f"message {self.id} has no component {custom_id!r} (has {ids})")


def walk_components(components: Iterable[JSONObject]) -> Iterator[JSONObject]:
    """Yield components depth-first: action rows, containers, sections and their children."""
    for item in components:
        yield item
        yield from walk_components(item.get("components") or ())
        for key in ("accessory", "component"):
            child = item.get(key)
            if isinstance(child, dict):
                yield from walk_components([child])
