"""The query mix of the catalog benchmark, derived programmatically from paper fields.

Known-answer queries come from the bundled real papers: for each paper, the word, prefix, typo,
phrase, surname and Chinese substrings that single it out best among the real papers and are
absent from everything the synthetic generator can write. Timing-only queries come from the
synthetic vocabulary, so they are as common as real users' everyday words.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from bot.features.catalog.files import LineReader
from bot.features.catalog.listing import ListingParser, ParsedPaper
from bot.settings import bundled_catalog
from domain.paper import Paper
from domain.query import words_of
from domain.text import CJK_RUN
from tools import synthetic_catalog as synthetic

KINDS = ("en word", "en prefix", "en typo", "en words", "surname", "zh 2 chars", "zh 3-4 chars")
"""The seven kinds of query, in table order."""

_STOP = frozenset(
    "a an and are as at by can don for from how in into is it non not of on or the their to "
    "toward towards under via we what when with".split()
)
# Chinese function characters: a substring holding one is rarely a word, one next to it often is.
_ZH_FUNCTION = frozenset("的与和及在中从于为是对把被以之其或并而且将向让何能")
_MIN_WORD = 5
_BACKGROUND_SAMPLE = 3000


@dataclass(frozen=True, slots=True)
class Query:
    """One query: its kind, the text a user types, and the title it should find first (if known)."""

    kind: str
    text: str
    expected: str | None = None


def real_papers() -> list[Paper]:
    """The papers of the bundled catalog, in file order."""
    items = ListingParser().parse(LineReader(bundled_catalog()))
    return [item.paper for item in items if isinstance(item, ParsedPaper)]


def _synthetic_background() -> tuple[frozenset[str], frozenset[str]]:
    """Latin words and CJK n-grams (n = 2..4) that synthetic papers can contain."""
    rng = random.Random(1)
    latin: set[str] = set(words_of(" ".join(synthetic.EN_WORDS + synthetic.SURNAMES
                                            + synthetic.GIVEN)))
    cjk: set[str] = set()
    for serial in range(_BACKGROUND_SAMPLE):
        paper = synthetic.synthetic_paper(rng, serial)
        affiliations = " ".join(f"{a.en} {a.zh}" for a in paper.affiliations)
        latin.update(words_of(f"{paper.title_en} {affiliations} {paper.comments}"))
        cjk.update(_ngrams(f"{paper.title_zh} {paper.summary_zh} {affiliations}", (2, 3, 4)))
    return frozenset(latin), frozenset(cjk)


def _ngrams(text: str, sizes: Iterable[int]) -> list[str]:
    """Contiguous CJK substrings of the given lengths, in text order (per CJK run)."""
    found: list[str] = []
    for run in CJK_RUN.findall(text):
        for size in sizes:
            found.extend(run[i : i + size] for i in range(len(run) - size + 1))
    return found


def typo(word: str, variant: int) -> str:
    """A one-letter typo inside the word: delete a letter (even variant) or swap two (odd)."""
    middle = len(word) // 2
    if variant % 2 == 0:
        return word[:middle] + word[middle + 1 :]
    for i in range(middle - 1, len(word) - 2):
        if word[i] != word[i + 1]:
            return word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    return word[:middle] + word[middle + 1 :]


def prefix(word: str) -> str:
    """The first ~60% of the word, at least four letters."""
    return word[: max(4, round(len(word) * 0.6))]


def _latin_words(text: str) -> list[str]:
    return [w for w in words_of(text) if w.isascii() and w.isalpha()]


class _Chooser:
    """Scores candidate terms by how well they single out one real paper."""

    def __init__(self, papers: list[Paper]) -> None:
        self.latin_bg, self.cjk_bg = _synthetic_background()
        self.title_words = Counter(w for p in papers for w in set(_latin_words(p.title_en)))
        self.surnames = Counter(s for p in papers for s in {_surname(a) for a in p.authors})
        self.zh_titles = [p.title_zh for p in papers]
        self.zh_summaries = [p.summary_zh for p in papers]

    def distinctive_words(self, paper: Paper) -> list[str]:
        """Title words of 5+ letters, rarest first (synthetic words last), then longest."""
        words = dict.fromkeys(w for w in _latin_words(paper.title_en)
                              if len(w) >= _MIN_WORD and w not in _STOP)
        return sorted(words, key=lambda w: (w in self.latin_bg, self.title_words[w], -len(w)))

    def zh_term(self, paper: Paper, sizes: tuple[int, ...]) -> str | None:
        """The title substring most likely to be a word that singles out this paper.

        Preferred, in order: absent from synthetic text, in no other real title, free of
        function characters, bounded by run ends or function characters on both sides, repeated
        in the paper's own summary, rare in other summaries, longer, earlier.
        """
        best: tuple[tuple[object, ...], str] | None = None
        for run in CJK_RUN.findall(paper.title_zh):
            for size in sizes:
                for i in range(len(run) - size + 1):
                    term = run[i : i + size]
                    bounded = ((i == 0 or run[i - 1] in _ZH_FUNCTION)
                               + (i + size == len(run) or run[i + size] in _ZH_FUNCTION))
                    score = (
                        term in self.cjk_bg,
                        sum(term in title for title in self.zh_titles) - 1,
                        any(c in _ZH_FUNCTION for c in term),
                        -bounded,
                        term not in paper.summary_zh,
                        sum(term in text for text in self.zh_summaries),
                        -size,
                    )
                    if best is None or score < best[0]:
                        best = (score, term)
        return best[1] if best else None


def _surname(author: str) -> str:
    words = _latin_words(author)
    return words[-1] if words else ""


def known_queries(papers: list[Paper]) -> list[Query]:
    """Seven queries per real paper (fewer where a kind cannot be derived), answer known."""
    chooser = _Chooser(papers)
    queries: list[Query] = []
    for index, paper in enumerate(papers):
        title = paper.title_en
        ranked = chooser.distinctive_words(paper)
        if ranked:
            word = ranked[0]
            queries += [Query("en word", word, title), Query("en prefix", prefix(word), title)]
            if len(word) > _MIN_WORD:
                queries.append(Query("en typo", typo(word, index), title))
            order = _latin_words(title)
            at = order.index(word)
            neighbours = [w for w in order[at + 1 :] + order[:at][::-1]
                          if len(w) >= 4 and w not in _STOP]
            if neighbours:
                pair = sorted((word, neighbours[0]), key=order.index)
                queries.append(Query("en words", " ".join(pair), title))
        surnames = [s for s in (_surname(a) for a in paper.authors)
                    if len(s) >= 3 and s not in chooser.latin_bg and chooser.surnames[s] == 1]
        if surnames:
            queries.append(Query("surname", surnames[0].capitalize(), title))
        for kind, sizes in (("zh 2 chars", (2,)), ("zh 3-4 chars", (3, 4))):
            term = chooser.zh_term(paper, sizes)
            if term:
                queries.append(Query(kind, term, title))
    return queries


def synthetic_queries(per_kind: int, seed: int = 7) -> list[Query]:
    """`per_kind` timing-only queries of each kind from the synthetic generator's vocabulary."""
    rng = random.Random(seed)
    words = [w for w in synthetic.EN_WORDS if w.isalpha() and len(w) >= _MIN_WORD]
    short_zh = sorted({g for t in synthetic.ZH_TERMS for g in _ngrams(t, (2,))})
    long_zh = [t for t in synthetic.ZH_TERMS if 3 <= len(t) <= 4]
    queries: list[Query] = []
    for i in range(per_kind):
        word = rng.choice(words)
        queries += [
            Query("en word", word),
            Query("en prefix", prefix(word)),
            Query("en typo", typo(rng.choice(words), i)),
            Query("en words", " ".join(rng.sample(words, 2))),
            Query("surname", rng.choice(synthetic.SURNAMES)),
            Query("zh 2 chars", rng.choice(short_zh)),
            Query("zh 3-4 chars", rng.choice(long_zh)),
        ]
    return queries


# --- typo correction: a labelled set ---------------------------------------------------------

COMMON_ENGLISH = (
    "about above house would could their there people water world music money story "
    "river sleep green heavy happy kitchen banana coffee window garden summer winter doctor "
    "flower friend animal travel letter mother father school yellow purple orange simple "
    "little really thanks hello please maybe never always"
).split()
"""Everyday words a user may type that are not typos of catalog words."""

OPERATORS = ("and", "or", "not", "near", "title", "author", "venue", "null", "select", "like")
"""Search-syntax words (FTS5, SQL, filter names) typed as words."""


@dataclass(frozen=True, slots=True)
class LabelledWord:
    """A word typed into a search and the correction it deserves (None: it is no typo)."""

    kind: str
    word: str
    correction: str | None


def labelled_words(papers: list[Paper]) -> list[LabelledWord]:
    """True typos (one deletion or swap in a real paper's distinctive title word or a surname, and
    in synthetic-vocabulary words) and non-typos (common English words, operators)."""
    chooser = _Chooser(papers)
    labelled: list[LabelledWord] = []
    for index, paper in enumerate(papers):
        for variant, word in enumerate(chooser.distinctive_words(paper)[:2]):
            if len(word) > _MIN_WORD:
                labelled.append(LabelledWord("typo", typo(word, index + variant), word))
        surnames = [s for s in (_surname(a) for a in paper.authors) if len(s) >= 6]
        if surnames:
            labelled.append(LabelledWord("typo", typo(surnames[0], index), surnames[0]))
    rng = random.Random(3)
    words = sorted({w for w in synthetic.EN_WORDS if w.isalpha() and len(w) > _MIN_WORD})
    for index, word in enumerate(rng.sample(words, 30)):
        labelled.append(LabelledWord("typo", typo(word, index), word))
    labelled += [LabelledWord("english word", w, None) for w in COMMON_ENGLISH]
    labelled += [LabelledWord("operator", w, None) for w in OPERATORS]
    return [item for item in labelled if item.word != item.correction]
