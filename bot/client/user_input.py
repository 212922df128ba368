"""User text made safe once, at the edge: every option of every command and autocomplete.

Discord delivers what a client sends, lone surrogates and control characters included; SQLite
cannot encode a lone surrogate, and controls and invisible characters split or hide words. The
command tree runs `clean_options` on each interaction before any cog or service sees it.
"""

from __future__ import annotations

from typing import Any

from domain.text import tidy


def clean_options(data: Any) -> None:
    """Tidy, in place, every string value in an interaction's (nested) `options`."""
    if not isinstance(data, dict):
        return
    for option in data.get("options") or ():
        if not isinstance(option, dict):
            continue
        value = option.get("value")
        if isinstance(value, str):
            option["value"] = tidy(value)
        clean_options(option)
