"""A paper's `tsvector` (`storage.papers.postgres_search` says what its lexemes and weights
mean) as PostgreSQL is sent it: a literal it parses, or for a load's binary COPY the value's
binary form, which the server reads without parsing."""

from __future__ import annotations

from collections import defaultdict
from functools import cache
from typing import AnyStr

from domain.index_text import index_tokens
from storage.papers.fts import HEADLINE_COLUMNS
from storage.papers.postgres_search import MAX_LEXEME_BYTES, MAX_POSITION, WEIGHT_LETTERS

MAX_POSITIONS_PER_LEXEME = 256
"""PostgreSQL's `MAXNUMPOS`: a literal's lexeme keeps its first 256 positions; the binary
form may not carry more."""
WEIGHT_BITS = {"A": 3, "B": 2, "C": 1, "D": 0}
"""A position's weight in the top two bits of its 16 (`WEP_SETWEIGHT`)."""


def tsvector_literal(columns: tuple[str, ...]) -> tuple[str, int, int]:
    """The `tsvector` of a paper's index columns (`storage.papers.fts.index_row`), its token
    count (bm25's document length) and its headline's (`HEADLINE_COLUMNS`: the headline
    tier's length, as SQLite's headline index counts it). A load builds one per paper, so it
    is written for speed: each position's text (`12A`) comes from a table, a lexeme's
    positions are joined as they come, and no lexeme needs quoting (`'` and `\\` separate
    tokens)."""
    tokens, total, head = _tokenized(columns)
    if _needs_capping(tokens, total, len(columns)):
        return _capped_literal(tokens), total, head
    positions = _positions(tokens, _entries(), ",")
    return " ".join([f"'{t}':{p}" for t, p in positions.items()]), total, head


def tsvector_for_copy(columns: tuple[str, ...]) -> tuple[bytes | None, str | None, int, int]:
    """What a load sends of a paper, its text tokenized once: `tsvector_literal`'s value in
    PostgreSQL's binary form (`tsvectorsend`: the lexeme count, then each lexeme NUL-terminated
    with its position count and positions), or for a paper the literal caps its literal; and
    the same token counts.

    A load copies its new papers in with the binary form: the server stores the value as it
    comes, where a literal cost it a parse per paper and a staging table to parse it from."""
    tokens, total, head = _tokenized(columns)
    if _needs_capping(tokens, total, len(columns)):
        return None, _capped_literal(tokens), total, head
    positions = _positions(tokens, _binary_entries(), b"")
    counts, kept = _position_counts(), 2 * MAX_POSITIONS_PER_LEXEME
    lexemes = [f"{t}\0".encode() + counts[len(p) >> 1] + p[:kept] for t, p in positions.items()]
    return len(lexemes).to_bytes(4, "big") + b"".join(lexemes), None, total, head


def _tokenized(columns: tuple[str, ...]) -> tuple[list[list[str]], int, int]:
    """Each column's tokens, their count, and the headline columns' count."""
    tokens = [index_tokens(text) for text in columns]
    head = sum(map(len, tokens[:_HEAD_COLUMNS])) if len(tokens) > _HEAD_COLUMNS else 0
    return tokens, sum(map(len, tokens)), head


def _needs_capping(tokens: list[list[str]], total: int, gaps: int) -> bool:
    """Whether a position would pass `MAX_POSITION` (`total` tokens, `gaps` between columns)
    or a token may be over `MAX_LEXEME_BYTES`."""
    return total + gaps > MAX_POSITION or any(
        max(map(len, column), default=0) > _SURELY_SHORT for column in tokens)


def _positions(tokens: list[list[str]], tables: tuple[list[AnyStr], ...],
               separator: AnyStr) -> dict[str, AnyStr]:
    """Each lexeme's positions in order of appearance, each taken from its column's table
    (one column's gap after another's), joined by `separator`."""
    positions: dict[str, AnyStr] = {}
    get = positions.get
    position = 1
    for column, entries in zip(tokens, tables, strict=True):
        end = position + len(column)
        for token, entry in zip(column, entries[position:end], strict=True):
            before = get(token)
            positions[token] = entry if before is None else before + separator + entry
        position = end + 1
    return positions


def _capped_literal(tokens: list[list[str]]) -> str:
    """`tsvector_literal` of a paper with positions past `MAX_POSITION` (each lexeme keeps one
    instance at that position) or tokens that may be over `MAX_LEXEME_BYTES` (left out)."""
    positions: defaultdict[str, list[str]] = defaultdict(list)
    position = 1
    for column, entries in zip(tokens, _entries(), strict=True):
        for token in column:
            if len(token) <= _SURELY_SHORT or len(token.encode()) <= MAX_LEXEME_BYTES:
                positions[token].append(entries[min(position, MAX_POSITION)])
            position += 1
        position += 1
    return " ".join([f"'{t}':{','.join(dict.fromkeys(p))}" for t, p in positions.items()])


_HEAD_COLUMNS = len(HEADLINE_COLUMNS)
_SURELY_SHORT = MAX_LEXEME_BYTES // 4
"""A token of at most this many characters is within `MAX_LEXEME_BYTES` in UTF-8."""


@cache
def _entries() -> tuple[list[str], ...]:
    """Per full-text column, the text of each position (`1A` …) up to `MAX_POSITION`."""
    tables = {w: [f"{p}{w}" for p in range(MAX_POSITION + 1)] for w in set(WEIGHT_LETTERS)}
    return tuple(tables[w] for w in WEIGHT_LETTERS)


@cache
def _binary_entries() -> tuple[list[bytes], ...]:
    """Per full-text column, each position up to `MAX_POSITION` with its weight, as the two
    bytes the binary form holds."""
    tables = {w: [(p | WEIGHT_BITS[w] << 14).to_bytes(2, "big")
                  for p in range(MAX_POSITION + 1)] for w in set(WEIGHT_LETTERS)}
    return tuple(tables[w] for w in WEIGHT_LETTERS)


@cache
def _position_counts() -> list[bytes]:
    """A lexeme's position count as sent, by how many it has (at most
    `MAX_POSITIONS_PER_LEXEME`)."""
    return [min(n, MAX_POSITIONS_PER_LEXEME).to_bytes(2, "big")
            for n in range(MAX_POSITION + 2)]
