"""Application commands, global and per guild (what ``tree.sync()`` talks to)."""

from __future__ import annotations

from ..model import JSONObject
from ..validation import check_commands
from .resource import Resource
from .routing import ApiError, Call, Result, Route, form_error


class ApplicationCommands(Resource):
    """``/applications/{app_id}[/guilds/{guild_id}]/commands[/{command_id}]``."""

    def routes(self) -> list[Route]:
        """The same six routes globally and per guild."""
        found = []
        for scope in ("/applications/{app_id}", "/applications/{app_id}/guilds/{guild_id}"):
            one = scope + "/commands/{command_id}"
            found += [
                Route("GET", scope + "/commands", self.list_commands),
                Route("PUT", scope + "/commands", self.put_commands),
                Route("POST", scope + "/commands", self.post_command),
                Route("GET", one, self.get_command),
                Route("PATCH", one, self.patch_command),
                Route("DELETE", one, self.delete_command),
            ]
        return found

    def _scope(self, call: Call) -> int | None:
        """The guild id of a guild route, ``None`` for global commands."""
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
