"""The languages paperclub answers in, and how a Discord locale maps onto them."""

from __future__ import annotations

from enum import StrEnum


class Lang(StrEnum):
    """English, Simplified Chinese (mainland) and Traditional Chinese (Taiwan)."""

    EN = "en"
    ZH_HANS = "zh-CN"
    ZH_HANT = "zh-TW"

    @classmethod
    def from_locale(cls, locale: str | None) -> Lang:
        """Discord locale string -> language; anything not Chinese is English."""
        if locale == "zh-TW":
            return cls.ZH_HANT
        if locale and locale.startswith("zh"):
            return cls.ZH_HANS
        return cls.EN

    @property
    def chinese(self) -> bool:
        """True for both Chinese variants."""
        return self is not Lang.EN


Texts = dict[Lang, str]


def tr(en: str, zh_hans: str, zh_hant: str) -> Texts:
    """One catalogue entry: the English, Simplified and Traditional texts."""
    return {Lang.EN: en, Lang.ZH_HANS: zh_hans, Lang.ZH_HANT: zh_hant}
