"""The language each member's Discord client last showed the bot, remembered in memory (the
most recent members only): what a message a member did not ask for (a DM about their
correction) is written in, where it is known."""

from __future__ import annotations

from collections import OrderedDict

from bot.shared.lang import Lang

REMEMBERED = 10_000
"""Members whose language is kept (the least recently seen are forgotten first)."""


class MemberLangs:
    """user id -> the language of their last interaction, bounded to `cap` members."""

    def __init__(self, cap: int = REMEMBERED) -> None:
        self.cap = cap
        self._langs: OrderedDict[int, Lang] = OrderedDict()

    def saw(self, user_id: int, lang: Lang) -> None:
        """The member just used the bot in `lang`."""
        self._langs[user_id] = lang
        self._langs.move_to_end(user_id)
        while len(self._langs) > self.cap:
            self._langs.popitem(last=False)

    def of(self, user_id: int) -> Lang | None:
        """The member's language, if they used the bot recently in this process."""
        return self._langs.get(user_id)
