"""FTS5's bm25 on PostgreSQL, computed in SQL over a candidate set, equal to SQLite's number.

FTS5 (`fts5_aux.c`) scores a row as the sum over the query's phrases, in their order, of
`idf * (f * (k1 + 1)) / (f + k1 * (1 - b + b * D / avgdl))`, negated, where `f` is the sum of
the column weights of the phrase's instances in the row, `D` the row's token count over every
column, `avgdl` the table's tokens per row, and `idf = log((N - n + 0.5) / (n + 0.5))`
(at least 1e-6) with `n` the rows holding the phrase (in its columns) among `N` rows.

Instances come from the row's `tsvector` (`unnest` gives each lexeme's positions and weight
letters; a phrase instance is a run of consecutive positions). The floating-point operations
are those of the C code, in its order, with the constants bound as doubles: the scores, and
so the order and its ties (broken by id), are those of SQLite.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from storage.papers.fts import WEIGHTS
from storage.papers.postgres_search import WEIGHT_LETTERS, _Phrase

K1 = 1.2
B = 0.75
MIN_IDF = 1e-6
LETTER_WEIGHTS = dict(zip(WEIGHT_LETTERS, WEIGHTS, strict=True))
assert all(LETTER_WEIGHTS[letter] == weight
           for letter, weight in zip(WEIGHT_LETTERS, WEIGHTS, strict=True)), \
    "columns sharing a weight letter must share a bm25 weight"
MAX_CACHED_COUNTS = 4096


def idf(rows: int, hits: int) -> float:
    """FTS5's inverse document frequency of a phrase held by `hits` of `rows` rows."""
    value = math.log((rows - hits + 0.5) / (hits + 0.5))
    return value if value > 0.0 else MIN_IDF


@dataclass
class _CorpusStats:
    """What bm25 needs from the whole table, for one catalog version: rows, tokens, and the
    rows holding each phrase asked so far."""

    version: int
    rows: int
    tokens: int
    head_tokens: int
    """Tokens of the headline columns alone (SQLite's headline index, `paper_heads`)."""
    hits: dict[str, int] = field(default_factory=dict)

    @property
    def avgdl(self) -> float:
        """Tokens per row, as FTS5 divides them."""
        return self.tokens / self.rows if self.rows else 1.0

    @property
    def head_avgdl(self) -> float:
        """Headline tokens per row: the headline tier's `avgdl`."""
        return self.head_tokens / self.rows if self.rows else 1.0


class Params:
    """Bound parameters of one statement, numbered from `start`."""

    def __init__(self, start: int = 1) -> None:
        self.values: list[Any] = []
        self._start = start

    def add(self, value: Any, cast: str = "") -> str:
        """A placeholder for `value`."""
        self.values.append(value)
        return f"${self._start + len(self.values) - 1}{'::' + cast if cast else ''}"


def _token_condition(alias: str, token: str, prefix: bool, weights: str,
                     params: Params) -> str:
    operator = "^@" if prefix else "="
    condition = f"{alias}.l {operator} {params.add(token, 'text')}"
    if weights:
        condition += f" AND {alias}.w = ANY({params.add(list(weights), 'text[]')})"
    return condition


def _one(phrase: _Phrase) -> tuple[str, bool, str]:
    """A one-token phrase's token, whether it is a prefix, and its weights."""
    return phrase.tokens[0], phrase.prefix, phrase.weights


def _frequency(phrase: _Phrase, params: Params) -> str:
    """SQL for the weighted instance count of one phrase among the row's matched lexemes `m`."""
    last = len(phrase.tokens) - 1
    conditions = [_token_condition("m0", phrase.tokens[0], phrase.prefix and last == 0,
                                   phrase.weights, params)]
    for k in range(1, last + 1):
        follows = _token_condition(f"m{k}", phrase.tokens[k], phrase.prefix and k == last,
                                   phrase.weights, params)
        conditions.append(f"EXISTS (SELECT 1 FROM m m{k} WHERE m{k}.pos = m0.pos + {k} "
                          f"AND {follows})")
    return ("(SELECT coalesce(sum(m0.wt), 0::float8) FROM m m0 WHERE "
            + " AND ".join(conditions) + ")")


def _weight_case() -> str:
    cases = " ".join(f"WHEN '{letter}' THEN {weight!r}::float8"
                     for letter, weight in LETTER_WEIGHTS.items())
    return f"CASE x.w {cases} END"


def scored(candidates: str, phrases: tuple[_Phrase, ...], idfs: list[float], avgdl: float,
           params: Params) -> str:
    """SQL selecting `id, score` (FTS5's bm25) for each row of `candidates`, a query giving
    `id, search, search_tokens` (and any other columns, passed through as `c.*`)."""
    exact = sorted({t for p in phrases for t in (p.tokens[:-1] if p.prefix else p.tokens)})
    prefixes = sorted({p.tokens[-1] for p in phrases if p.prefix})
    exact_list = params.add(exact, "text[]")
    if prefixes:
        lexemes = (f"unnest(c.search) u, unnest(u.positions, u.weights) AS x(pos, w) "
                   f"WHERE u.lexeme = ANY({exact_list}) "
                   f"OR u.lexeme ^@ ANY({params.add(prefixes, 'text[]')})")
    else:  # the row's vector cut to the wanted lexemes first: unnest builds far fewer arrays
        lexemes = (f"unnest(ts_delete(c.search, tsvector_to_array(ts_delete(c.search, "
                   f"{exact_list})))) u, unnest(u.positions, u.weights) AS x(pos, w)")
    frequencies = ", ".join(
        f"coalesce(sum(m0.wt) FILTER (WHERE {_token_condition('m0', *_one(p), params)}), "
        f"0::float8) AS f{i}" if len(p.tokens) == 1 else f"{_frequency(p, params)} AS f{i}"
        for i, p in enumerate(phrases))
    k1, k1_plus_1 = params.add(K1, "float8"), params.add(K1 + 1.0, "float8")
    one_minus_b, b = params.add(1 - B, "float8"), params.add(B, "float8")
    length = f"({one_minus_b} + ({b} * c.search_tokens::float8) / {params.add(avgdl, 'float8')})"
    score = "0::float8"
    for i, value in enumerate(idfs):
        f = f"f.f{i}"
        score = (f"({score} + {params.add(value, 'float8')} * "
                 f"(({f} * {k1_plus_1}) / ({f} + {k1} * f.len)))")
    lexemes = f"SELECT u.lexeme AS l, x.pos, x.w, {_weight_case()} AS wt FROM {lexemes}"
    frequencies += f", {length} AS len"  # the row's length factor, computed once
    if not phrases:
        lateral = "SELECT 1 AS f"
    elif all(len(p.tokens) == 1 for p in phrases):  # one pass, no materialised lexemes
        lateral = f"SELECT {frequencies} FROM ({lexemes}) m0"
    else:
        lateral = f"WITH m AS ({lexemes}) SELECT {frequencies} FROM m m0"
    return (f"SELECT c.*, -1::float8 * {score} AS score FROM ({candidates}) c "
            f"CROSS JOIN LATERAL ({lateral}) f")

