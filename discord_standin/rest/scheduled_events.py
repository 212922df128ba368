"""Guild scheduled events, with Discord's validation (names, times, entity types, permission)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ..model import ChannelType, Guild, JSONObject, Permission, new_id
from ..validation import FormError
from .resource import Resource
from .routing import ApiError, Call, Result, Route, form_error

STAGE, VOICE, EXTERNAL = 1, 2, 3
GUILD_ONLY = 2
SCHEDULED, ACTIVE, COMPLETED, CANCELED = 1, 2, 3, 4
CHANNEL_KINDS = {STAGE: ChannelType.STAGE_VOICE, VOICE: ChannelType.VOICE}
FIELDS = ("name", "description", "scheduled_start_time", "scheduled_end_time", "privacy_level",
          "entity_type", "channel_id", "entity_metadata", "status")
NAME_LIMIT = 100
DESCRIPTION_LIMIT = 1000
LOCATION_LIMIT = 100


def _error(field: str, code: str, message: str) -> FormError:
    return FormError((field,), code, message)


def _instant(value: Any, field: str) -> datetime | None:
    if value is None:
        return None
    try:
        parsed = datetime.fromisoformat(str(value))
    except ValueError:
        raise form_error([_error(field, "DATE_TIME_TYPE_PARSE", "Could not parse.")]) from None
    if parsed.tzinfo is None:
        raise form_error([_error(field, "DATE_TIME_TYPE_PARSE", "Could not parse.")])
    return parsed


def _snowflakes(body: JSONObject) -> JSONObject:
    """Ids as Discord answers them: strings."""
    if body.get("channel_id") is not None:
        body["channel_id"] = str(body["channel_id"])
    return body


class ScheduledEvents(Resource):
    """``/guilds/{guild_id}/scheduled-events[/{event_id}]``."""

    def routes(self) -> list[Route]:
        """List, create, read, edit and delete."""
        events = "/guilds/{guild_id}/scheduled-events"
        one = events + "/{event_id}"
        return [
            Route("GET", events, self.list_events),
            Route("POST", events, self.create_event),
            Route("GET", one, self.get_event),
            Route("PATCH", one, self.edit_event),
            Route("DELETE", one, self.delete_event),
        ]

    def _guild(self, call: Call, *, manage: bool) -> Guild:
        guild = self.world.guilds.get(call.snowflake("guild_id"))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        member = guild.member(self.world.bot_user)
        perms = 0 if member is None else guild.base_permissions(member)
        if manage and not perms & (Permission.MANAGE_EVENTS | Permission.CREATE_EVENTS):
            raise ApiError(403, 50013, "Missing Permissions")
        return guild

    def _event(self, call: Call, guild: Guild) -> JSONObject:
        event = self.world.scheduled_events.get(call.snowflake("event_id"))
        if event is None or event["guild_id"] != str(guild.id):
            raise ApiError(404, 10070, "Unknown Guild Scheduled Event")
        return event

    async def list_events(self, call: Call) -> Result:
        """GET: the guild's events."""
        guild = self._guild(call, manage=False)
        return [e for e in self.world.scheduled_events.values() if e["guild_id"] == str(guild.id)]

    async def get_event(self, call: Call) -> Result:
        """GET one event."""
        return self._event(call, self._guild(call, manage=False))

    async def create_event(self, call: Call) -> Result:
        """POST: validated as Discord does; the start must be in the future."""
        guild = self._guild(call, manage=True)
        body = _snowflakes({key: call.json.get(key) for key in FIELDS})
        body["status"] = SCHEDULED
        self._check(guild, body, new=True)
        event: JSONObject = {
            **body,
            "id": str(new_id()),
            "guild_id": str(guild.id),
            "creator_id": str(self.world.bot_user.id),
            "creator": self.world.bot_user.payload(),
            "entity_id": None,
            "user_count": 0,
            "image": None,
        }
        self.world.scheduled_events[int(event["id"])] = event
        return event

    async def edit_event(self, call: Call) -> Result:
        """PATCH: the merged event is validated again (a new start must be in the future)."""
        guild = self._guild(call, manage=True)
        event = self._event(call, guild)
        if event["status"] in (COMPLETED, CANCELED):
            raise ApiError(400, 180000, "Cannot modify a finished event")
        changes = _snowflakes({key: value for key, value in call.json.items() if key in FIELDS})
        merged = {**event, **changes}
        self._check(guild, merged, new="scheduled_start_time" in changes)
        event.update(changes)
        return event

    async def delete_event(self, call: Call) -> Result:
        """DELETE: 204."""
        guild = self._guild(call, manage=True)
        event = self._event(call, guild)
        del self.world.scheduled_events[int(event["id"])]
        return None

    def _check(self, guild: Guild, body: JSONObject, *, new: bool) -> None:
        errors: list[FormError] = []
        name = body.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= NAME_LIMIT:
            errors.append(_error("name", "BASE_TYPE_BAD_LENGTH",
                                 "Must be between 1 and 100 in length."))
        description = body.get("description")
        if description is not None and len(str(description)) > DESCRIPTION_LIMIT:
            errors.append(_error("description", "BASE_TYPE_MAX_LENGTH",
                                 "Must be 1000 or fewer in length."))
        if body.get("privacy_level") != GUILD_ONLY:
            errors.append(_error("privacy_level", "BASE_TYPE_CHOICES",
                                 "Value must be one of {2}."))
        start = _instant(body.get("scheduled_start_time"), "scheduled_start_time")
        end = _instant(body.get("scheduled_end_time"), "scheduled_end_time")
        if start is None:
            errors.append(_error("scheduled_start_time", "BASE_TYPE_REQUIRED",
                                 "This field is required"))
        elif new and start <= self.world.now():
            errors.append(_error("scheduled_start_time", "GUILD_SCHEDULED_EVENT_SCHEDULE_PAST",
                                 "Cannot schedule event in the past."))
        if start is not None and end is not None and end <= start:
            errors.append(_error("scheduled_end_time", "GUILD_SCHEDULED_EVENT_END_BEFORE_START",
                                 "Cannot schedule event to end before starting."))
        kind = body.get("entity_type")
        if kind == EXTERNAL:
            metadata = body.get("entity_metadata") or {}
            location = metadata.get("location") if isinstance(metadata, dict) else None
            if not isinstance(location, str) or not 1 <= len(location) <= LOCATION_LIMIT:
                errors.append(FormError(("entity_metadata", "location"), "BASE_TYPE_BAD_LENGTH",
                                        "Must be between 1 and 100 in length."))
            if end is None:
                errors.append(_error("scheduled_end_time", "BASE_TYPE_REQUIRED",
                                     "This field is required"))
            if body.get("channel_id") is not None:
                errors.append(_error("channel_id", "GUILD_SCHEDULED_EVENT_CHANNEL_NOT_ALLOWED",
                                     "External events cannot have a channel."))
        elif kind in CHANNEL_KINDS:
            channel = next((c for c in guild.channels
                            if str(c.id) == str(body.get("channel_id"))), None)
            if channel is None or channel.type is not CHANNEL_KINDS[kind]:
                errors.append(_error("channel_id", "GUILD_SCHEDULED_EVENT_INVALID_CHANNEL",
                                     "Channel must be a voice or stage channel."))
        else:
            errors.append(_error("entity_type", "BASE_TYPE_CHOICES",
                                 "Value must be one of {1, 2, 3}."))
        if errors:
            raise form_error(errors)
