"""Chinese (zh-CN, zh-TW) names, descriptions and choices for the slash commands.

The cogs declare their commands in English; the catalogue's `cmd.*` entries carry the same
English text, so the Translator finds the entry by that text.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.shared.lang import Lang
from bot.shared.messages import CATALOGUE, t

COMMAND_PREFIX = "cmd."
LOCALES = {discord.Locale.chinese: Lang.ZH_HANS, discord.Locale.taiwan_chinese: Lang.ZH_HANT}


def command_keys() -> dict[str, str]:
    """English command text -> its catalogue key."""
    return {texts[Lang.EN]: key for key, texts in CATALOGUE.items()
            if key.startswith(COMMAND_PREFIX)}


class PaperclubTranslator(app_commands.Translator):
    """Looks command strings up in the catalogue; other locales keep the English original."""

    def __init__(self) -> None:
        self.keys = command_keys()

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        """The Chinese text for zh-CN / zh-TW, None elsewhere."""
        key = self.keys.get(string.message)
        lang = LOCALES.get(locale)
        if key is None or lang is None:
            return None
        return t(lang, key)
