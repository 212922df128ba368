"""Feed queries: an arXiv `search_query` as a member types it, checked and put in one canonical
form (so that two servers following the same query share one poll).

A sanity check, not arXiv's parser: known field prefixes (`ti:`, `au:`, `abs:`, `cat:`…), the
operators `AND`, `OR`, `ANDNOT` between terms, balanced parentheses and quotes, a bounded length
and number of terms, and only the characters such queries use. The text only ever reaches arXiv
as a URL-encoded parameter of the client; this keeps nonsense from being polled for ever.
"""

from __future__ import annotations

import re

from bot.shared.messages import Refusal

MAX_QUERY_LENGTH = 300
"""Characters in a feed's query, after whitespace is collapsed."""
MAX_TERMS = 20
FIELDS = frozenset({"ti", "au", "abs", "co", "jr", "cat", "rn", "id", "all"})
OPERATORS = frozenset({"AND", "OR", "ANDNOT"})
_ALLOWED = re.compile(r"[\w\s:().*\"'+/-]")
_WORD = re.compile(r"\w")
# Any word before a colon is a field prefix to arXiv (`0:0`, and `ti:` with nothing after it,
# too), so it is read as one here.
_TOKEN = re.compile(r'\(|\)|(?:(\w+):)?("[^"]*"|[^\s()"]+)')
_BARE_PREFIX = re.compile(r"(\w+):(.*)")


def _shown(char: str) -> str:
    """A refused character as it can be shown inside a code span."""
    return f"U+{ord(char):04X}" if char == "`" or not char.isprintable() else char


def _tokens(text: str) -> list[str]:
    tokens: list[str] = []
    position = 0
    while position < len(text):
        if text[position].isspace():
            position += 1
            continue
        match = _TOKEN.match(text, position)
        if match is None:  # only a lone quote is left unmatched
            raise Refusal("feed.query.quotes")
        field, value = match.group(1), match.group(2)
        if field is None and value is not None and (bare := _BARE_PREFIX.fullmatch(value)):
            field, value = bare.groups()  # `ti:` or `OR:`: a prefix with an empty term
        if field is not None:
            if field.lower() not in FIELDS:
                raise Refusal("feed.query.field", field=field, fields=", ".join(
                    f"{name}:" for name in sorted(FIELDS)))
            if not _WORD.search(value):
                raise Refusal("feed.query.empty_term", field=field.lower())
            tokens.append(f"{field.lower()}:{value}")
        elif value is not None and not _WORD.search(value):  # `'`, `*`, `"-"`: no word
            raise Refusal("feed.query.empty_term", field="all")
        else:
            tokens.append(match.group(0))
        position = match.end()
    return tokens


def _check_structure(tokens: list[str]) -> None:
    depth, expect_term = 0, True
    for part in tokens:
        if part == "(":
            if not expect_term:
                expect_term = True  # adjacent terms are ANDed: `a (b OR c)`
            depth += 1
        elif part == ")":
            if expect_term:
                raise Refusal("feed.query.operator")
            depth -= 1
            if depth < 0:
                raise Refusal("feed.query.parentheses")
        elif part in OPERATORS:
            if expect_term:
                raise Refusal("feed.query.operator")
            expect_term = True
        else:
            expect_term = False
    if depth:
        raise Refusal("feed.query.parentheses")
    if expect_term:
        raise Refusal("feed.query.operator")


def canonical_query(text: str) -> str:
    """The query in canonical form (whitespace collapsed, field prefixes in lower case), or a
    `Refusal` saying what is wrong with it."""
    collapsed = " ".join(text.split())
    if not collapsed:
        raise Refusal("feed.query.empty")
    if len(collapsed) > MAX_QUERY_LENGTH:
        raise Refusal("feed.query.length", limit=MAX_QUERY_LENGTH)
    for char in collapsed:
        if not _ALLOWED.fullmatch(char):
            raise Refusal("feed.query.character", char=_shown(char))
    if collapsed.count('"') % 2:
        raise Refusal("feed.query.quotes")
    tokens = _tokens(collapsed)
    terms = [t for t in tokens if t not in OPERATORS and t not in {"(", ")"}]
    if len(terms) > MAX_TERMS:
        raise Refusal("feed.query.terms", limit=MAX_TERMS)
    _check_structure(tokens)
    return " ".join(tokens).replace("( ", "(").replace(" )", ")")
