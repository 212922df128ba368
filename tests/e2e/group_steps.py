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


async def answered(standin: StandIn, command: str,
                   options: dict[str, OptionValue] | None = None, *, guild: Guild | None,
                   user: User) -> Message:
    """Run a slash command and return the message that carries its answer (for its buttons):
    the original response, or the followup when the bot deferred (as it does privately when
    the command waits for the write lock)."""
    handle = await standin.slash(command, options or {}, guild=guild, user=user)
    return await handle.answer()


async def note_after(handle: InteractionHandle, answer: Message) -> Message:
    """The private note that follows a command's `answer` (`handle.answer()`): the first
    followup, or the second when the answer is a followup itself (after a deferral)."""
    return await handle.followup(1 if answer.id in handle.followup_ids else 0)


async def suggest(standin: StandIn, guild: Guild, user: User, paper: str,
                  note: str | None = None) -> Callback | Message:
    """`/suggest paper:<paper> [note:<note>]`."""
    options: dict[str, OptionValue] = {"paper": paper}
    if note is not None:
        options["note"] = note
    return await answer(standin, "suggest", options, guild=guild, user=user)
