"""What both backends share for prefix expansion (`domain.prefixes`): the expansions of one
catalog version, kept until a load or an add moves it, and looked up from the backend's term
statistics when missing."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable

from domain.prefixes import RARE_ROWS, Expansion, by_word, choose, expandable, upper_bound
from domain.query import SearchQuery
from storage.db import Statements

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


def cached_expansions(cache: ExpansionCache,
                      query: SearchQuery) -> tuple[int | None, dict[str, Expansion]] | None:
    """(the version they are of, the query's expansions) when `cache` holds every one (the
    version None: the query has no prefix word, nothing to check); None when one is missing."""
    prefixes = [p for p in map(expandable, query.words) if p is not None]
    if not prefixes:
        return None, {}
    known = cache.cached(prefixes)
    if known is None:
        return None
    version, found = known
    return version, by_word(query.words, found)


async def looked_up(on: Statements, terms_sql: str, cache: ExpansionCache, version: int,
                    query: SearchQuery, window: int) -> dict[str, Expansion]:
    """The completions of the query's prefix words at catalog version `version`: those not in
    `cache` read with `terms_sql` (each term from `$1` up to `$2` and the papers holding it)
    and kept, for a rank window of `window` rows."""
    prefixes = [p for p in map(expandable, query.words) if p is not None]
    found, missing = cache.lookup(version, prefixes)
    for prefix in missing:
        rows = await on.fetch(terms_sql, prefix, upper_bound(prefix))
        found[prefix] = expansion = choose(prefix, [(r[0], r[1]) for r in rows], window,
                                           RARE_ROWS)
        cache.store(version, expansion)
    return by_word(query.words, found)
