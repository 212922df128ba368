"""Users, the application, and DM channels."""

from __future__ import annotations

from .resource import Resource
from .routing import ApiError, Call, Result, Route


class Users(Resource):
    """``/users/...`` and ``/applications/@me``."""

    def routes(self) -> list[Route]:
        """``/users/@me`` comes before ``/users/{user_id}``, which would also match it."""
        return [
            Route("GET", "/users/@me", self.get_me),
            Route("GET", "/users/{user_id}", self.get_user),
            Route("GET", "/oauth2/applications/@me", self.get_application),
            Route("GET", "/applications/@me", self.get_application),
            Route("POST", "/users/@me/channels", self.create_dm),
        ]

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
