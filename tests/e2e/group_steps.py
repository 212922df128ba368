"""Steps the reading-group end-to-end tests share: run a command, read its answer."""

from __future__ import annotations

from discord_standin import (
    Callback,
    Guild,
    InteractionHandle,
    Message,
    OptionValue,
    StandIn,
    User,
)


async def answer(standin: StandIn, command: str, options: dict[str, OptionValue] | None = None,
                 *, guild: Guild | None, user: User) -> Callback | Message:
    """Run a slash command and return the bot's answer (a deferred one's followup folded in)."""
    handle = await standin.slash(command, options or {}, guild=guild, user=user)
    return await handle.reply()


async def handled(standin: StandIn, command: str,
                  options: dict[str, OptionValue] | None = None, *, guild: Guild | None,
                  user: User) -> InteractionHandle:
    """Run a slash command and wait for its answer; return the handle (for its message)."""
    handle = await standin.slash(command, options or {}, guild=guild, user=user)
    await handle.response()
    return handle


async def suggest(standin: StandIn, guild: Guild, user: User, paper: str,
                  note: str | None = None) -> Callback | Message:
    """`/suggest paper:<paper> [note:<note>]`."""
    options: dict[str, OptionValue] = {"paper": paper}
    if note is not None:
        options["note"] = note
    return await answer(standin, "suggest", options, guild=guild, user=user)
