"""The stand-in's world: every guild, channel, user, message and registered command."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from .messages import Message, MessageFlag, resolve_pings
from .model import (
    ALL_PERMISSIONS,
    CHAT_PERMISSIONS,
    DEFAULT_BOT_PERMISSIONS,
    Channel,
    ChannelType,
    Guild,
    JSONObject,
    Member,
    Role,
    User,
    iso_now,
    new_id,
)
from .polls import Poll

if TYPE_CHECKING:
    from .interactions import InteractionHandle

_CREATE_FLAGS = int(
    MessageFlag.SUPPRESS_EMBEDS
    | MessageFlag.EPHEMERAL
    | MessageFlag.SUPPRESS_NOTIFICATIONS
    | MessageFlag.IS_COMPONENTS_V2
)
_DM_PERMISSIONS = CHAT_PERMISSIONS
_MESSAGE_FIELDS = ("content", "embeds", "components", "allowed_mentions", "attachments")
NONCE_WINDOW_SECONDS = 300.0
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
"""Discord's default upload limit for a bot's files (10 MiB each)."""
"""How long a nonce sent with ``enforce_nonce`` is remembered: Discord documents "the past few
minutes"; a send after that with the same nonce creates a second message."""


class World:
    """All state the stand-in serves; REST handlers and injections read and change it."""

    def __init__(
        self,
        bot_user: User,
        *,
        bot_permissions: int = DEFAULT_BOT_PERMISSIONS,
        nonce_window: float = NONCE_WINDOW_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``clock`` (seconds) ages remembered nonces; they are forgotten after ``nonce_window``."""
        self.bot_user = bot_user
        self.application_id = bot_user.id
        self.bot_permissions = bot_permissions
        self.users: dict[int, User] = {bot_user.id: bot_user}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.commands: dict[int | None, list[JSONObject]] = {}
        self.interactions: dict[int, InteractionHandle] = {}
        self.interactions_by_token: dict[str, InteractionHandle] = {}
        self.interactions_by_message: dict[int, list[InteractionHandle]] = {}
        self.nonce_window = nonce_window
        self.clock = clock
        self._nonces: dict[tuple[int, int, str | int], tuple[float, Message]] = {}
        self.scheduled_events: dict[int, JSONObject] = {}
        self.attachment_size_limit = ATTACHMENT_SIZE_LIMIT
        """Largest file Discord takes (bytes); interactions announce it, uploads over it 413."""
        self.attachment_bytes: dict[int, bytes] = {}
        self.now: Callable[[], datetime] = lambda: datetime.now(UTC)
        """The instant Discord checks times against (scheduled events must start later)."""

    # -- directory ---------------------------------------------------------------------------

    def add_interaction(self, handle: InteractionHandle) -> None:
        """Register an injected interaction, indexed by token and by its source message."""
        self.interactions[handle.id] = handle
        self.interactions_by_token[handle.token] = handle
        if handle.source is not None:
            self.link_message(handle, handle.source.id)

    def link_message(self, handle: InteractionHandle, message_id: int) -> None:
        """Record that `message_id` belongs to `handle` (original, followup or source)."""
        handles = self.interactions_by_message.setdefault(message_id, [])
        if handle not in handles:
            handles.append(handle)

    def add_user(self, user: User) -> User:
        """Register a user (idempotent)."""
        self.users.setdefault(user.id, user)
        return self.users[user.id]

    def add_guild(self, guild: Guild) -> Guild:
        """Register a guild with its channels and members; the bot joins with its managed role."""
        self.guilds[guild.id] = guild
        if guild.member(self.bot_user) is None:
            role = Role(self.bot_user.name, self.bot_permissions, position=1, managed=True)
            guild.roles.append(role)
            guild.add_member(Member(self.bot_user, roles=[role]))
        for channel in (*guild.channels, *guild.threads):
            self.channels[channel.id] = channel
        for member in guild.members:
            self.add_user(member.user)
        return guild

    def guild_of(self, channel: Channel) -> Guild | None:
        """The guild a channel belongs to (``None`` for DMs)."""
        return None if channel.guild_id is None else self.guilds.get(channel.guild_id)

    def dm_channel(self, user: User) -> Channel:
        """The bot's DM channel with ``user``, created on first use."""
        self.add_user(user)
        for channel in self.channels.values():
            if channel.is_dm and channel.recipients and channel.recipients[0].id == user.id:
                return channel
        channel = Channel(user.name, ChannelType.DM, recipients=[user])
        self.channels[channel.id] = channel
        return channel

    def permissions(self, user: User, channel: Channel) -> int:
        """What ``user`` may do in ``channel`` (0 when not a member of its guild)."""
        if channel.is_dm:
            return _DM_PERMISSIONS
        guild = self.guild_of(channel)
        if guild is None:
            return ALL_PERMISSIONS
        member = guild.member(user)
        return 0 if member is None else guild.permissions_in(member, channel)

    def visible_messages(self, channel_id: int) -> list[Message]:
        """Messages in a channel, oldest first, without deleted ones."""
        return [m for m in self.messages.values() if m.channel_id == channel_id and not m.deleted]

    # -- messages -----------------------------------------------------------------------------

    def nonce_hit(self, channel: Channel, author: User, nonce: str | int | None) -> Message | None:
        """The message created with this nonce within the nonce window, if any."""
        if nonce is None:
            return None
        key = (channel.id, author.id, nonce)
        remembered = self._nonces.get(key)
        if remembered is None:
            return None
        created, message = remembered
        if self.clock() - created > self.nonce_window:
            del self._nonces[key]
            return None
        return message

    def create_message(
        self,
        channel: Channel,
        author: User,
        body: JSONObject,
        *,
        interaction: InteractionHandle | None = None,
        extra_flags: int = 0,
    ) -> Message:
        """Store a new message built from a create-message body."""
        message = Message(
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author,
            flags=(int(body.get("flags") or 0) & _CREATE_FLAGS) | extra_flags,
            nonce=body.get("nonce"),
        )
        reference = body.get("message_reference")
        if isinstance(reference, dict) and reference.get("message_id"):
            message.message_reference = {"channel_id": str(channel.id), **reference}
            message.type = 19
        if interaction is not None:
            message.webhook_id = self.application_id
            message.type = 20 if interaction.type == 2 else 0
            message.interaction_metadata = interaction.metadata()
        self._apply(message, body, interaction=interaction is not None)
        if isinstance(body.get("poll"), dict):
            message.poll = Poll.create(body["poll"], self.now())
        self.messages[message.id] = message
        if channel.is_thread:
            channel.message_count += 1
        if message.nonce is not None and body.get("enforce_nonce"):
            self._nonces[(channel.id, author.id, message.nonce)] = (self.clock(), message)
        return message

    def edit_message(self, message: Message, body: JSONObject) -> Message:
        """Apply an edit body (only the fields present change) and clear the loading flag."""
        if "flags" in body and body["flags"] is not None:
            keep = message.flags & ~int(MessageFlag.SUPPRESS_EMBEDS)
            message.flags = keep | (int(body["flags"]) & int(MessageFlag.SUPPRESS_EMBEDS))
        was_loading = message.loading
        message.flags &= ~int(MessageFlag.LOADING)
        self._apply(message, body, interaction=message.webhook_id is not None)
        if not was_loading:  # filling in a deferred response is not shown as an edit
            message.edited_timestamp = iso_now()
        message.edits += 1
        return message

    def _apply(self, message: Message, body: JSONObject, *, interaction: bool) -> None:
        for key in _MESSAGE_FIELDS:
            if key in body and body[key] is not None:
                setattr(message, key, body[key])
        if "attachments" in body:
            message.attachments = [a for a in body.get("attachments") or [] if "filename" in a]
        default_parse = ("users",) if interaction else ("users", "roles", "everyone")
        message.pings = resolve_pings(
            message.content, message.allowed_mentions, default_parse=default_parse
        )
        message.mentioned_users = [
            self.users[u] for u in sorted(message.pings.users) if u in self.users
        ]

    def delete_channel(self, channel: Channel) -> None:
        """Remove a channel or thread (as a member with Manage Channels would)."""
        guild = self.guild_of(channel)
        if guild is not None:
            kept = guild.threads if channel.is_thread else guild.channels
            kept[:] = [c for c in kept if c is not channel]
        self.channels.pop(channel.id, None)

    def create_thread(
        self,
        parent: Channel,
        name: str,
        *,
        owner: User,
        kind: ChannelType = ChannelType.PUBLIC_THREAD,
        from_message: Message | None = None,
    ) -> Channel:
        """Create a thread; one started from a message shares that message's id, as on Discord."""
        guild = self.guild_of(parent)
        if guild is None:
            raise ValueError("threads need a guild channel")
        thread = Channel(
            name,
            kind,
            id=from_message.id if from_message is not None else new_id(),
            parent_id=parent.id,
            owner_id=owner.id,
        )
        guild.add_channel(thread)
        self.channels[thread.id] = thread
        if from_message is not None:
            from_message.thread = thread
            from_message.flags |= int(MessageFlag.HAS_THREAD)
        return thread

    # -- application commands -----------------------------------------------------------------

    def set_commands(self, guild_id: int | None, payload: Iterable[JSONObject]) -> list[JSONObject]:
        """Bulk-overwrite one scope's commands, keeping ids of commands that stay."""
        old = {(c["name"], c.get("type", 1)): c for c in self.commands.get(guild_id, [])}
        result = []
        for command in payload:
            kind = int(command.get("type", 1))
            previous = old.get((command["name"], kind))
            result.append(
                stored_command(
                    command, guild_id, None if previous is None else previous["id"],
                    self.application_id,
                )
            )
        self.commands[guild_id] = result
        return result

    def upsert_command(self, guild_id: int | None, command: JSONObject) -> JSONObject:
        """Create or replace one command, keyed by name and type."""
        existing = self.commands.setdefault(guild_id, [])
        kind = int(command.get("type", 1))
        for i, old in enumerate(existing):
            if old["name"] == command["name"] and old.get("type", 1) == kind:
                existing[i] = stored_command(command, guild_id, old["id"], self.application_id)
                return existing[i]
        existing.append(stored_command(command, guild_id, None, self.application_id))
        return existing[-1]

    def find_command(self, name: str, guild_id: int | None, *, kind: int = 1) -> JSONObject | None:
        """The command a user would see: the guild's own first, then the global one."""
        scopes = (guild_id, None) if guild_id is not None else (None,)
        for scope in scopes:
            for command in self.commands.get(scope, []):
                if command["name"] == name and command.get("type", 1) == kind:
                    return command
        return None


def stored_command(
    command: JSONObject, guild_id: int | None, command_id: Any, application_id: int
) -> JSONObject:
    """A registered command as Discord stores it: its defaults filled in, with ids."""
    stored: JSONObject = {
        "type": 1,
        "options": [],
        "default_member_permissions": None,
        "dm_permission": True,
        "nsfw": False,
        "contexts": None,
        "integration_types": [0],
        "name_localizations": None,
        "description": "",
        "description_localizations": None,
        **command,
        "id": command_id or str(new_id()),
        "application_id": str(application_id),
        "version": str(new_id()),
    }
    if guild_id is not None:
        stored["guild_id"] = str(guild_id)
    return stored
