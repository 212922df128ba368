"""The message catalogue: every user-visible Discord string, looked up by key and language.

`t(lang, key, **fields)` formats one entry; `tn` picks the English singular or plural form
(`<key>.one` / `<key>.other`); `render_reason` renders a stored `Reason` with its causes.
`Refusal` is the `ValueError` pure code raises for bad input, shown in the reader's language.
The data lives in each feature's `strings` module (and `bot.shared.strings` for what no
feature owns); this module merges them.
"""

from __future__ import annotations

from bot.features.adding import strings as adding
from bot.features.calendar import strings as calendar
from bot.features.catalog import strings as catalog
from bot.features.corrections import strings as corrections
from bot.features.digest import strings as digest
from bot.features.export import strings as export
from bot.features.feeds import strings as feeds
from bot.features.group import strings as group
from bot.features.papers import strings as papers
from bot.features.presenters import strings as presenters
from bot.features.queue import strings as queue
from bot.features.reading import history_strings as history
from bot.features.reading import strings as reading
from bot.features.recommend import strings as recommend
from bot.features.sessions import strings as sessions
from bot.features.subscriptions import strings as subscriptions
from bot.features.votes import strings as votes
from bot.features.web import strings as web
from bot.shared.lang import Lang, Texts
from bot.shared.strings import commands, errors, reasons, refusals
from domain.reasons import Reason, ReasonCode

_PARTS = (papers.STRINGS, errors.STRINGS, digest.STRINGS, subscriptions.STRINGS,
          reasons.STRINGS, refusals.STRINGS, commands.STRINGS,
          queue.STRINGS, votes.STRINGS, reading.STRINGS, sessions.STRINGS,
          history.STRINGS, adding.STRINGS,
          feeds.STRINGS, recommend.STRINGS, calendar.STRINGS,
          corrections.STRINGS, catalog.STRINGS, export.STRINGS, group.STRINGS,
          presenters.STRINGS, web.STRINGS)


def _merged(parts: tuple[dict[str, Texts], ...]) -> dict[str, Texts]:
    catalogue: dict[str, Texts] = {}
    for part in parts:
        clash = catalogue.keys() & part.keys()
        if clash:
            raise ValueError(f"message keys defined twice: {sorted(clash)}")
        catalogue.update(part)
    return catalogue


CATALOGUE: dict[str, Texts] = _merged(_PARTS)


def t(lang: Lang, key: str, **fields: object) -> str:
    """The message `key` in `lang`, with `fields` filled in."""
    return CATALOGUE[key][lang].format(**fields)


def tn(lang: Lang, key: str, count: int, **fields: object) -> str:
    """`t` for a count: `<key>.one` when `count` is 1, else `<key>.other`; fills `{n}`."""
    return t(lang, f"{key}.{'one' if count == 1 else 'other'}", n=count, **fields)


class Refusal(ValueError):
    """A user-safe refusal: `str()` is the English text (logs, CLI), `text(lang)` any language."""

    def __init__(self, key: str, **fields: object) -> None:
        super().__init__(t(Lang.EN, key, **fields))
        self.key = key
        self.fields = fields

    def text(self, lang: Lang) -> str:
        """The refusal in `lang`."""
        return t(lang, self.key, **self.fields)


def refusal_text(error: Exception, lang: Lang) -> str:
    """A user-safe error in `lang` when it is a `Refusal`, else its own (English) message."""
    return error.text(lang) if isinstance(error, Refusal) else str(error)


def weekday(lang: Lang, index: int) -> str:
    """Short weekday name, Monday = 0."""
    return t(lang, "weekdays").split()[index]


def duration(lang: Lang, minutes: int) -> str:
    """`2 hours` when a whole number of hours, else `90 minutes`."""
    if minutes and minutes % 60 == 0:
        return tn(lang, "duration.hours", minutes // 60)
    return tn(lang, "duration.minutes", minutes)


def render_reason(lang: Lang, reason: Reason) -> str:
    """A stored reason in `lang`; nested causes are rendered into `{cause}`."""
    fields: dict[str, object] = dict(reason.params)
    if reason.cause is not None:
        fields["cause"] = render_reason(lang, reason.cause)
    if reason.code is ReasonCode.OFFLINE_PAST_GRACE:
        fields["grace"] = duration(lang, int(reason.params.get("grace_minutes", 0)))
    elif reason.code is ReasonCode.DISCORD_ERROR and not fields.get("code"):
        fields["code"] = t(lang, "reason.no_code")
    try:
        return t(lang, f"reason.{reason.code.value}", **fields)
    except (KeyError, ValueError, IndexError):
        return reason.code.value
