"""The paper card: what a paper looks like in a chat message, within Discord's limits.

Pure: builds plain data (`Card`) that the Discord layer turns into an embed. Readers whose
locale is Chinese see the Chinese title first and Chinese labels.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import quote_plus

from bot.features.papers.abstract_text import display_text
from bot.features.papers.venue_label import chinese_for, venue_badge, venue_length
from bot.shared.lang import Lang
from bot.shared.messages import t
from domain.paper import Paper
from domain.summaries import GeneratedSummary, SummaryLang

TITLE_LIMIT = 256
DESCRIPTION_LIMIT = 4096
FIELD_NAME_LIMIT = 256
FIELD_VALUE_LIMIT = 1024
FOOTER_LIMIT = 2048
EMBED_TOTAL_LIMIT = 6000
ELLIPSIS = "…"
URL_LIMIT = 512
"""The longest URL Discord accepts in a link button (code 50035 beyond it)."""
SEARCH_URL = ("https://arxiv.org/search/?query=", "&searchtype=title")


def fit(text: str, limit: int) -> str:
    """Shorten to at most `limit` characters, at a word boundary when one is near, with `…`."""
    text = text.strip()
    if len(text) <= limit:
        return text
    cut = text[: max(0, limit - 1)]
    space = cut.rfind(" ")
    if space >= limit * 0.6:
        cut = cut[:space]
    return cut.rstrip(" ,;:·-") + ELLIPSIS


def join_fitting(items: list[str], limit: int, more: Callable[[int], str],
                 sep: str = ", ") -> str:
    """Join as many items as fit in `limit`, then say how many were left out."""
    shown: list[str] = []
    for index, item in enumerate(items):
        rest = len(items) - index - 1
        candidate = sep.join([*shown, item])
        tail = f" {more(rest)}" if rest else ""
        if len(candidate) + len(tail) > limit:
            left = len(items) - len(shown)
            text = sep.join(shown) + f" {more(left)}" if shown else fit(item, limit)
            return fit(text, limit)
        shown.append(item)
    return sep.join(shown)


def arxiv_search_url(paper: Paper) -> str:
    """An arXiv title search for the paper (for a paper whose arXiv id is unknown), within
    Discord's `URL_LIMIT`: a title too long to quote whole is searched by its first words (by
    its first characters when it has no spaces, as Chinese titles have none)."""
    head, tail = SEARCH_URL
    budget = URL_LIMIT - len(head) - len(tail)
    title = " ".join(paper.title_en.split())
    lengths = [len(quote_plus(char)) for char in title]
    if sum(lengths) > budget:
        end = _fitting_prefix(lengths, budget)
        space = title.rfind(" ", 0, end + 1)
        title = title[:space if space > 0 else end]
    return f"{head}{quote_plus(title)}{tail}"


def _fitting_prefix(lengths: list[int], budget: int) -> int:
    """How many leading characters fit `budget` once quoted (each costs its `lengths`)."""
    used = 0
    for index, length in enumerate(lengths):
        used += length
        if used > budget:
            return index
    return len(lengths)


def fitting_url(url: str) -> str:
    """`url` when a link button may carry it (at most `URL_LIMIT` characters), else ''."""
    return url if len(url) <= URL_LIMIT else ""


def paper_url(paper: Paper) -> str:
    """The paper's arXiv page when its id is known, else an arXiv title search."""
    return paper.links.abs_url or arxiv_search_url(paper)


def abstract_text(paper: Paper, kind: AbstractKind, lang: Lang) -> str:
    """The English abstract (LaTeX and wrapping normalised for display) or the Chinese AI
    summary (in the reader's script); where the paper has neither, the summary generated here
    in that language; '' when there is none."""
    own = paper.summary_en if kind is AbstractKind.EN else paper.summary_zh
    made = generated_for(paper, kind)
    text = own or (made.text if made is not None else "")
    if not text:
        return ""
    return display_text(text) if kind is AbstractKind.EN else chinese_for(text, lang)


def generated_for(paper: Paper, kind: AbstractKind) -> GeneratedSummary | None:
    """The summary generated here that stands in for the paper's missing text of `kind`."""
    if paper.summary_en if kind is AbstractKind.EN else paper.summary_zh:
        return None
    lang = SummaryLang.EN if kind is AbstractKind.EN else SummaryLang.ZH_CN
    return next((made for made in paper.generated if made.lang is lang), None)


def reader_summary(paper: Paper, lang: Lang) -> tuple[str, GeneratedSummary | None]:
    """A short summary for the reader of `lang` (where an abstract is too long: a DM's list,
    a reading list): Chinese readers the catalog's own Chinese summary (or a server's approved
    correction of it), else the one generated here, in their script; English readers the one
    generated here. With the summary generated here, to label it ('', None when none)."""
    if lang.chinese and paper.summary_zh:
        return chinese_for(paper.summary_zh, lang), None
    want = SummaryLang.ZH_CN if lang.chinese else SummaryLang.EN
    made = next((made for made in paper.generated if made.lang is want), None)
    if made is None:
        return "", None
    return (chinese_for(made.text, lang) if lang.chinese else made.text), made


def generated_label(made: GeneratedSummary, lang: Lang,
                    escape: Callable[[str], str] = lambda text: text) -> str:
    """"AI summary · <model> · not checked" in `lang` ("Summary · corrected by this server's
    members" for a server's approved correction of it)."""
    if made.corrected:
        return t(lang, "card.corrected_summary")
    return t(lang, "card.generated", model=escape(fit(made.model, 60)))


def abstract_heading(paper: Paper, kind: AbstractKind, lang: Lang,
                     escape: Callable[[str], str] = lambda text: text) -> str:
    """What the text of `kind` is called on the card: the catalog's label, or for a summary
    generated here "AI summary · <model> · not checked"."""
    made = generated_for(paper, kind)
    if made is None:
        return t(lang, kind.heading_key())
    return generated_label(made, lang, escape)


def abstract_kinds(paper: Paper, lang: Lang) -> tuple[AbstractKind | None, AbstractKind | None]:
    """The text a card opens with and the one a click away: the reader's language first when
    the paper has both (English readers the abstract, Chinese readers the AI summary)."""
    mine, theirs = (AbstractKind.ZH, AbstractKind.EN) if lang.chinese else (
        AbstractKind.EN, AbstractKind.ZH)
    present = [kind for kind in (mine, theirs)
               if (paper.summary_en if kind is AbstractKind.EN else paper.summary_zh)
               or generated_for(paper, kind) is not None]
    return (present[0] if present else None), (present[1] if len(present) > 1 else None)


@dataclass(frozen=True, slots=True)
class CardField:
    """One embed field."""

    name: str
    value: str
    inline: bool = False


class AbstractKind(StrEnum):
    """The two texts a card can open with: arXiv's English abstract, the Chinese AI summary."""

    EN = "en"
    ZH = "zh"

    def heading_key(self) -> str:
        """The catalogue key naming this text (also the label of the button that shows it)."""
        return "card.abstract" if self is AbstractKind.EN else "card.summary"


@dataclass(frozen=True, slots=True)
class Card:
    """A paper card: embed data plus the links for its buttons."""

    title: str
    url: str
    description: str
    fields: tuple[CardField, ...]
    footer: str
    link_label: str
    paper_id: str = ""
    pdf_url: str = ""
    """The PDF when the arXiv id (or a PDF link) is known, else ''."""
    pdf_label: str = ""
    other: AbstractKind | None = None
    """The text a button shows on request when the card opens with the other one."""
    other_label: str = ""

    def total_length(self) -> int:
        """Characters Discord counts against the 6000 limit."""
        return (len(self.title) + len(self.description) + len(self.footer)
                + sum(len(f.name) + len(f.value) for f in self.fields))


def _identity(text: str) -> str:
    return text


def build_card(paper: Paper, lang: Lang, *, escape: Callable[[str], str] = _identity,
               note: str = "", footer_note: str = "") -> Card:
    """The card for `paper` in `lang`; `escape` neutralises markdown in catalog text.

    `note` opens the description; `footer_note` is appended to the footer.
    """
    title_zh = chinese_for(paper.title_zh, lang)
    first, second = (title_zh, paper.title_en) if lang.chinese else (
        paper.title_en, title_zh)
    first = first or second

    def more(count: int) -> str:
        return t(lang, "card.more", n=count)

    fields: list[CardField] = []
    authors = join_fitting([escape(a) for a in paper.authors], FIELD_VALUE_LIMIT, more)
    if authors:
        fields.append(CardField(t(lang, "card.authors"), authors))
    if paper.affiliations:
        zh = [chinese_for(a.zh, lang) for a in paper.affiliations]
        names = [escape(f"{z}（{a.en}）" if lang.chinese and z else
                        f"{a.en}（{z}）" if z else a.en)
                 for a, z in zip(paper.affiliations, zh, strict=True)]
        fields.append(CardField(t(lang, "card.affiliations"),
                                join_fitting(names, FIELD_VALUE_LIMIT, more, sep="\n")))
    badge = venue_badge(paper.venue, lang)
    if badge:
        fields.append(CardField(t(lang, "card.venue"), fit(escape(badge), FIELD_VALUE_LIMIT),
                                inline=True))
    length = venue_length(paper.venue, lang)
    if length:
        fields.append(CardField(t(lang, "card.length"), length, inline=True))
    parts = []
    if second and second != first:
        parts.append(f"*{escape(second)}*")
    shown, other = abstract_kinds(paper, lang)
    if shown is not None:
        text = abstract_text(paper, shown, lang)
        parts.append(f"**{abstract_heading(paper, shown, lang, escape)}**\n{escape(text)}")
    if note:
        parts.insert(0, note)
    footer = fit(" · ".join(p for p in ("paperclub", paper.id, footer_note) if p), FOOTER_LIMIT)
    title = fit(escape(first), TITLE_LIMIT)
    budget = EMBED_TOTAL_LIMIT - len(title) - len(footer) - sum(
        len(f.name) + len(f.value) for f in fields)
    description = fit("\n\n".join(parts), min(DESCRIPTION_LIMIT, max(0, budget)))
    pdf = fitting_url(paper.links.pdf_link)
    return Card(title=title, url=paper_url(paper), description=description,
                fields=tuple(fields), footer=footer,
                link_label=t(lang, "card.arxiv_page" if paper.links.arxiv_id else "card.arxiv"),
                paper_id=paper.id, pdf_url=pdf, pdf_label=t(lang, "card.pdf") if pdf else "",
                other=other,
                other_label=fit(abstract_heading(paper, other, lang), 80) if other else "")
