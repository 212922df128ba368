"""The shared words a member reads in a recommendation's reason: whole words and phrases of the
paper, never a feature fragment.

The model's features are English words and two-word phrases, and Chinese character bigrams
(`bot.features.recommend.vocabulary`); a bigram such as `的可` or `经网` is no word, and a
token such as `don` (of "don't") is none either. A reason names, most shared first:
- an English feature that stands in the paper's English text as whole words (not part of a
  contraction), and is not a stop word (scikit-learn's list, as the features use);
- a Chinese word of the paper, segmented by jieba (its dictionary, with the glossary's terms
  added), whose every bigram is a shared feature, unless it is a common word (jieba's idf
  below `MIN_CHINESE_IDF`, or one of `CHINESE_STOP`: 研究, 本文, 方法 …).
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterable, Sequence
from typing import Any

from bot.features.recommend.vocabulary import chinese_text, english_text
from domain.crosslingual import default_glossary
from domain.paper import Paper
from domain.text import CJK_RUN, cjk_bigrams, fold_chinese

MIN_CHINESE_IDF = 6.7
"""Chinese words more common than this in jieba's corpus (研究 4.3, 方法 5.0, 设置 6.4, 通用
6.6) say little of a paper's topic (模型 6.8, 梯度 9.2, 泛化 12.5 say more); a word jieba's
corpus lacks (a glossary term such as 大语言模型) counts as rare."""
CHINESE_STOP = frozenset({"本文", "论文", "我们", "提出", "方法", "研究", "结果", "表明",
                          "实验", "问题", "基于", "通过", "一种", "进一步", "显著", "首次",
                          "此外", "同时", "其中", "相比", "能够", "可以", "以及"})
"""Academic boilerplate jieba's news corpus does not find common."""
_lock = threading.Lock()
_segmenter: tuple[Any, dict[str, float]] | None = None


def segmenter() -> tuple[Any, dict[str, float]]:
    """jieba's tokenizer (the glossary's Chinese terms added) and its idf table, built once
    (a second or two: `RecommendService.prepare` builds it in the background)."""
    global _segmenter  # noqa: PLW0603 - one dictionary per process, built once
    with _lock:
        if _segmenter is None:
            import jieba  # noqa: PLC0415 - slow import, only where shared words are shown
            import jieba.analyse  # noqa: PLC0415

            jieba.setLogLevel(logging.WARNING)
            tokenizer = jieba.Tokenizer()
            tokenizer.initialize()
            for term in default_glossary().terms():
                for words in term.zh:
                    tokenizer.add_word("".join(words))
            _segmenter = tokenizer, dict(jieba.analyse.default_tfidf.idf_freq)
        return _segmenter


def readable_words(terms: Sequence[str], paper: Paper, limit: int) -> tuple[str, ...]:
    """Up to `limit` whole words or phrases of `paper` among the shared features `terms`
    (most shared first), in that order; a word inside a phrase named too gives way to it."""
    rank = {term: n for n, term in enumerate(terms)}
    found = [(rank[term], term) for term in _english(terms, english_text(paper))]
    if any(CJK_RUN.search(term) for term in terms):
        found += _chinese(rank, chinese_text(paper))
    chosen: list[str] = []
    for _, word in sorted(found):
        if any(word in named for named in chosen):
            continue
        inside = [n for n, named in enumerate(chosen) if named in word]
        if inside:  # the phrase takes the place of the first word of it named, the rest go
            chosen[inside[0]] = word
            chosen = [named for n, named in enumerate(chosen) if n not in inside[1:]]
        elif len(chosen) < limit:
            chosen.append(word)
    return tuple(chosen)


def _english(terms: Iterable[str], text: str) -> Iterable[str]:
    from sklearn.feature_extraction.text import (  # noqa: PLC0415 - slow import
        ENGLISH_STOP_WORDS,
    )

    for term in terms:
        words = term.split()
        if not words or CJK_RUN.search(term) or any(w in ENGLISH_STOP_WORDS for w in words):
            continue
        phrase = r"\s+".join(re.escape(w) for w in words)
        if re.search(rf"(?<![\w'’]){phrase}(?![\w'’])", text, re.IGNORECASE):
            yield term


def _chinese(rank: dict[str, int], text: str) -> list[tuple[int, str]]:
    tokenizer, idf = segmenter()
    found: dict[str, int] = {}
    for word in tokenizer.cut(fold_chinese(text)):
        if (word in found or len(word) < 2 or CJK_RUN.fullmatch(word) is None
                or word in CHINESE_STOP or idf.get(word, MIN_CHINESE_IDF) < MIN_CHINESE_IDF):
            continue
        ranks = [rank.get(gram) for gram in cjk_bigrams(word)]
        if all(r is not None for r in ranks):
            found[word] = min(r for r in ranks if r is not None)
    return [(r, word) for word, r in found.items()]
