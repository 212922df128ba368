"""Topic subscriptions: a topic matches a paper exactly when `/paper <topic>` would find it.

"Find" means the exact search, `PaperStore.search(parse_query(topic))`: every word ANDed, then
the filters; never the typo or any-word fallbacks. Matching runs in memory, without SQLite, so a
new paper can be checked against every member's topics at once:

- `PaperTerms.of(paper)` tokenises the paper's full-text columns as the index does and keeps the
  sets that make each word test O(1);
- `CompiledTopic.compile(text)` turns a topic into the terms FTS5 would look up, and tests them;
- `TopicIndex(topics)` keys many topics by one term each must find, so that a paper is tested
  only against the topics that can match it. A topic means the same in both languages: it is
  filed with its spellings in the other language too (`cross_topics`), as the search tries
  them (`SearchService.exact`), so `扩散模型` matches an English-only paper on diffusion models.

Agreement with SQLite on every input is the point, so the FTS5 `unicode61 remove_diacritics 2`
tokenizer is emulated from tables taken from SQLite itself (`domain.index_text`), not
approximated with `str.lower`; `tests/storage/test_topic_match_equivalence.py` checks them against
the linked SQLite for every code point, and the matching against `SqlitePaperStore.search`.
The tokenizer and the columns are `domain.index_text`'s, shared with storage.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import chain

from bot.features.papers.query import QueryError, parse_query
from domain.crosslingual import cross_queries
from domain.index_text import AUTHORS_COLUMN, index_columns, index_tokens
from domain.paper import Paper
from domain.query import MAX_WORD_CHARS, MIN_PREFIX_CHARS, SearchQuery
from domain.text import cjk_bigrams, has_cjk

MAX_PREFIX_CHARS = MAX_WORD_CHARS
"""Prefixes kept per token: no query word is longer, so no prefix term is either."""

# Token separators in the joined text of `IndexedText`; neither is ever part of a token.
_WORD_END = "\x00"
_COLUMN_END = "\x01"
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _ascii_lower(text: str) -> str:
    """SQLite's NOCASE and LIKE fold only A-Z."""
    return text.translate(_ASCII_LOWER)


# --- one paper -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class IndexedText:
    """The tokens of some full-text columns, with the sets that make a term test O(1)."""

    tokens: frozenset[str]
    prefixes: frozenset[str]
    """Every prefix (up to `MAX_PREFIX_CHARS`) of every token."""
    joined: str
    """Tokens each followed by NUL, columns ended by SOH: a phrase is a substring of this."""

    @classmethod
    def of(cls, columns: Iterable[list[str]]) -> IndexedText:
        """Index token lists, one per column (a phrase never spans two columns)."""
        columns = list(columns)
        tokens = frozenset(chain.from_iterable(columns))
        prefixes = frozenset(
            token[:end]
            for token in tokens
            for end in range(1, min(len(token), MAX_PREFIX_CHARS) + 1)
        )
        joined = _COLUMN_END.join(
            _WORD_END + _WORD_END.join(column) + _WORD_END for column in columns
        )
        return cls(tokens, prefixes, joined)


@dataclass(frozen=True, slots=True)
class PaperTerms:
    """What topic matching needs of one paper: its indexed tokens and its venue facts."""

    everywhere: IndexedText
    authors: IndexedText
    track: str
    conference: str | None
    """ASCII-lower-cased, as `COLLATE NOCASE` compares it."""
    workshop: str | None
    """ASCII-lower-cased, as `LIKE` compares it."""
    year: int | None
    honours: frozenset[str]

    @classmethod
    def of(cls, paper: Paper) -> PaperTerms:
        """Tokenise the paper exactly as the full-text index does."""
        columns = [index_tokens(text) for text in index_columns(paper)]
        venue = paper.venue
        return cls(
            everywhere=IndexedText.of(columns),
            authors=IndexedText.of([columns[AUTHORS_COLUMN]]),
            track=venue.track.value,
            conference=None if venue.conference is None else _ascii_lower(venue.conference),
            workshop=None if venue.workshop is None else _ascii_lower(venue.workshop),
            year=venue.year,
            honours=frozenset(venue.honours),
        )


# --- one topic -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Term:
    """One query word as FTS5 reads its quoted form: a phrase of tokens, the last maybe a prefix.

    A phrase of no tokens (a word made only of characters FTS5 separates on) matches nothing.
    """

    tokens: tuple[str, ...]
    prefix: bool
    authors_only: bool
    needle: str
    """The phrase as a substring of `IndexedText.joined`."""

    @classmethod
    def of(cls, word: str, *, authors_only: bool = False) -> Term:
        """Mirror `storage.papers.fts.word_expression`:
        CJK words are bigram phrases (one CJK character
        is a prefix), Latin words of `MIN_PREFIX_CHARS` or more are prefixes, shorter ones exact.
        """
        if has_cjk(word):
            prefix = len(word) == 1
            tokens = index_tokens(word if prefix else " ".join(cjk_bigrams(word)))
        else:
            prefix = len(word) >= MIN_PREFIX_CHARS
            tokens = index_tokens(word)
        needle = _WORD_END + _WORD_END.join(tokens) + ("" if prefix else _WORD_END)
        return cls(tuple(tokens), prefix, authors_only, needle)

    def found_in(self, text: IndexedText) -> bool:
        """True when FTS5 would match this phrase in those columns."""
        tokens = self.tokens
        if len(tokens) == 1:
            if not self.prefix:
                return tokens[0] in text.tokens
            if len(tokens[0]) <= MAX_PREFIX_CHARS:
                return tokens[0] in text.prefixes
            return self.needle in text.joined
        return bool(tokens) and tokens[0] in text.tokens and self.needle in text.joined

    def anchor(self) -> tuple[str, bool] | None:
        """A token any match must contain, and whether as a prefix; None when nothing can match.

        The heaviest token of the phrase is chosen (a CJK character counting three letters): it
        is the likeliest to be rare.
        """
        if not self.tokens:
            return None
        last = len(self.tokens) - 1
        return max(
            ((token, self.prefix and i == last) for i, token in enumerate(self.tokens)),
            key=lambda item: (_weight(item[0]), not item[1]),
        )


def _weight(token: str) -> int:
    return len(token) + 2 * sum(1 for char in token if has_cjk(char))


@dataclass(frozen=True, slots=True)
class CompiledTopic:
    """A topic ready to be tested against many papers."""

    query: SearchQuery
    terms: tuple[Term, ...]
    """The words, then the author filter's words (searched in the authors column only)."""
    venue: str | None
    """The venue filter, ASCII-lower-cased."""

    @classmethod
    def compile(cls, text: str) -> CompiledTopic | None:
        """Parse a topic; None when it asks for nothing. Raises `QueryError` for a bad filter."""
        return cls.from_query(parse_query(text))

    @classmethod
    def from_query(cls, query: SearchQuery) -> CompiledTopic | None:
        """Compile a parsed query; None when it asks for nothing (and so finds nothing)."""
        if query.is_empty():
            return None
        terms = tuple(Term.of(word) for word in query.words) + tuple(
            Term.of(word, authors_only=True) for word in query.filters.author
        )
        venue = query.filters.venue
        return cls(query, terms, None if venue is None else _ascii_lower(venue))

    @property
    def text(self) -> str:
        """The canonical form (see `normalise_topic`)."""
        return canonical_topic(self.query)

    def can_match(self) -> bool:
        """False when some word can match nothing at all (it has no token FTS5 would index)."""
        return all(term.tokens for term in self.terms)

    def matches(self, paper: PaperTerms) -> bool:
        """True exactly when the exact search for this topic would find the paper."""
        filters = self.query.filters
        if filters.track is not None and filters.track.value != paper.track:
            return False
        if filters.year is not None and filters.year != paper.year:
            return False
        if filters.honour is not None and filters.honour not in paper.honours:
            return False
        venue = self.venue
        if venue is not None and venue != paper.conference and (
            paper.workshop is None or venue not in paper.workshop
        ):
            return False
        for term in self.terms:
            if not term.found_in(paper.authors if term.authors_only else paper.everywhere):
                return False
        return True


def cross_topics(topic: CompiledTopic) -> tuple[CompiledTopic, ...]:
    """The topic spelled in the other language (`domain.crosslingual.cross_queries`)."""
    compiled = (CompiledTopic.from_query(cross.query) for cross in cross_queries(topic.query))
    return tuple(c for c in compiled if c is not None)


def canonical_topic(query: SearchQuery) -> str:
    """A parsed topic as text that parses back to the same query, identical for equivalent ones.

    Words (and author words) are sorted since they are ANDed; the venue name is ASCII-lower-cased
    since SQLite compares it so.
    """
    parts = sorted(query.words)
    filters = query.filters
    if filters.author:
        parts.append('author:"' + " ".join(sorted(filters.author)) + '"')
    if filters.track is not None:
        parts.append(f"venue:{filters.track.value}")
    if filters.venue is not None:
        venue = _ascii_lower(filters.venue)
        parts.append(f'venue:"{venue}"' if " " in venue else f"venue:{venue}")
    if filters.honour is not None:
        parts.append(f"honours:{filters.honour}")
    if filters.year is not None:
        parts.append(f"year:{filters.year:04d}")
    return " ".join(parts)


def normalise_topic(text: str) -> str:
    """The form two topics are compared in: equal exactly for topics that mean the same search.

    `Grokking`, `grokking ` and `ＧＲＯＫＫＩＮＧ` are all `grokking`; `ridge grokking venue:Main`
    and `grokking ridge track:main` are both `grokking ridge venue:main`. Empty for a topic that
    asks for nothing; raises `QueryError` for a bad filter value.
    """
    return canonical_topic(parse_query(text))


# --- many topics -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Entry:
    topic: CompiledTopic
    texts: tuple[str, ...]


class TopicIndex:
    """Many topics, each filed under one token it needs, so a paper meets only its candidates.

    Identical topics after `normalise_topic` are compiled and tested once; `matching` returns
    every text given for them. Topics that are invalid or ask for nothing are left out
    (`skipped`); so are those that can match nothing.
    """

    def __init__(self, topics: Iterable[str]) -> None:
        texts: dict[str, list[str]] = {}
        compiled: dict[str, CompiledTopic] = {}
        skipped: list[str] = []
        for text in dict.fromkeys(topics):
            try:
                topic = CompiledTopic.compile(text)
            except QueryError:
                topic = None
            if topic is None:
                skipped.append(text)
                continue
            # Equivalent topics share an entry, unless the order of their words makes other
            # glossary terms (`knowledge distillation` is one, `distillation knowledge` none).
            variants = tuple(sorted(c.text for c in cross_topics(topic)))
            key = "\n".join((topic.text, *variants))
            compiled.setdefault(key, topic)
            texts.setdefault(key, []).append(text)
        self.skipped: tuple[str, ...] = tuple(skipped)
        """Texts that are not topics: a bad filter value, or nothing asked for."""
        self._size = len(compiled)
        self._exact: tuple[dict[str, list[_Entry]], dict[str, list[_Entry]]] = ({}, {})
        self._prefix: tuple[dict[str, list[_Entry]], dict[str, list[_Entry]]] = ({}, {})
        self._unanchored: list[_Entry] = []
        for key, topic in compiled.items():
            for variant in (topic, *cross_topics(topic)):
                self._file(_Entry(variant, tuple(texts[key])))

    def _file(self, entry: _Entry) -> None:
        if not entry.topic.can_match():
            return
        best: tuple[tuple[bool, int, bool], Term, str, bool] | None = None
        for term in entry.topic.terms:
            anchor = term.anchor()
            if anchor is None:
                continue
            token, is_prefix = anchor
            rank = (term.authors_only, _weight(token), not is_prefix)
            if best is None or rank > best[0]:
                best = (rank, term, token, is_prefix)
        if best is None:
            self._unanchored.append(entry)
            return
        _, term, token, is_prefix = best
        table = (self._prefix if is_prefix else self._exact)[term.authors_only]
        table.setdefault(token, []).append(entry)

    def __len__(self) -> int:
        """Distinct topics (after normalisation, told apart by their other-language
        spellings)."""
        return self._size

    def _candidates(self, paper: PaperTerms) -> Iterator[_Entry]:
        yield from self._unanchored
        for scope, text in enumerate((paper.everywhere, paper.authors)):
            for keys, table in ((text.tokens, self._exact[scope]),
                                (text.prefixes, self._prefix[scope])):
                if not table:
                    continue
                if len(table) < len(keys):
                    for token, entries in table.items():
                        if token in keys:
                            yield from entries
                else:
                    for token in keys:
                        found = table.get(token)
                        if found:
                            yield from found

    def matching(self, paper: PaperTerms) -> set[str]:
        """The topic texts (as given) that match the paper."""
        result: set[str] = set()
        for entry in self._candidates(paper):
            if entry.topic.matches(paper):
                result.update(entry.texts)
        return result
