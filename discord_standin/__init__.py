"""A local Discord stand-in: REST + gateway on 127.0.0.1 for the unmodified discord.py client.

Used by end-to-end tests and by local mode. Start with :class:`StandIn`.
"""

from .commandline import SlashLine, parse_slash
from .faults import Fault, FaultRule
from .gateway import GatewayStats
from .interactions import Callback, InteractionHandle
from .model import (
    Channel,
    ChannelType,
    Guild,
    Member,
    Message,
    MessageFlag,
    Overwrite,
    Permission,
    Pings,
    Role,
    User,
)
from .render import render_callback, render_message
from .rest import RecordedRequest
from .server import StandIn

__all__ = [
    "Callback",
    "Channel",
    "ChannelType",
    "Fault",
    "FaultRule",
    "GatewayStats",
    "Guild",
    "InteractionHandle",
    "Member",
    "Message",
    "MessageFlag",
    "Overwrite",
    "Permission",
    "Pings",
    "RecordedRequest",
    "Role",
    "SlashLine",
    "StandIn",
    "User",
    "parse_slash",
    "render_callback",
    "render_message",
]
