"""What both backends share for prefix expansion (`domain.prefixes`): the expansions of one
catalog version, kept until a load or an add moves it."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable

from domain.prefixes import Expansion

MAX_CACHED = 4096


class ExpansionCache:
    """Expansions of one catalog version (a load or an add moves the version and clears it)."""

    def __init__(self) -> None:
        self._version = -1
        self._entries: OrderedDict[str, Expansion] = OrderedDict()

    def lookup(self, version: int, prefixes: Iterable[str]) -> tuple[dict[str, Expansion],
                                                                     list[str]]:
        """(the cached expansions, the prefixes still to look up) at `version`."""
        if version != self._version:
            self._version = version
            self._entries.clear()
        found: dict[str, Expansion] = {}
        missing: list[str] = []
        for prefix in dict.fromkeys(prefixes):
            entry = self._entries.get(prefix)
            if entry is None:
                missing.append(prefix)
            else:
                self._entries.move_to_end(prefix)
                found[prefix] = entry
        return found, missing

    def cached(self, prefixes: Iterable[str]) -> tuple[int, dict[str, Expansion]] | None:
        """(the version last seen, its expansions of `prefixes`) when every one is cached:
        what a search may use at once and check against the version it reads with its
        results (None when one is missing, or nothing was seen yet)."""
        if self._version < 0:
            return None
        found, missing = self.lookup(self._version, prefixes)
        return None if missing else (self._version, found)

    def store(self, version: int, expansion: Expansion) -> None:
        """Keep an expansion looked up at `version`."""
        if version != self._version:
            return
        self._entries[expansion.prefix] = expansion
        while len(self._entries) > MAX_CACHED:
            self._entries.popitem(last=False)
