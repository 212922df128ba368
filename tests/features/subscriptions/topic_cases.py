"""Two small papers and the topics each should match: shared by the in-memory matching tests
and the tests that check SQLite's search agrees with them."""

from __future__ import annotations

from domain.paper import Affiliation, Paper, Track, Venue

GROK = Paper(
    title_en="To Grok Grokking: Provable Grokking in Ridge Regression",
    title_zh="理解Grokking：岭回归中的可证明顿悟",
    authors=("Mingyue Xu", "Gal Vardi", "Itay Safran"),
    affiliations=(Affiliation("Purdue University", "普渡大学"),),
    summary_zh="本文研究岭回归中的顿悟现象，给出可证明的界。单 字",
    comments="Accepted at ICML 2026 (Spotlight)",
    venue=Venue(conference="ICML", year=2026, track=Track.MAIN, honours=("spotlight",)),
)
WORKSHOP = Paper(
    title_en="Low-Rank Adapters for Mechanistic Interpretability",
    title_zh="用于机制可解释性的低秩适配器",
    authors=("Anna Müller", "Wei Wang"),
    summary_zh="本文提出低秩方法。",
    comments="Accepted at the ICML 2026 Workshop on Mechanistic Interpretability",
    venue=Venue(conference="ICML", year=2026, track=Track.WORKSHOP,
                workshop="Mechanistic Interpretability", honours=("poster",)),
)
PAPERS = {"grok": GROK, "workshop": WORKSHOP}

LATIN_CASES: list[tuple[str, set[str]]] = [
    ("grokking", {"grok"}),
    ("Grok", {"grok"}),            # a prefix of grok and of grokking
    ("gro", {"grok"}),             # 3 characters: still a prefix
    ("regress", {"grok"}),
    ("grokkingly", set()),         # longer than every word: no match
    ("rokking", set()),            # not a prefix
    ("to", {"grok"}),              # under 3 characters: exact words only
    ("ri", set()),                 # not a word by itself, and too short to be a prefix
    ("low-rank", {"workshop"}),    # two words, both required
    ("lowrank", set()),
    ("ＧＲＯＫＫＩＮＧ", {"grok"}),  # full width is folded like the index folds it
    ("gro\u200bkking", {"grok"}),  # invisible characters are dropped
    ("muller", {"workshop"}),      # diacritics are removed on both sides
    ("MÜLLER", {"workshop"}),
    ("purdue", {"grok"}),          # affiliations are searched
    ("spotlight", {"grok"}),       # so is the venue text
    ("2026", {"grok", "workshop"}),
]

CJK_CASES: list[tuple[str, set[str]]] = [
    ("岭回", {"grok"}),            # one bigram
    ("回归", {"grok"}),
    ("岭回归", {"grok"}),          # consecutive bigrams
    ("岭回归中的", {"grok"}),
    ("归岭", set()),
    ("回归岭", set()),
    ("低秩", {"workshop"}),
    ("可解释性", {"workshop"}),
    ("顿悟现象", {"grok"}),
    ("界单", set()),               # runs split by punctuation or spaces are not joined
    ("岭", {"grok"}),              # one character: the start of a bigram
    ("单", {"grok"}),              # or a run of one character
    ("字", {"grok"}),
    ("悟", {"grok"}),              # 悟 starts the bigram 悟现
    ("器", set()),                 # only ever last in its run: no bigram starts with it
    ("理解grokking", {"grok"}),    # scripts are split into two words
]

AUTHOR_CASES: list[tuple[str, set[str]]] = [
    ("author:vardi", {"grok"}),
    ("author:VARDI", {"grok"}),
    ('author:"gal vardi"', {"grok"}),
    ('author:"gal safran"', {"grok"}),  # each name word, anywhere in the authors
    ("author:var", {"grok"}),           # a prefix, as for words
    ("author:grokking", set()),         # only the authors column
    ("author:purdue", set()),
    ("author:müller", {"workshop"}),
    ("author:muller", {"workshop"}),
    ("grokking author:vardi", {"grok"}),
    ("grokking author:wang", set()),
]

VENUE_CASES: list[tuple[str, set[str]]] = [
    ("venue:main", {"grok"}),
    ("track:main", {"grok"}),
    ("venue:workshop", {"workshop"}),
    ("venue:ICML", {"grok", "workshop"}),       # the conference, any case
    ("venue:icml", {"grok", "workshop"}),
    ("venue:icm", set()),                       # the conference must be equal
    ("venue:mechanistic", {"workshop"}),        # a part of the workshop's name
    ('venue:"mechanistic interp"', {"workshop"}),
    ("venue:neurips", set()),
    ("honours:spotlight", {"grok"}),
    ("honours:posters", {"workshop"}),
    ("honours:oral", set()),
    ("year:2026", {"grok", "workshop"}),
    ("year:2025", set()),
    ("grokking venue:workshop", set()),
    ("interpretability venue:workshop honours:poster year:2026", {"workshop"}),
]
