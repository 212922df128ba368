"""Generate the tokenizer tables of `domain/index_text.py` from the
SQLite Python links.

    python -m tools.sqlite_tokenizer_tables > /tmp/tables.py

`tests/storage/test_topic_match_equivalence.py` checks the tables against SQLite on every code
point and names this command when they disagree (a newer SQLite with a newer Unicode).
"""

from __future__ import annotations

import sqlite3
import textwrap
from collections.abc import Iterable


def sqlite_tokens(texts: Iterable[tuple[int, str]], options: str) -> dict[int, list[str]]:
    """Each text's tokens as the linked SQLite's unicode61 tokenizer makes them."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute(f"CREATE VIRTUAL TABLE t USING fts5 (x, tokenize = 'unicode61 {options}')")
        conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab (t, 'instance')")
        conn.executemany("INSERT INTO t (rowid, x) VALUES (?, ?)", texts)
        found: dict[int, list[tuple[int, str]]] = {}
        for term, doc, offset in conn.execute("SELECT term, doc, offset FROM v"):
            found.setdefault(doc, []).append((offset, term))
        return {doc: [term for _, term in sorted(terms)] for doc, terms in found.items()}
    finally:
        conn.close()


def code_points() -> list[int]:
    return [c for c in range(1, 0x110000) if not 0xD800 <= c <= 0xDFFF]


def generate_tables() -> str:
    """The four tables of `domain/index_text.py`, from the linked SQLite."""
    codes = code_points()
    texts = [(c, f"a{chr(c)}b") for c in codes]
    full = sqlite_tokens(texts, "remove_diacritics 2")
    case_only = sqlite_tokens(texts, "remove_diacritics 0")
    separators = [0] + [c for c in codes if full[c] == ["a", "b"]]
    dropped = [c for c in codes if full[c] == ["ab"]]
    folds = {c: ord(case_only[c][0][1]) for c in codes
             if len(case_only[c]) == 1 and case_only[c][0] != f"a{chr(c)}b"}
    diacritics = {chr(folds.get(c, c)): full[c][0][1] for c in codes
                  if len(full[c]) == 1 and len(full[c][0]) == 3
                  and full[c][0] != f"a{chr(folds.get(c, c))}b"}
    runs: list[list[int]] = []  # start, end, step (0 while single), delta
    for code, folded in sorted(folds.items()):
        if runs:
            _, end, step, delta = runs[-1]
            gap = code - end
            if delta == folded - code and gap in (1, 2) and step in (0, gap):
                runs[-1][1:3] = [code, gap]
                continue
        runs.append([code, code, 0, folded - code])

    def spans(points: list[int]) -> str:
        merged: list[list[int]] = []
        for point in points:
            if merged and merged[-1][1] == point - 1:
                merged[-1][1] = point
            else:
                merged.append([point, point])
        return " ".join(f"{a:x}" if a == b else f"{a:x}-{b:x}" for a, b in merged)

    def literal(name: str, text: str) -> str:
        lines = textwrap.wrap(text, 92)
        return f"{name} = (\n" + "".join(f'    "{line} "\n' for line in lines) + ")\n"

    case_folds = " ".join(
        f"{a:x}" + (f"-{b:x}" if b != a else "") + (f"/{step}" if step > 1 else "") + f":{d:+d}"
        for a, b, step, d in runs)
    pairs = " ".join(k + v for k, v in sorted(diacritics.items()))
    return (literal("_SEPARATORS", spans(separators)) + literal("_CASE_FOLDS", case_folds)
            + f'_DROPPED = "{spans(dropped)}"\n' + literal("_DIACRITICS", pairs))


if __name__ == "__main__":
    print(generate_tables())
