"""Deterministic answers: the same request always gets the same summary, in the language the
request asks for (read from its system message: `zh-CN` or "Chinese" asks for Chinese)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import Any

_CHINESE = re.compile(r"zh-CN|Simplified Chinese|简体中文", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z][A-Za-z-]{3,}")
_ZH_PHRASES = ("本文提出了一种新方法", "作者在多个基准上验证了其有效性",
               "实验表明该方法优于现有工作", "该工作分析了模型的理论性质",
               "研究结果对后续工作具有参考价值")
_EN_PHRASES = ("The paper proposes a new method", "The authors validate it on several benchmarks",
               "Experiments show it improves on prior work",
               "The work analyses the model's theoretical properties",
               "The findings are useful for follow-up research")


def asked_language(messages: Sequence[dict[str, Any]]) -> str:
    """`zh-CN` when a system message asks for Chinese, else `en`."""
    system = " ".join(str(m.get("content", "")) for m in messages if m.get("role") == "system")
    return "zh-CN" if _CHINESE.search(system) else "en"


def user_text(messages: Sequence[dict[str, Any]]) -> str:
    """Every user message, joined."""
    return "\n".join(str(m.get("content", "")) for m in messages if m.get("role") == "user")


def summary(messages: Sequence[dict[str, Any]]) -> str:
    """A summary of the request's text in its asked language, the same for the same request:
    two sentences chosen by the text's hash, naming (in English) a word of its title."""
    text = user_text(messages)
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    title = next((line for line in text.splitlines() if line.startswith("Title:")), text)
    words = [w for w in _WORD.findall(title) if w not in ("Title", "Abstract")]
    topic = words[digest[2] % len(words)].lower() if words else "learning"
    if asked_language(messages) == "zh-CN":
        first, second = (_ZH_PHRASES[digest[i] % len(_ZH_PHRASES)] for i in (0, 1))
        return f"{first}，主题涉及 {topic}。{second}。"
    first, second = (_EN_PHRASES[digest[i] % len(_EN_PHRASES)] for i in (0, 1))
    return f"{first}, on {topic}. {second}."


_QUESTIONS_ASKED = re.compile(r"discussion questions", re.IGNORECASE)
_ZH_QUESTIONS = ("这篇论文的核心假设是什么？", "实验设置能否支持作者的结论？",
                 "该方法在哪些情况下可能失效？", "与相关工作相比，主要的新意在哪里？")
_EN_QUESTIONS = ("What is the paper's central assumption about {topic}?",
                 "Do the experiments support the authors' conclusions?",
                 "When might the method fail, and why?",
                 "What is new here compared with prior work on {topic}?")


def asks_questions(messages: Sequence[dict[str, Any]]) -> bool:
    """Whether a system message asks for discussion questions (a prep sheet)."""
    system = " ".join(str(m.get("content", "")) for m in messages if m.get("role") == "system")
    return _QUESTIONS_ASKED.search(system) is not None


def questions(messages: Sequence[dict[str, Any]]) -> str:
    """Four numbered discussion questions in the asked language, one a line (the English
    ones name a word of the title)."""
    title = next((line for line in user_text(messages).splitlines()
                  if line.startswith("Title:")), "")
    words = [w for w in _WORD.findall(title) if w != "Title"]
    topic = words[0].lower() if words else "learning"
    chosen = _ZH_QUESTIONS if asked_language(messages) == "zh-CN" else _EN_QUESTIONS
    return "\n".join(f"{n}. {q.format(topic=topic)}" for n, q in enumerate(chosen, 1))


def filler(language: str, size: int) -> str:
    """`size` characters of text in `language`."""
    unit = "本文研究了一个重要问题。" if language == "zh-CN" else "The paper studies a problem. "
    return (unit * (size // len(unit) + 1))[:size]


def tokens(text: str) -> int:
    """A rough token count (four characters a token, at least one)."""
    return max(1, len(text) // 4)
