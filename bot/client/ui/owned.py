"""A view that only the member who asked may use; it greys itself out when it times out."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.client.respond import SentAnswer, safe_send
from bot.client.ui.live import VIEW_TIMEOUT
from bot.features.papers.card_view import escape
from bot.shared.lang import Lang
from bot.shared.messages import t

log = logging.getLogger(__name__)


class OwnedView(discord.ui.View):
    """Owned by the person who asked; others are told so. Disables itself on timeout."""

    def __init__(self, *, owner: discord.abc.User, lang: Lang,
                 timeout: float = VIEW_TIMEOUT) -> None:
        super().__init__(timeout=timeout)
        self.owner_id = owner.id  # the id and name only: a live view stays small
        self.owner_name = owner.display_name
        self.lang = lang
        self.message: SentAnswer | None = None

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Only the person who asked may page or open."""
        if interaction.user.id == self.owner_id:
            return True
        name = escape(self.owner_name)
        await safe_send(interaction, t(self.lang, "results.only_owner", name=name), ephemeral=True)
        return False

    async def on_timeout(self) -> None:
        """Grey out the controls (link buttons stay usable)."""
        await self.disable()

    async def disable(self) -> None:
        """Grey out the controls in the message (link buttons stay usable)."""
        for item in self.children:
            grey_out(item)
        if self.message is not None:
            try:
                await self.message.edit(view=self)
            except discord.HTTPException as exc:
                log.info("could not disable an expired view: %s", exc)
            self.message = None

    async def on_error(self, interaction: discord.Interaction, error: Exception,
                       item: discord.ui.Item[Any]) -> None:
        """Log and apologise; the view stays usable."""
        log.error("view failed on %s", item, exc_info=error)
        await safe_send(interaction, t(self.lang, "results.failed"), ephemeral=True)


def grey_out(item: discord.ui.Item[Any]) -> discord.ui.Item[Any]:
    """`item` greyed out: a button or a select menu (a dynamic item's too); a link button stays
    usable."""
    inner = item.item if isinstance(item, discord.ui.DynamicItem) else item
    if isinstance(inner, discord.ui.Button | discord.ui.Select) and not (
            isinstance(inner, discord.ui.Button) and inner.url):
        inner.disabled = True
    return item
