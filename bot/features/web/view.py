"""What the web page shows, as plain values in the reader's language (pure): each paper's card
in both languages, the sessions' times in the group's zone, and the language links. Text is
kept raw here; the template escapes every value (Jinja2 autoescape)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from urllib.parse import urlencode
from zoneinfo import ZoneInfo

from bot.features.export.service import thread_link
from bot.features.papers.card import (
    AbstractKind,
    abstract_heading,
    abstract_text,
    arxiv_search_url,
    generated_for,
    generated_label,
    reader_summary,
)
from bot.features.papers.venue_label import chinese_for, venue_badge, venue_length
from bot.features.web.service import Daily, Found, PageData, Past, Upcoming
from bot.shared.lang import Lang
from bot.shared.messages import t
from domain.paper import Paper
from domain.text import fold_chinese

LANG_NAMES = {Lang.EN: "English", Lang.ZH_HANS: "简体中文", Lang.ZH_HANT: "繁體中文"}


def safe_url(url: str) -> str:
    """`url` when it is an http(s) address, else '' (a stored `javascript:` never links)."""
    return url if url.startswith(("https://", "http://")) and " " not in url else ""


@dataclass(frozen=True, slots=True)
class PaperView:
    """A paper's card as the page shows it, both languages' titles and texts."""

    id: str
    title: str
    """The title in the reader's language first (the other one is `subtitle`)."""
    subtitle: str
    title_en: str
    title_zh: str
    authors: tuple[str, ...]
    affiliations: tuple[str, ...]
    venue: str
    length: str
    summary_zh: str
    abstract_en: str
    abs_url: str
    pdf_url: str
    link_label: str
    summary_label: str = ""
    """The label of `summary_zh` when it was generated here ("AI summary · model · not
    checked"); '' for the catalog's own."""
    abstract_label: str = ""
    """The same for `abstract_en` (a summary generated in English)."""
    brief_en: str = ""
    """A short English summary generated here beside the paper's own abstract ('': none)."""
    brief_label: str = ""


def paper_view(paper: Paper, lang: Lang) -> PaperView:
    """The card of `paper` for a reader of `lang` (Chinese in Traditional for zh-TW)."""
    title_zh = chinese_for(paper.title_zh, lang)
    first, second = (title_zh, paper.title_en) if lang.chinese and title_zh else (
        paper.title_en, title_zh)
    affiliations = tuple(
        f"{a.en}（{chinese_for(a.zh, lang)}）" if a.zh else a.en for a in paper.affiliations)
    arxiv = safe_url(paper.links.abs_url)
    return PaperView(
        id=paper.id, title=first, subtitle=second if second != first else "",
        title_en=paper.title_en, title_zh=title_zh, authors=paper.authors,
        affiliations=affiliations, venue=venue_badge(paper.venue, lang),
        length=venue_length(paper.venue, lang),
        summary_zh=abstract_text(paper, AbstractKind.ZH, lang),
        abstract_en=abstract_text(paper, AbstractKind.EN, lang),
        abs_url=arxiv or arxiv_search_url(paper), pdf_url=safe_url(paper.links.pdf_link),
        link_label=t(lang, "card.arxiv_page" if arxiv else "card.arxiv"),
        summary_label=_generated_label(paper, AbstractKind.ZH, lang),
        abstract_label=_generated_label(paper, AbstractKind.EN, lang),
        **_brief(paper, lang))


def _brief(paper: Paper, lang: Lang) -> dict[str, str]:
    """The English summary generated here, where the abstract is the paper's own."""
    text, made = reader_summary(paper, Lang.EN)
    if made is None or not paper.summary_en:
        return {}
    return {"brief_en": text, "brief_label": generated_label(made, lang)}


def _generated_label(paper: Paper, kind: AbstractKind, lang: Lang) -> str:
    """"AI summary · model · not checked" when the text of `kind` was generated here."""
    return abstract_heading(paper, kind, lang) if generated_for(paper, kind) else ""


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of a section: its paper (or the id of one gone from the catalog) and details."""

    paper: PaperView | None
    missing: str
    when: str = ""
    presenter: str = ""
    notes: tuple[str, ...] = ()
    thread: str = ""
    support: str = ""


def _paper(paper: Paper | None, paper_id: str, lang: Lang) -> tuple[PaperView | None, str]:
    if paper is None:
        return None, t(lang, "web.paper_gone", id=paper_id)
    return paper_view(paper, lang), ""


def _when(instant: datetime, zone: ZoneInfo) -> str:
    return instant.astimezone(zone).strftime("%Y-%m-%d %H:%M")


def _presenter(name: str | None, known: bool, lang: Lang) -> str:
    if not known:
        return t(lang, "web.no_presenter")
    return t(lang, "web.presenter", name=name or t(lang, "queue.former_member"))


def upcoming_entry(item: Upcoming, zone: ZoneInfo, lang: Lang) -> Entry:
    """A scheduled session: when (the group's zone), the paper, who presents."""
    session = item.session
    view, missing = _paper(item.paper, session.paper_id, lang)
    return Entry(view, missing, when=_when(session.starts_at, zone),
                 presenter=_presenter(item.presenter, session.presenter_id is not None, lang),
                 notes=(session.notes,) if session.notes else (),
                 thread=thread_link(session.guild_id, session.thread_id) or "")


def past_entry(item: Past, zone: ZoneInfo, lang: Lang) -> Entry:
    """A discussion as `/history` lists it: its date, paper, presenter, notes and thread."""
    done = item.entry.discussed
    view, missing = _paper(item.entry.paper, done.paper_id, lang)
    presenter = "" if done.presenter_id is None else t(
        lang, "web.presenter", name=item.presenter or t(lang, "queue.former_member"))
    return Entry(view, missing, when=done.when.astimezone(zone).strftime("%Y-%m-%d"),
                 presenter=presenter, notes=(done.notes,) if done.notes else (),
                 thread=thread_link(done.guild_id, done.thread_id) or "")


def daily_entry(item: Daily, guild_id: int, lang: Lang) -> Entry:
    """A posted paper of the day: its local date, paper and thread."""
    view, missing = _paper(item.paper, item.paper_id, lang)
    return Entry(view, missing, when=item.local_date.isoformat(),
                 thread=thread_link(guild_id, item.thread_id) or "")


def lang_links(lang: Lang, query: str) -> list[dict[str, str | bool]]:
    """The language switch: a link per language keeping the search, the current one marked."""
    links: list[dict[str, str | bool]] = []
    for other in Lang:
        params = {"lang": other.value, **({"q": query} if query else {})}
        links.append({"href": "?" + urlencode(params), "name": LANG_NAMES[other],
                      "code": other.value, "current": other is lang})
    return links


def found_context(found: Found | None, lang: Lang) -> dict[str, object] | None:
    """The search's heading, note and result cards."""
    if found is None:
        return None
    note = (found.refusal.text(lang) if found.refusal is not None
            else t(lang, "web.did_you_mean", q=found.did_you_mean) if found.did_you_mean
            else "")
    empty = "web.no_words" if found.no_words else "web.no_results"
    return {"heading": t(lang, "web.results", q=found.query), "note": note,
            "papers": [paper_view(p, lang) for p in found.papers],
            "close": [p.id in found.close for p in found.papers],
            "close_label": t(lang, "results.close_in_meaning"),
            "empty": t(lang, empty, q=found.query)}


GROUP_WORDS = ("reading group", "读书会")
"""A server name holding one of these (either script, any case) names the group already."""


def page_title(server_name: str, lang: Lang) -> str:
    """"{server} reading group", or the server's name alone when it says so already (not
    "Reading Group reading group")."""
    folded = fold_chinese(server_name).casefold()
    if any(word in folded for word in GROUP_WORDS):
        return server_name
    return t(lang, "web.page_title", server=server_name)


def page_context(data: PageData, lang: Lang, server_name: str) -> dict[str, object]:
    """Everything the template needs, in `lang`."""
    query = data.found.query if data.found is not None else ""
    labels = {key.removeprefix("web."): t(lang, key) for key in LABELS}
    labels["page_title"] = page_title(server_name, lang)
    for key in ("authors", "affiliations", "venue", "length", "summary", "abstract", "pdf"):
        labels[key] = t(lang, f"card.{key}")
    return {
        "lang": lang.value, "labels": labels, "query": query, "langs": lang_links(lang, query),
        "zone": data.zone.key, "found": found_context(data.found, lang),
        "upcoming": [upcoming_entry(u, data.zone, lang) for u in data.upcoming],
        "queue": [Entry(*_paper(e.paper, e.item.paper_id, lang),
                        support=t(lang, "web.support", n=e.item.support),
                        notes=tuple(s.note for s in e.item.supporters if s.note))
                  for e in data.queue],
        "past": [past_entry(p, data.zone, lang) for p in data.past],
        "daily": [daily_entry(d, data.guild_id, lang) for d in data.daily],
    }


LABELS = ("web.language", "web.search", "web.search_button", "web.search_placeholder",
          "web.upcoming", "web.no_upcoming", "web.queue", "web.queue_empty", "web.past",
          "web.no_past", "web.daily", "web.no_daily", "web.thread", "web.notes", "web.footer")
