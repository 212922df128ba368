"""What a model answers, made safe to show, or discarded.

The answer becomes one paragraph of plain text: Markdown taken out, at most `SUMMARY_LIMIT`
characters, no mention syntax that could ping (`@everyone`, `<@id>`, `<@&role>`, `<#channel>`),
and no link the paper's own text does not hold. An empty answer, a refusal, or an answer not in
the asked language is discarded (`Discarded`), to be asked again later.
"""

from __future__ import annotations

import re

from domain.summaries import SummaryLang

SUMMARY_LIMIT = 700
"""Characters a stored summary holds at most."""
ZERO_WIDTH = "\u200b"


class Discarded(ValueError):
    """An answer not worth keeping; the message says why (empty, refusal, language)."""


_DISCORD_TOKEN = re.compile(r"<(?:@[!&]?|#|/[^>]*:|t:|a?:\w+:)\d*[^>]*>")
_MASKED_LINK = re.compile(r"!?\[([^\]]*)\]\(([^)\s]*)[^)]*\)")
_URL = re.compile(r"(?:https?://|www\.|discord(?:app)?\.(?:gg|com)/)[^\s<>()\[\]{}\"']+",
                  re.IGNORECASE)
_TRAILING = ".,;:!?'\")]}>。，；：！？）"
_MARKUP = re.compile(r"```[a-z]*|`|\*\*?|__?|~~|\|\||^\s{0,3}(?:#{1,6}|>+|[-+*]|\d+[.)])\s+",
                     re.MULTILINE)
_SPACE = re.compile(r"\s+")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_KANA_HANGUL = re.compile(r"[\u3040-\u30ff\uac00-\ud7af]")
_LATIN_WORD = re.compile(r"[A-Za-zÀ-ÿ]+")
_ENGLISH = frozenset(
    "the of and to in a is are we this that for with on by as from an be it its our which "
    "these show shows paper method model models results using based approach can than into "
    "propose proposes new study studies".split())
_REFUSAL = re.compile(
    r"^\W*(?:i['’]?m sorry|i am sorry|sorry,|i can(?:not|['’]t)|i won['’]?t|i am unable|"
    r"i['’]?m unable|as an ai|unfortunately,? i|抱歉|对不起|我无法|我不能|很抱歉|作为一个?AI)",
    re.IGNORECASE)


def clean(answer: str, source: str, lang: SummaryLang) -> str:
    """The answer as it may be stored and shown, or `Discarded`."""
    text = _plain(answer)
    _check(text, lang)
    text = _SPACE.sub(" ", _keep_known_links(text, source)).strip()
    return _inert(_cap(text))


def clean_lines(answer: str, source: str, lang: SummaryLang, *, limit: int) -> list[str]:
    """Each line of the answer made safe as `clean` makes a summary, at most `limit`
    characters each (empty lines left out), or `Discarded` when the answer as a whole is
    empty, a refusal or not in `lang`."""
    lines = [line for line in map(_plain, answer.splitlines()) if line]
    _check(" ".join(lines), lang)
    kept = (_SPACE.sub(" ", _keep_known_links(line, source)).strip() for line in lines)
    return [_inert(_cap(line, limit)) for line in kept if line]


def _check(text: str, lang: SummaryLang) -> None:
    """`Discarded` unless `text` is a non-empty answer in `lang`, not a refusal."""
    if not text:
        raise Discarded("empty")
    if _REFUSAL.search(text):
        raise Discarded("refusal")
    if not in_language(text, lang):
        raise Discarded("language")


def _plain(answer: str) -> str:
    """One paragraph without Markdown or Discord's mention and emoji syntax."""
    text = _DISCORD_TOKEN.sub("", answer)
    text = _MASKED_LINK.sub(lambda m: f"{m[1]} {m[2]}", text)
    text = _MARKUP.sub("", text)
    return _SPACE.sub(" ", text).strip()


def _keep_known_links(text: str, source: str) -> str:
    """Every link removed unless the source holds it as it is."""
    known = {link.rstrip(_TRAILING).lower() for link in _URL.findall(source)}

    def keep(match: re.Match[str]) -> str:
        link = match[0].rstrip(_TRAILING)
        tail = match[0][len(link):]
        return (link if link.lower() in known else "") + tail

    return _URL.sub(keep, text)


def _inert(text: str) -> str:
    """No `@` that Discord could read as a mention, whatever the message's settings."""
    return text.replace("@", "@" + ZERO_WIDTH)


def _cap(text: str, limit: int = SUMMARY_LIMIT) -> str:
    """At most `limit` characters, cut after a sentence where one ends near the cap."""
    if len(text) <= limit:
        return text
    cut = text[:limit - 1]
    end = max(cut.rfind(". "), cut.rfind("。"))
    if end >= limit // 2:
        return cut[:end + 1]
    return cut.rstrip() + "…"


def in_language(text: str, lang: SummaryLang) -> bool:
    """Whether `text` reads as `lang`: Chinese by its share of Han characters (Latin terms
    allowed, no kana or Hangul), English by its share of common English words."""
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return False
    han = len(_CJK.findall(text))
    if lang is SummaryLang.ZH_CN:
        return han / len(letters) >= 0.3 and not _KANA_HANGUL.search(text)
    if han / len(letters) > 0.05:
        return False
    words = [w.lower() for w in _LATIN_WORD.findall(text)]
    return bool(words) and sum(w in _ENGLISH for w in words) / len(words) >= 0.1
