"""``GET /gateway`` and ``GET /gateway/bot``: where to connect, how many shards, session starts."""

from __future__ import annotations

from collections.abc import Callable

from ..model import JSONObject
from ..state import World
from .resource import Resource
from .routing import Call, Dispatch, Result, Route


class GatewayInfo(Resource):
    """The gateway directory an ``AutoShardedClient`` asks before connecting."""

    def __init__(self, world: World, dispatch: Dispatch,
                 gateway_bot: Callable[[], JSONObject]) -> None:
        super().__init__(world, dispatch)
        self._gateway_bot = gateway_bot

    def routes(self) -> list[Route]:
        """``/gateway`` needs no token; ``/gateway/bot`` does."""
        return [
            Route("GET", "/gateway/bot", self.get_gateway_bot),
            Route("GET", "/gateway", self.get_gateway, authenticated=False),
        ]

    async def get_gateway_bot(self, call: Call) -> Result:
        """GET /gateway/bot: the URL, the recommended shard count and the session starts."""
        return self._gateway_bot()

    async def get_gateway(self, call: Call) -> Result:
        """GET /gateway: the URL only."""
        return {"url": self._gateway_bot()["url"]}
