"""The paper of the day's note: where it stands in the cycle, or why it was recommended."""

from __future__ import annotations

from bot.features.papers.card import fit
from bot.features.papers.card_view import escape
from bot.features.papers.results import titles_in_order
from bot.shared.lang import Lang
from bot.shared.messages import t
from domain.paper import Paper

LIKE_TITLE_LIMIT = 80
POST_NOTES = ("digest.post.note", "digest.post.recommended", "digest.post.recommended_plain")
"""The post's notes: in the cycle, recommended like a paper, recommended."""
PREVIEW_NOTES = ("digest.preview.note", "digest.preview.recommended",
                 "digest.preview.recommended_plain")
"""The same for `/digest preview`."""


def pick_note(lang: Lang, keys: tuple[str, str, str], recommended: bool, like: Paper | None,
              position: int, size: int) -> str:
    """Where the paper stands in the cycle ("7 of 30 in this cycle"), or that it was
    recommended for the group, naming the liked paper it is closest to when there is one."""
    cycle, liked, plain = keys
    if not recommended:
        return t(lang, cycle, position=position, size=size)
    if like is None:
        return t(lang, plain)
    title = titles_in_order(like, lang.chinese, lang)[0]
    return t(lang, liked, title=escape(fit(title, LIKE_TITLE_LIMIT)))
