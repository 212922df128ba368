"""The shared words of a reason are words a member can read: whole English words and phrases
of the paper, Chinese words of its text (jieba's dictionary or the glossary's), never a
character bigram across two words, a fragment of a contraction, or a common word."""

from __future__ import annotations

import re

from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

from bot.features.recommend.readable import CHINESE_STOP, readable_words, segmenter
from bot.features.recommend.service import RecommendService
from bot.features.recommend.vocabulary import chinese_text, english_text
from domain.crosslingual import default_glossary
from domain.paper import Paper
from domain.text import CJK_RUN, fold_chinese
from tests.features.recommend.test_service import T0, MemoryCatalog, MemorySignals

FRAGMENTS = {"的可", "经网", "明的", "don", "研究"}
"""What members were shown before (issue 39)."""


def test_fragments_and_stop_words_give_way_to_whole_words() -> None:
    paper = Paper(title_en="We don't use ridge regression", title_zh="",
                  authors=("A. B.",), summary_zh="我们研究神经网络的可解释性")
    terms = ["don", "的可", "经网", "神经", "研究", "ridge regression", "网络", "ridge"]
    assert readable_words(terms, paper, 3) == ("神经网络", "ridge regression")


def _is_word(word: str, paper: Paper) -> bool:
    if CJK_RUN.fullmatch(word):
        tokenizer, _ = segmenter()
        glossary = {"".join(w) for t in default_glossary().terms() for w in t.zh}
        return (bool(tokenizer.FREQ.get(word)) or word in glossary) and (
            word in fold_chinese(chinese_text(paper))) and word not in CHINESE_STOP
    return (not set(word.split()) & ENGLISH_STOP_WORDS and re.search(
        rf"(?<![\w'’]){re.escape(word)}(?![\w'’])", english_text(paper), re.IGNORECASE)
        is not None)


async def test_every_reason_over_the_catalog_names_only_words(
        bundled_papers: list[Paper]) -> None:
    service = RecommendService(MemoryCatalog(bundled_papers), MemorySignals(), lambda: T0)
    shown = 0
    for paper in bundled_papers:
        for found in await service.similar(paper.id, 5):
            assert not set(found.pick.words) & FRAGMENTS
            assert all(_is_word(word, found.paper) for word in found.pick.words), \
                found.pick.words
            shown += len(found.pick.words)
    assert shown >= len(bundled_papers) * 5  # the reasons still name words
