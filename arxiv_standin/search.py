"""arXiv's `search_query` language, enough for real queries: field prefixes `ti:`, `au:`,
`abs:`, `co:`, `jr:`, `cat:`, `id:`, `all:`; `AND`, `OR`, `ANDNOT`; parentheses; quoted phrases;
a trailing `*` as a prefix wildcard. Adjacent terms without an operator are ANDed; AND and
ANDNOT bind tighter than OR."""

from __future__ import annotations

import re
from collections.abc import Callable

from .records import StandinPaper

Predicate = Callable[[StandinPaper], bool]
# An operator is a token of its own, between spaces or parentheses (`OR.` is a term).
_TOKENS = re.compile(
    r'\s*(\(|\)|(?:ANDNOT|AND|OR)(?=[\s()]|$)|(?:(\w+):)?("[^"]*"|[^\s()"]+))')
_WORDS = re.compile(r"[\w.*-]+")
FIELDS = frozenset({"ti", "au", "abs", "co", "jr", "cat", "id", "all", "rn"})


class QuerySyntaxError(ValueError):
    """The query cannot be read; the message is arXiv-like."""


def _words(text: str) -> list[str]:
    return [w.strip(".-") for w in _WORDS.findall(text.casefold()) if w.strip(".-")]


def _field_text(paper: StandinPaper, name: str) -> str:
    texts = {"ti": paper.title, "au": " ".join(paper.authors), "abs": paper.summary,
             "co": paper.comment, "jr": paper.journal_ref, "id": paper.id}
    if name == "all":
        return " ".join([*texts.values(), *paper.categories])
    return texts.get(name, "")


def _phrase_in(phrase: list[str], words: list[str]) -> bool:
    def same(want: str, have: str) -> bool:
        return have.startswith(want[:-1]) if want.endswith("*") else have == want

    size = len(phrase)
    return any(all(same(p, w) for p, w in zip(phrase, words[i:i + size], strict=True))
               for i in range(len(words) - size + 1))


def _term(name: str, value: str) -> Predicate:
    if name not in FIELDS:
        raise QuerySyntaxError(f"unknown field prefix {name}:")
    text = value.strip('"')
    if name == "cat":
        want = text.casefold()
        return lambda p: any(c.casefold() == want or (want.endswith("*") and
                                                       c.casefold().startswith(want[:-1]))
                             for c in p.categories)
    phrase = _words(text)
    if not phrase:
        raise QuerySyntaxError(f"empty term {name}:{value}")
    return lambda p: _phrase_in(phrase, _words(_field_text(p, name)))


def _either(a: Predicate, b: Predicate) -> Predicate:
    return lambda p: a(p) or b(p)


def _both(a: Predicate, b: Predicate) -> Predicate:
    return lambda p: a(p) and b(p)


def _but_not(a: Predicate, b: Predicate) -> Predicate:
    return lambda p: a(p) and not b(p)


class _Parser:
    def __init__(self, query: str) -> None:
        self.tokens: list[tuple[str, str, str]] = []
        position = 0
        query = query.strip()
        while position < len(query):
            match = _TOKENS.match(query, position)
            if match is None or match.end() == position:
                raise QuerySyntaxError(f"cannot read the query at {query[position:]!r}")
            whole = match.group(1)
            if whole in {"(", ")", "AND", "OR", "ANDNOT"}:
                self.tokens.append((whole, "", ""))
            else:
                self.tokens.append(("TERM", match.group(2) or "all", match.group(3)))
            position = match.end()
        self.at = 0

    def _peek(self) -> str:
        return self.tokens[self.at][0] if self.at < len(self.tokens) else ""

    def parse(self) -> Predicate:
        if not self.tokens:
            raise QuerySyntaxError("empty query")
        result = self._or()
        if self.at != len(self.tokens):
            raise QuerySyntaxError("unbalanced parentheses or a dangling operator")
        return result

    def _or(self) -> Predicate:
        left = self._and()
        while self._peek() == "OR":
            self.at += 1
            left = _either(left, self._and())
        return left

    def _and(self) -> Predicate:
        left = self._atom()
        while self._peek() in {"AND", "ANDNOT", "TERM", "("}:
            negate = self._peek() == "ANDNOT"
            if self._peek() in {"AND", "ANDNOT"}:
                self.at += 1
            right = self._atom()
            left = _but_not(left, right) if negate else _both(left, right)
        return left

    def _atom(self) -> Predicate:
        kind = self._peek()
        if kind == "(":
            self.at += 1
            inner = self._or()
            if self._peek() != ")":
                raise QuerySyntaxError("unbalanced parentheses")
            self.at += 1
            return inner
        if kind != "TERM":
            raise QuerySyntaxError(f"expected a term, found {kind or 'the end'}")
        _, name, value = self.tokens[self.at]
        self.at += 1
        return _term(name.lower(), value)


def compile_query(query: str) -> Predicate:
    """The query as a predicate over papers; raises `QuerySyntaxError`."""
    return _Parser(query).parse()
