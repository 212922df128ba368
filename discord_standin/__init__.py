"""A local Discord stand-in: REST and gateway on 127.0.0.1 for the unmodified discord.py client.

It imitates the part of Discord a bot sees (login, the gateway with RESUME, application
commands, interactions and their answers, messages, threads, DMs, permissions, rate limits)
and keeps what happened in memory, so a test can drive a real bot the way people would and
check what it did. paperclub's end-to-end tests and local mode (``paperclub local``) use it.

Use::

    guild = Guild("Reading Group", channels=["general"], members=[User("alice")])
    async with StandIn(guilds=[guild]) as standin:   # discord.py now talks to the stand-in
        await standin.start_bot(bot)                 # any discord.Client; returns when ready
        handle = await standin.slash("paper", {"query": "grokking"}, guild=guild)
        callback = await handle.response()           # the bot's answer, as a Callback
        standin.fail("POST", "/channels/*/messages", Fault.server_error(502))

Import from this package only; its submodules are internal. It imports nothing from paperclub.
"""

from .bot_runs import BotRuns
from .commandline import SlashLine, parse_slash
from .faults import Fault, FaultRule, GlobalRateLimiter, Stall
from .gateway import GatewayStats
from .interactions import Callback, CallbackType, InteractionHandle, OptionValue
from .messages import Message, MessageFlag, Pings, resolve_pings
from .model import Channel, ChannelType, Guild, Member, Overwrite, Permission, Role, User
from .render import render_callback, render_message
from .rest import RecordedRequest
from .server import StandIn
from .validation import check_choices, check_commands, check_message, nest_errors

__all__ = [
    "BotRuns",
    "Callback",
    "CallbackType",
    "Channel",
    "ChannelType",
    "Fault",
    "FaultRule",
    "GatewayStats",
    "GlobalRateLimiter",
    "Guild",
    "InteractionHandle",
    "Member",
    "Message",
    "MessageFlag",
    "OptionValue",
    "Overwrite",
    "Permission",
    "Pings",
    "RecordedRequest",
    "Role",
    "SlashLine",
    "Stall",
    "StandIn",
    "User",
    "check_choices",
    "check_commands",
    "check_message",
    "nest_errors",
    "parse_slash",
    "render_callback",
    "render_message",
    "resolve_pings",
]
