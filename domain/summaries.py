"""AI summaries: what a generated summary is, the work the summariser claims, and how much of
the catalog has one. A summary is made per paper and language (`en`, `zh-CN`; Traditional
Chinese readers see the `zh-CN` one through OpenCC) from the paper's title and abstract."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class SummaryLang(StrEnum):
    """The languages summaries are generated in."""

    EN = "en"
    ZH_CN = "zh-CN"


PROMPT_VERSION = 1
"""The prompt's version, stored with each summary (a new prompt may summarise again)."""
MAX_ATTEMPTS = 3
"""Answers discarded (empty, a refusal, the wrong language) before a summary is `failed`."""


def wanted(lang: SummaryLang, summary_en: str, summary_zh: str) -> bool:
    """Whether a paper with this text of its own (the English abstract, the Chinese summary)
    wants a summary generated in `lang`: English for every paper with text (an abstract is not
    a summary, and a listing paper has none), Chinese where the catalog has no Chinese text of
    its own (the listing's AI总结 is kept and preferred). So every paper ends with both."""
    if not (summary_en or summary_zh):
        return False
    return lang is SummaryLang.EN or not summary_zh


@dataclass(frozen=True, slots=True)
class GeneratedSummary:
    """A summary made here by `model`, from the text whose hash is `source_hash`; or, when
    `corrected`, a server's approved correction of it, shown instead (and labelled so)."""

    lang: SummaryLang
    text: str
    model: str
    source_hash: str = ""
    corrected: bool = False


@dataclass(frozen=True, slots=True)
class SummaryJob:
    """One paper's summary in one language, claimed by a worker.

    `previous_hash` and `previous_done` tell whether the summary already made (if any) is of
    the same text: then nothing is asked again."""

    paper_id: str
    lang: SummaryLang
    content_hash: str
    title_en: str
    title_zh: str
    abstract_en: str
    abstract_zh: str
    attempts: int = 0
    previous_hash: str = ""
    previous_done: bool = False


@dataclass(frozen=True, slots=True)
class Coverage:
    """For one language: papers that need a generated summary (`wanted`, by the rule of
    `wanted`), how many have one (`done`), and how many were given up on (`failed`)."""

    lang: SummaryLang
    wanted: int
    done: int
    failed: int

    @property
    def waiting(self) -> int:
        """Papers still to summarise."""
        return max(0, self.wanted - self.done - self.failed)


@dataclass(frozen=True, slots=True)
class LlmAnswer:
    """What the model said, and the tokens the endpoint counted (0 when it did not say)."""

    text: str
    tokens: int


@dataclass(slots=True)
class SummaryReport:
    """What one pass of the summariser did; `stopped` says why it stopped early ('' when it
    ran out of work or reached its limit)."""

    done: int = 0
    kept: int = 0
    """Claims whose text had not changed after all: the summary stays, nothing asked."""
    discarded: int = 0
    failed: int = 0
    waiting: int = 0
    tokens: int = 0
    stopped: str = ""

    @property
    def handled(self) -> int:
        """Claims finished one way or another."""
        return self.done + self.kept + self.discarded + self.waiting


@dataclass(frozen=True, slots=True)
class SummaryFigures:
    """The operator's view: coverage per language, and today's tokens against the budget."""

    coverage: tuple[Coverage, ...]
    tokens_today: int
    budget: int

    def log_line(self) -> str:
        """One line for the log."""
        parts = ", ".join(f"{c.lang.value} {c.done}/{c.wanted} ({c.failed} failed)"
                          for c in self.coverage)
        return f"coverage {parts}; {self.tokens_today} of {self.budget} tokens today"
