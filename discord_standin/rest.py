"""Discord's REST API as the stand-in serves it: routing, recording, faults, and every handler."""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import re
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from aiohttp import BodyPartReader, web

from .faults import FaultRule, GlobalRateLimiter, rate_limit_body, rate_limit_headers
from .gateway import Intent
from .interactions import Callback, CallbackType, InteractionHandle, InteractionType
from .model import Channel, ChannelType, Guild, JSONObject, Message, MessageFlag, Permission, new_id
from .state import World
from .validation import (
    FormError,
    check_choices,
    check_commands,
    check_message,
    is_empty_message,
    nest_errors,
)

API_PREFIX = "/api/v10"

log = logging.getLogger(__name__)


class Dispatch(Protocol):
    """Sends a gateway event to sessions that asked for ``intent``."""

    async def __call__(self, event: str, data: JSONObject, *, intent: int = 0) -> int: ...


@dataclass
class RecordedRequest:
    """One request the stand-in received, in arrival order, and the status it answered."""

    method: str
    path: str
    query: dict[str, str]
    json: Any
    headers: dict[str, str]
    route: str | None = None
    status: int = 0
    files: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return f"{self.method} {self.path} -> {self.status}"


class ApiError(Exception):
    """A Discord JSON error answer."""

    def __init__(
        self, status: int, code: int, message: str, errors: JSONObject | None = None
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.body: JSONObject = {"message": message, "code": code}
        if errors:
            self.body["errors"] = errors


def form_error(errors: Iterable[FormError]) -> ApiError:
    """400, code 50035 Invalid Form Body, with Discord's nested ``errors``."""
    return ApiError(400, 50035, "Invalid Form Body", nest_errors(errors))


@dataclass
class Call:
    """What a route handler gets: path parameters, JSON body, query, and the record."""

    params: dict[str, str]
    body: Any
    query: Mapping[str, str]
    record: RecordedRequest
    touched: list[InteractionHandle] = field(default_factory=list)
    """Interactions this request changed; their waiters wake once the answer is final."""

    def snowflake(self, name: str) -> int:
        """A path parameter as a snowflake (bad ones are Discord's 404)."""
        try:
            return int(self.params[name])
        except ValueError:
            raise ApiError(404, 0, "404: Not Found") from None

    @property
    def json(self) -> JSONObject:
        """The body as a JSON object (``{}`` if absent)."""
        return self.body if isinstance(self.body, dict) else {}


Result = JSONObject | list[JSONObject] | None
Handler = Callable[[Call], Awaitable[Result]]


@dataclass(frozen=True)
class Route:
    """A method and path pattern such as ``/channels/{channel_id}/messages``."""

    method: str
    pattern: str
    handler: Handler
    authenticated: bool = True

    @functools.cached_property
    def regex(self) -> re.Pattern[str]:
        """The pattern compiled, one named group per ``{parameter}``."""
        return re.compile(
            "^" + re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(self.pattern)) + "$"
        )

    def match(self, method: str, path: str) -> dict[str, str] | None:
        """Path parameters if this route serves the request."""
        if method != self.method:
            return None
        found = self.regex.match(path)
        return None if found is None else found.groupdict()


def json_response(status: int, body: Any, headers: Mapping[str, str] | None = None) -> web.Response:
    """A JSON response whose Content-Type is exactly ``application/json`` (discord.py uses ==)."""
    extra = dict(headers or {})
    if body is None:
        return web.Response(status=204 if status == 200 else status, headers=extra)
    return web.Response(
        status=status,
        body=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **extra},
    )


class RestApi:
    """Routes ``/api/v10/...`` requests to handlers that read and change the :class:`World`."""

    def __init__(
        self, world: World, dispatch: Dispatch, *, token: str | None, base_url: Callable[[], str]
    ) -> None:
        self.world = world
        self.dispatch = dispatch
        self.token = token
        self.base_url = base_url
        self.log: list[RecordedRequest] = []
        self.faults: list[FaultRule] = []
        self.limiter: GlobalRateLimiter | None = None
        self.rate_limited = 0
        self.in_flight = 0
        self.internal_errors: list[Exception] = []
        self.routes = self._routes()

    def _routes(self) -> list[Route]:
        app = "/applications/{app_id}"
        hook = "/webhooks/{app_id}/{token}"
        msg = "/channels/{channel_id}/messages/{message_id}"
        table: list[tuple[str, str, Handler]] = [
            ("GET", "/users/@me", self.get_me),
            ("GET", "/users/{user_id}", self.get_user),
            ("GET", "/oauth2/applications/@me", self.get_application),
            ("GET", "/applications/@me", self.get_application),
            ("POST", "/users/@me/channels", self.create_dm),
            ("GET", app + "/commands", self.list_commands),
            ("PUT", app + "/commands", self.put_commands),
            ("POST", app + "/commands", self.post_command),
            ("GET", app + "/commands/{command_id}", self.get_command),
            ("PATCH", app + "/commands/{command_id}", self.patch_command),
            ("DELETE", app + "/commands/{command_id}", self.delete_command),
            ("GET", app + "/guilds/{guild_id}/commands", self.list_commands),
            ("PUT", app + "/guilds/{guild_id}/commands", self.put_commands),
            ("POST", app + "/guilds/{guild_id}/commands", self.post_command),
            ("GET", app + "/guilds/{guild_id}/commands/{command_id}", self.get_command),
            ("PATCH", app + "/guilds/{guild_id}/commands/{command_id}", self.patch_command),
            ("DELETE", app + "/guilds/{guild_id}/commands/{command_id}", self.delete_command),
            ("GET", "/channels/{channel_id}", self.get_channel),
            ("GET", "/channels/{channel_id}/messages", self.list_messages),
            ("POST", "/channels/{channel_id}/messages", self.post_message),
            ("GET", msg, self.get_message),
            ("PATCH", msg, self.edit_message),
            ("DELETE", msg, self.delete_message),
            ("POST", msg + "/threads", self.thread_from_message),
            ("POST", "/channels/{channel_id}/threads", self.thread_without_message),
            ("PUT", msg + "/reactions/{emoji}/@me", self.add_reaction),
            ("POST", "/channels/{channel_id}/typing", self.no_content),
            ("PUT", "/channels/{channel_id}/thread-members/@me", self.no_content),
            ("GET", "/guilds/{guild_id}", self.get_guild),
            ("GET", "/guilds/{guild_id}/channels", self.guild_channels),
            ("GET", "/guilds/{guild_id}/roles", self.guild_roles),
            ("GET", "/guilds/{guild_id}/members", self.guild_members),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self.guild_member),
            ("GET", "/guilds/{guild_id}/threads/active", self.active_threads),
        ]
        token_routes: list[tuple[str, str, Handler]] = [
            ("POST", "/interactions/{interaction_id}/{token}/callback", self.interaction_callback),
            ("POST", hook, self.post_followup),
            ("GET", hook + "/messages/{message_id}", self.get_webhook_message),
            ("PATCH", hook + "/messages/{message_id}", self.edit_webhook_message),
            ("DELETE", hook + "/messages/{message_id}", self.delete_webhook_message),
        ]
        return [Route(m, p, h) for m, p, h in table] + [
            Route(m, p, h, False) for m, p, h in token_routes
        ]

    # -- the one aiohttp handler --------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.Response:
        """Record the request, apply faults and the rate limiter, then route it."""
        self.in_flight += 1
        try:
            return await self._handle(request)
        finally:
            self.in_flight -= 1

    async def _handle(self, request: web.Request) -> web.Response:
        path = request.path.removeprefix(API_PREFIX) or "/"
        body, files = await self._read_body(request)
        headers = dict(request.headers)
        record = RecordedRequest(
            request.method, path, dict(request.query), body, headers, files=files
        )
        self.log.append(record)
        found = self._resolve(record.method, path)
        record.route = None if found is None else found[0].pattern
        touched: list[InteractionHandle] = []
        rule = next((r for r in self.faults if r.take(record.method, path)), None)
        if rule is None or rule.after_processing:
            response = await self._serve(found, request, record, touched)
        if rule is not None:
            response = rule.fault.response()
        record.status = response.status
        if response.status == 429:
            self.rate_limited += 1
        for handle in touched:
            handle.changed()
        return response

    def _resolve(self, method: str, path: str) -> tuple[Route, dict[str, str]] | None:
        for route in self.routes:
            params = route.match(method, path)
            if params is not None:
                return route, params
        return None

    async def _serve(
        self,
        found: tuple[Route, dict[str, str]] | None,
        request: web.Request,
        record: RecordedRequest,
        touched: list[InteractionHandle],
    ) -> web.Response:
        if found is None:
            return json_response(404, {"message": "404: Not Found", "code": 0})
        route, params = found
        if self.limiter is not None and route.authenticated:
            wait = self.limiter.check(asyncio.get_running_loop().time())
            if wait is not None:
                body = rate_limit_body(wait, is_global=True)
                return json_response(429, body, rate_limit_headers(wait, is_global=True))
        try:
            if route.authenticated:
                self._authenticate(request)
            call = Call(params, record.json, request.query, record, touched)
            result = await route.handler(call)
        except ApiError as error:
            return json_response(error.status, error.body)
        except Exception as error:
            log.exception("stand-in failed on %s %s", record.method, record.path)
            self.internal_errors.append(error)
            return json_response(500, {"message": f"stand-in error: {error!r}", "code": 0})
        return json_response(200, result)

    def _authenticate(self, request: web.Request) -> None:
        auth = request.headers.get("Authorization", "")
        if not auth.startswith("Bot ") or (self.token is not None and auth != f"Bot {self.token}"):
            raise ApiError(401, 0, "401: Unauthorized")

    async def _read_body(self, request: web.Request) -> tuple[Any, list[str]]:
        if not request.body_exists:
            return None, []
        if not request.content_type.startswith("multipart/"):
            raw = await request.text()
            try:
                return json.loads(raw), []
            except ValueError:
                return raw, []
        payload: JSONObject = {}
        uploads: list[JSONObject] = []
        reader = await request.multipart()
        async for part in reader:
            if not isinstance(part, BodyPartReader):
                continue
            data = await part.read()
            if part.name == "payload_json":
                payload = json.loads(data)
            else:
                uploads.append(
                    {
                        "filename": part.filename or part.name or "file",
                        "size": len(data),
                        "content_type": part.headers.get("Content-Type"),
                    }
                )
        attachments = []
        for upload in uploads:
            attachment_id = new_id()
            url = f"{self.base_url()}/attachments/{attachment_id}/{upload['filename']}"
            attachments.append(upload | {"id": str(attachment_id), "url": url, "proxy_url": url})
        if attachments:
            payload["attachments"] = attachments
        return payload, [str(u["filename"]) for u in uploads]

    # -- helpers ------------------------------------------------------------------------------

    def _channel(self, call: Call, *, need: int = 0) -> Channel:
        channel = self.world.channels.get(call.snowflake("channel_id"))
        if channel is None:
            raise ApiError(404, 10003, "Unknown Channel")
        perms = self.world.permissions(self.world.bot_user, channel)
        if not perms & Permission.VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access")
        if need and not perms & need:
            raise ApiError(403, 50013, "Missing Permissions")
        return channel

    def _message(self, channel: Channel, message_id: int) -> Message:
        message = self.world.messages.get(message_id)
        if message is None or message.deleted or message.channel_id != channel.id:
            raise ApiError(404, 10008, "Unknown Message")
        return message

    def _handle_for(self, call: Call) -> InteractionHandle:
        handle = self.world.interactions_by_token.get(call.params["token"])
        if handle is None or call.params["app_id"] != str(self.world.application_id):
            raise ApiError(404, 10015, "Unknown Webhook")
        return handle

    @staticmethod
    def _validate(body: JSONObject, *, partial: bool = False) -> None:
        errors = check_message(body)
        if errors:
            raise form_error(errors)
        if not partial and is_empty_message(body):
            raise ApiError(400, 50006, "Cannot send an empty message")

    def _touch(self, call: Call, message: Message) -> None:
        """Mark every interaction whose messages include ``message`` as changed."""
        for handle in self.world.interactions_by_message.get(message.id, ()):
            if handle not in call.touched:
                call.touched.append(handle)

    async def _announce(self, event: str, message: Message) -> None:
        """Dispatch MESSAGE_CREATE/UPDATE (never for ephemeral messages)."""
        if message.ephemeral:
            return
        intent = Intent.GUILD_MESSAGES if message.guild_id is not None else Intent.DIRECT_MESSAGES
        await self.dispatch(event, message.payload(), intent=int(intent))

    async def _announce_delete(self, message: Message) -> None:
        if message.ephemeral:
            return
        data = {"id": str(message.id), "channel_id": str(message.channel_id)}
        if message.guild_id is not None:
            data["guild_id"] = str(message.guild_id)
        intent = Intent.GUILD_MESSAGES if message.guild_id is not None else Intent.DIRECT_MESSAGES
        await self.dispatch("MESSAGE_DELETE", data, intent=int(intent))

    async def no_content(self, call: Call) -> Result:
        """Routes that only answer 204 (typing, joining a thread)."""
        self._channel(call)
        return None

    # -- users and application ----------------------------------------------------------------

    async def get_me(self, call: Call) -> Result:
        """GET /users/@me: the bot user."""
        return self.world.bot_user.payload() | {"verified": True, "mfa_enabled": False, "flags": 0}

    async def get_user(self, call: Call) -> Result:
        """GET /users/{id}."""
        user = self.world.users.get(call.snowflake("user_id"))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return user.payload()

    async def get_application(self, call: Call) -> Result:
        """GET /oauth2/applications/@me: the application, owned by the bot user's 'owner'."""
        bot = self.world.bot_user
        return {
            "id": str(self.world.application_id),
            "name": bot.name,
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": {"id": "1", "username": "owner", "discriminator": "0", "avatar": None},
            "team": None,
            "verify_key": "0" * 64,
            "summary": "",
            "flags": 0,
            "bot": bot.payload(),
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "integration_types_config": {"0": {}},
        }

    async def create_dm(self, call: Call) -> Result:
        """POST /users/@me/channels: the DM channel with a user."""
        user = self.world.users.get(int(call.json.get("recipient_id", 0)))
        if user is None:
            raise ApiError(400, 50033, "Invalid Recipient(s)")
        return self.world.dm_channel(user).payload()

    # -- application commands -----------------------------------------------------------------

    def _scope(self, call: Call) -> int | None:
        if call.params["app_id"] != str(self.world.application_id):
            raise ApiError(403, 50001, "Missing Access")
        if "guild_id" not in call.params:
            return None
        guild_id = call.snowflake("guild_id")
        if guild_id not in self.world.guilds:
            raise ApiError(403, 50001, "Missing Access")
        return guild_id

    def _command(self, call: Call) -> JSONObject:
        for command in self.world.commands.get(self._scope(call), []):
            if command["id"] == call.params["command_id"]:
                return command
        raise ApiError(404, 10063, "Unknown application command")

    async def list_commands(self, call: Call) -> Result:
        """GET .../commands."""
        return list(self.world.commands.get(self._scope(call), []))

    async def put_commands(self, call: Call) -> Result:
        """PUT .../commands: bulk overwrite (what ``tree.sync()`` does)."""
        scope = self._scope(call)
        payload = call.body if isinstance(call.body, list) else []
        errors = check_commands(payload)
        if errors:
            raise form_error(errors)
        return self.world.set_commands(scope, payload)

    async def post_command(self, call: Call) -> Result:
        """POST .../commands: create or replace one command."""
        scope = self._scope(call)
        errors = check_commands([call.json])
        if errors:
            raise form_error(errors)
        return self.world.upsert_command(scope, call.json)

    async def get_command(self, call: Call) -> Result:
        """GET .../commands/{id}."""
        return self._command(call)

    async def patch_command(self, call: Call) -> Result:
        """PATCH .../commands/{id}."""
        command = self._command(call)
        command.update({k: v for k, v in call.json.items() if k not in ("id", "application_id")})
        return command

    async def delete_command(self, call: Call) -> Result:
        """DELETE .../commands/{id}."""
        command = self._command(call)
        self.world.commands[self._scope(call)].remove(command)
        return None

    # -- interactions -------------------------------------------------------------------------

    async def interaction_callback(self, call: Call) -> Result:
        """POST /interactions/{id}/{token}/callback: the bot's first answer to an interaction."""
        handle = self.world.interactions.get(call.snowflake("interaction_id"))
        if handle is None or handle.token != call.params["token"]:
            raise ApiError(404, 10062, "Unknown interaction")
        if handle.callback is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        body = call.json
        kind, data = body.get("type"), body.get("data") or {}
        allowed = {
            InteractionType.APPLICATION_COMMAND: {4, 5, 9},
            InteractionType.MESSAGE_COMPONENT: {4, 5, 6, 7, 9},
            InteractionType.AUTOCOMPLETE: {8},
            InteractionType.MODAL_SUBMIT: {4, 5, 6, 7},
        }[handle.type]
        if kind in (6, 7) and handle.source is None:
            allowed = allowed - {6, 7}
        if kind not in allowed:
            raise ApiError(
                400, 50035, f"Interaction callback type {kind} is invalid for a {handle.type.name}"
            )
        message, event = self._apply_callback(handle, int(kind), data)
        handle.callback = Callback(int(kind), data, None if message is None else message.id, body)
        if message is not None:
            handle.original_id = message.id
            self.world.link_message(handle, message.id)
            self._touch(call, message)
        call.touched.append(handle)
        if message is not None and event is not None:
            await self._announce(event, message)
        reply: JSONObject = {
            "interaction": {
                "id": str(handle.id),
                "type": int(handle.type),
                "response_message_id": None if message is None else str(message.id),
                "response_message_loading": kind == CallbackType.DEFERRED_CHANNEL_MESSAGE,
                "response_message_ephemeral": message is not None and message.ephemeral,
            }
        }
        if message is not None and kind in (4, 5, 7):
            reply["resource"] = {"type": kind, "message": message.payload()}
        return reply

    def _apply_callback(
        self, handle: InteractionHandle, kind: int, data: JSONObject
    ) -> tuple[Message | None, str | None]:
        bot = self.world.bot_user
        if kind == CallbackType.CHANNEL_MESSAGE:
            self._validate(data)
            return self.world.create_message(
                handle.channel, bot, data, interaction=handle
            ), "MESSAGE_CREATE"
        if kind == CallbackType.DEFERRED_CHANNEL_MESSAGE:
            flags = {"flags": int(data.get("flags") or 0) & MessageFlag.EPHEMERAL}
            message = self.world.create_message(
                handle.channel, bot, flags, interaction=handle, extra_flags=int(MessageFlag.LOADING)
            )
            return message, "MESSAGE_CREATE"
        if kind == CallbackType.UPDATE_MESSAGE:
            assert handle.source is not None
            self._validate(data, partial=True)
            return self.world.edit_message(handle.source, data), "MESSAGE_UPDATE"
        if kind == CallbackType.DEFERRED_UPDATE_MESSAGE:
            return handle.source, None
        if kind == CallbackType.AUTOCOMPLETE_RESULT:
            errors = check_choices(data.get("choices") or [])
            if errors:
                raise form_error(errors)
            return None, None
        if not data.get("custom_id") or not data.get("title") or not data.get("components"):
            raise ApiError(400, 50035, "A modal needs custom_id, title and components")
        return None, None

    async def post_followup(self, call: Call) -> Result:
        """POST /webhooks/{app}/{token}: a followup; the first after a defer fills the original."""
        handle = self._handle_for(call)
        if handle.callback is None:
            raise ApiError(404, 10015, "Unknown Webhook")
        body = call.json
        self._validate(body)
        original = handle.message
        if original is not None and original.loading:
            message = self.world.edit_message(original, body)
            event = "MESSAGE_UPDATE"
        else:
            message = self.world.create_message(
                handle.channel, self.world.bot_user, body, interaction=handle
            )
            event = "MESSAGE_CREATE"
        handle.followup_ids.append(message.id)
        self.world.link_message(handle, message.id)
        self._touch(call, message)
        await self._announce(event, message)
        return message.payload() if call.query.get("wait") in ("1", "true", "True") else None

    def _webhook_message(self, call: Call) -> tuple[InteractionHandle, Message]:
        handle = self._handle_for(call)
        wanted = call.params["message_id"]
        message_id = (
            handle.original_id
            if wanted == "@original"
            else int(wanted)
            if wanted.isdigit()
            else None
        )
        if message_id is None or (
            message_id != handle.original_id and message_id not in handle.followup_ids
        ):
            raise ApiError(404, 10008, "Unknown Message")
        message = self.world.messages.get(message_id)
        if message is None or message.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        return handle, message

    async def get_webhook_message(self, call: Call) -> Result:
        """GET /webhooks/{app}/{token}/messages/{id|@original}."""
        return self._webhook_message(call)[1].payload()

    async def edit_webhook_message(self, call: Call) -> Result:
        """PATCH /webhooks/{app}/{token}/messages/{id|@original}."""
        _, message = self._webhook_message(call)
        self._validate(call.json, partial=True)
        self.world.edit_message(message, call.json)
        self._touch(call, message)
        await self._announce("MESSAGE_UPDATE", message)
        return message.payload()

    async def delete_webhook_message(self, call: Call) -> Result:
        """DELETE /webhooks/{app}/{token}/messages/{id|@original}."""
        _, message = self._webhook_message(call)
        message.deleted = True
        self._touch(call, message)
        await self._announce_delete(message)
        return None

    # -- channels and messages ----------------------------------------------------------------

    async def get_channel(self, call: Call) -> Result:
        """GET /channels/{id}."""
        return self._channel(call).payload()

    async def list_messages(self, call: Call) -> Result:
        """GET /channels/{id}/messages: newest first; ``limit``, ``before`` and ``after``."""
        channel = self._channel(call, need=Permission.READ_MESSAGE_HISTORY)
        messages = self.world.visible_messages(channel.id)
        if "before" in call.query:
            messages = [m for m in messages if m.id < int(call.query["before"])]
        if "after" in call.query:
            messages = [m for m in messages if m.id > int(call.query["after"])]
        limit = int(call.query.get("limit", 50))
        return [m.payload() for m in reversed(messages)][:limit]

    async def post_message(self, call: Call) -> Result:
        """POST /channels/{id}/messages; with ``enforce_nonce`` a repeated nonce gets the first."""
        channel = self._channel(call)
        perm = (
            Permission.SEND_MESSAGES_IN_THREADS if channel.is_thread else Permission.SEND_MESSAGES
        )
        if not self.world.permissions(self.world.bot_user, channel) & perm:
            raise ApiError(403, 50013, "Missing Permissions")
        if channel.is_dm and not all(user.dms_open for user in channel.recipients):
            raise ApiError(403, 50007, "Cannot send messages to this user")
        body = call.json
        if body.get("enforce_nonce"):
            existing = self.world.nonce_hit(channel, self.world.bot_user, body.get("nonce"))
            if existing is not None:
                return existing.payload()
        self._validate(body)
        message = self.world.create_message(channel, self.world.bot_user, body)
        await self._announce("MESSAGE_CREATE", message)
        return message.payload()

    async def get_message(self, call: Call) -> Result:
        """GET /channels/{id}/messages/{id}."""
        channel = self._channel(call, need=Permission.READ_MESSAGE_HISTORY)
        return self._message(channel, call.snowflake("message_id")).payload()

    async def edit_message(self, call: Call) -> Result:
        """PATCH /channels/{id}/messages/{id}: only the bot's own messages."""
        channel = self._channel(call)
        message = self._message(channel, call.snowflake("message_id"))
        if message.author is not self.world.bot_user:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        self._validate(call.json, partial=True)
        self.world.edit_message(message, call.json)
        self._touch(call, message)
        await self._announce("MESSAGE_UPDATE", message)
        return message.payload()

    async def delete_message(self, call: Call) -> Result:
        """DELETE /channels/{id}/messages/{id}: own messages, or others' with Manage Messages."""
        channel = self._channel(call)
        message = self._message(channel, call.snowflake("message_id"))
        own = message.author is self.world.bot_user
        if (
            not own
            and not self.world.permissions(self.world.bot_user, channel)
            & Permission.MANAGE_MESSAGES
        ):
            raise ApiError(403, 50013, "Missing Permissions")
        message.deleted = True
        self._touch(call, message)
        await self._announce_delete(message)
        return None

    async def add_reaction(self, call: Call) -> Result:
        """PUT /channels/{id}/messages/{id}/reactions/{emoji}/@me."""
        channel = self._channel(call, need=Permission.ADD_REACTIONS)
        self._message(channel, call.snowflake("message_id")).reactions.append(call.params["emoji"])
        return None

    async def _thread_created(self, thread: Channel) -> Result:
        await self.dispatch(
            "THREAD_CREATE", thread.payload() | {"newly_created": True}, intent=int(Intent.GUILDS)
        )
        return thread.payload()

    async def thread_from_message(self, call: Call) -> Result:
        """POST /channels/{id}/messages/{id}/threads: a public thread with the message's id."""
        channel = self._channel(call, need=Permission.CREATE_PUBLIC_THREADS)
        if channel.is_dm or channel.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        message = self._message(channel, call.snowflake("message_id"))
        if message.thread is not None:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        name = str(call.json.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise form_error(
                [
                    FormError(
                        ("name",), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."
                    )
                ]
            )
        kind = (
            ChannelType.NEWS_THREAD
            if channel.type is ChannelType.NEWS
            else ChannelType.PUBLIC_THREAD
        )
        thread = self.world.create_thread(
            channel, name, owner=self.world.bot_user, kind=kind, from_message=message
        )
        return await self._thread_created(thread)

    async def thread_without_message(self, call: Call) -> Result:
        """POST /channels/{id}/threads: a thread not attached to a message."""
        kind = ChannelType(int(call.json.get("type") or ChannelType.PRIVATE_THREAD))
        need = (
            Permission.CREATE_PRIVATE_THREADS
            if kind is ChannelType.PRIVATE_THREAD
            else Permission.CREATE_PUBLIC_THREADS
        )
        channel = self._channel(call, need=need)
        if channel.is_dm or channel.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        name = str(call.json.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise form_error(
                [
                    FormError(
                        ("name",), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."
                    )
                ]
            )
        thread = self.world.create_thread(channel, name, owner=self.world.bot_user, kind=kind)
        return await self._thread_created(thread)

    # -- guilds -------------------------------------------------------------------------------

    def _guild(self, call: Call) -> Guild:
        guild = self.world.guilds.get(call.snowflake("guild_id"))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        return guild

    async def get_guild(self, call: Call) -> Result:
        """GET /guilds/{id}."""
        data: JSONObject = self._guild(call).payload()
        for key in ("channels", "threads", "members", "presences", "voice_states"):
            data.pop(key, None)
        return data

    async def guild_channels(self, call: Call) -> Result:
        """GET /guilds/{id}/channels."""
        return [c.payload() for c in self._guild(call).channels]

    async def guild_roles(self, call: Call) -> Result:
        """GET /guilds/{id}/roles."""
        return [r.payload() for r in self._guild(call).roles]

    async def guild_members(self, call: Call) -> Result:
        """GET /guilds/{id}/members."""
        limit = int(call.query.get("limit", 1))
        return [m.payload() for m in self._guild(call).members][:limit]

    async def guild_member(self, call: Call) -> Result:
        """GET /guilds/{id}/members/{user_id}."""
        member = self._guild(call).member(call.snowflake("user_id"))
        if member is None:
            raise ApiError(404, 10007, "Unknown Member")
        return member.payload()

    async def active_threads(self, call: Call) -> Result:
        """GET /guilds/{id}/threads/active."""
        return {
            "threads": [t.payload() for t in self._guild(call).threads if not t.archived],
            "members": [],
        }
