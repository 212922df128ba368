"""Answering an interaction: respond or follow up, whichever is due."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import discord
from discord.utils import MISSING

log = logging.getLogger(__name__)


SentMessage = discord.InteractionMessage | discord.WebhookMessage
"""The message an answer created."""

PLACEHOLDER = "paperclub.placeholder"
"""`interaction.extras` key: whether a deferral's "thinking…" placeholder is private, until the
first answer settles it (see `respond`)."""


@dataclass(frozen=True, slots=True)
class SentAnswer:
    """An answer as a view edits it later (to grey itself out): the interaction's webhook and
    the message's id, nothing more. The `SentMessage` would keep the whole interaction alive
    with it (its payload, member, response and the parsed message: about a hundred objects
    per live result list, which the garbage collector walks again and again)."""

    webhook: discord.Webhook
    message_id: int

    @classmethod
    def of(cls, interaction: discord.Interaction, message: SentMessage) -> SentAnswer:
        """`message`, sent to answer `interaction` (its token edits it for 15 minutes)."""
        return cls(interaction.followup, message.id)

    async def edit(self, *, view: discord.ui.View | None, content: str | None = MISSING,
                   embeds: Sequence[discord.Embed] = MISSING) -> None:
        """Show `view` in the message (`PATCH /webhooks/{app}/{token}/messages/{id}`), and
        `content` and `embeds` when given (None, []: none); nothing in it pings."""
        await self.webhook.edit_message(self.message_id, content=content, embeds=embeds,
                                        view=view,
                                        allowed_mentions=discord.AllowedMentions.none())


async def respond(interaction: discord.Interaction, content: str | None = None, *,
                  embed: discord.Embed | None = None, view: discord.ui.View | None = None,
                  file: discord.File | None = None, ephemeral: bool = False,
                  poll: discord.Poll | None = None) -> SentMessage:
    """Send the interaction's response, or a followup when it was already answered/deferred;
    return the message sent (from Discord's answer itself: no second request for it)."""
    poll_arg = poll if poll is not None else MISSING
    embed_arg = embed if embed is not None else MISSING
    view_arg = view if view is not None else MISSING
    file_arg = file if file is not None else MISSING
    if interaction.response.is_done():
        await _settle_placeholder(interaction, ephemeral)
        return await interaction.followup.send(
            content if content is not None else MISSING, embed=embed_arg, view=view_arg,
            file=file_arg, ephemeral=ephemeral, poll=poll_arg, wait=True)
    answer = await interaction.response.send_message(
        content, embed=embed_arg, view=view_arg, file=file_arg, ephemeral=ephemeral,
        poll=poll_arg)
    if isinstance(answer.resource, discord.InteractionMessage):
        return answer.resource
    return await interaction.original_response()  # an answer without its message


async def defer(interaction: discord.Interaction, *, ephemeral: bool) -> None:
    """Answer "thinking…" now, privately or in the channel; `respond` sends the answer."""
    await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    interaction.extras[PLACEHOLDER] = ephemeral


async def defer_if_unanswered(interaction: discord.Interaction, *, ephemeral: bool) -> None:
    """`defer`, unless the interaction is answered or deferred already (a deferral armed for
    a wait that may come after the answer)."""
    if not interaction.response.is_done():
        await defer(interaction, ephemeral=ephemeral)


async def _settle_placeholder(interaction: discord.Interaction, ephemeral: bool) -> None:
    """Discord fills a deferral's placeholder with the first followup, which keeps the
    placeholder's visibility whatever the followup asks: a ballot after a private "thinking…"
    would be seen by its organiser alone, a refusal after a public one by everyone. When the
    answer's visibility is not the placeholder's, the placeholder goes first; the answer is then
    a message of its own."""
    private = interaction.extras.pop(PLACEHOLDER, None)
    if private is None or private == ephemeral:
        return
    try:
        await interaction.delete_original_response()
    except discord.HTTPException as exc:  # the answer still goes out, as the placeholder is
        log.warning("could not remove the placeholder of interaction %s: %s",
                    interaction.id, exc)


@contextlib.contextmanager
def sending(view: discord.ui.View) -> Iterator[discord.ui.View]:
    """A view of dynamic items only (dispatched by their custom ids, never stored), while it
    is sent; then stopped and its items let go.

    Stopped: discord.py gives an ephemeral answer's view a timeout task, which would outlive
    the answer. Let go: the view and its items refer to each other, so left as they are, each
    answer's controls would wait for the garbage collector (a result list's are about twenty
    objects); cleared, they are freed at once."""
    try:
        yield view
    finally:
        view.stop()
        view.clear_items()


async def safe_send(interaction: discord.Interaction, content: str | None = None, *,
                    embed: discord.Embed | None = None, ephemeral: bool = True) -> None:
    """`respond`, logging instead of raising when Discord refuses (used on error paths)."""
    try:
        await respond(interaction, content, embed=embed, ephemeral=ephemeral)
    except discord.HTTPException as exc:
        log.warning("could not answer interaction %s: %s", interaction.id, exc)
