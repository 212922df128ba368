"""Where summaries are shown: on cards (labelled as generated, the listing's own text and a
server's approved correction preferred), through the one view every surface uses (the paper of
the day's post included), and nowhere while `[llm]` is off."""

from __future__ import annotations

import dataclasses
import json
from datetime import UTC, datetime

from bot.features.papers.card import build_card
from bot.features.papers.card_view import escape
from bot.features.summaries.prompt import paper_source, source_hash
from bot.features.summaries.service import SummaryService, with_generated
from bot.graphs.summaries import Summaries, summaries_for
from bot.settings import Settings
from bot.shared.lang import Lang
from bot.shared.server_view import Shown, as_stored
from domain.paper import Paper
from domain.summaries import GeneratedSummary, SummaryLang
from storage.sqlite.database import Database
from tests.summaries.conftest import add, english_paper, summary_store

ZH_TEXT = "本文提出了一种稀疏注意力方法，实验表明其优于现有工作。"


def _made(paper: Paper, lang: SummaryLang, text: str, model: str = "qwen2.5:7b") -> (
        GeneratedSummary):
    return GeneratedSummary(lang, text, model, source_hash(paper_source(paper), lang))


def test_a_card_shows_a_generated_summary_labelled_in_the_readers_script() -> None:
    paper = english_paper(1)
    shown = with_generated(paper, [_made(paper, SummaryLang.ZH_CN, ZH_TEXT)])
    simplified = build_card(shown, Lang.ZH_HANS, escape=escape)
    traditional = build_card(shown, Lang.ZH_HANT, escape=escape)
    english = build_card(shown, Lang.EN, escape=escape)
    assert "**AI 总结 · qwen2.5:7b · 未经核对**\n" + ZH_TEXT in simplified.description
    assert "AI 總結 · qwen2.5:7b · 未經核對" in traditional.description
    assert "實驗" in traditional.description and "实验" not in traditional.description  # OpenCC
    assert english.description.count("We study attention sparsity") == 1
    assert english.other_label == "AI summary · qwen2.5:7b · not checked"


def test_the_listings_own_summary_and_an_approved_correction_win() -> None:
    listing = dataclasses.replace(english_paper(2), summary_zh="清单自带的 AI 总结。")
    made = _made(english_paper(2), SummaryLang.ZH_CN, ZH_TEXT)
    assert with_generated(listing, [made]).generated == ()
    assert "清单自带" in build_card(with_generated(listing, [made]), Lang.ZH_HANS).description
    corrected = dataclasses.replace(english_paper(2), title_en="A corrected title")
    assert with_generated(corrected, [made]).generated == ()  # made from the old text


def test_a_model_name_cannot_format_or_ping() -> None:
    paper = english_paper(3)
    shown = with_generated(paper, [_made(paper, SummaryLang.ZH_CN, ZH_TEXT, "**@everyone**")])
    card = build_card(shown, Lang.ZH_HANS, escape=escape)
    assert "@everyone" not in card.description and "\\*\\*" in card.description


class _Corrections:
    """A server view that renames one paper (an approved correction of its Chinese title)."""

    async def view(self, guild_id: int | None, paper_ids: object) -> Shown:
        return lambda paper: dataclasses.replace(paper, title_zh="纠正后的标题")

    async def corrected(self, guild_id: int) -> list[Paper]:
        return []


async def test_the_view_attaches_summaries_over_the_corrections(db: Database) -> None:
    paper = english_paper(4)
    await add(db, [paper])
    store = summary_store(db)
    [job] = await store.claim(SummaryLang.ZH_CN, "a", "2026-12-01", "2026-12-02", 1)
    await store.finish(job, "a", _made(paper, SummaryLang.ZH_CN, ZH_TEXT), "2026-12-01")
    service = SummaryService(store, _Corrections(), budget=1000)
    shown = (await service.view(7, [paper.id]))(paper)
    assert shown.title_zh == "纠正后的标题" and [s.text for s in shown.generated] == [ZH_TEXT]
    outside = await service.attached(paper)
    assert [s.text for s in outside.generated] == [ZH_TEXT]
    other = english_paper(5)
    assert (await service.view(7, [other.id]))(other).generated == ()


def test_with_llm_unset_papers_are_shown_through_the_corrections_alone() -> None:
    corrections = _Corrections()
    parts = summaries_for(None, Settings(), corrections)  # type: ignore[arg-type]
    assert type(parts) is Summaries and parts.view is corrections and parts.service is None
    assert as_stored(english_paper(1)).generated == ()


async def test_the_owners_figures_coverage_and_tokens_today(db: Database) -> None:
    await add(db, [english_paper(n) for n in range(3)])
    store = summary_store(db)
    [job, *_] = await store.claim(SummaryLang.ZH_CN, "a", "2026-12-01", "2026-12-02", 3)
    await store.finish(job, "a", GeneratedSummary(SummaryLang.ZH_CN, ZH_TEXT, "m"), "2026-12-01")
    await store.reserve_tokens("2026-12-01", 700, 5000)
    clock = lambda: datetime(2026, 12, 1, 18, tzinfo=UTC)  # noqa: E731
    figures = await SummaryService(store, None, budget=5000, clock=clock).figures()
    assert figures.log_line() == ("coverage en 0/3 (0 failed), zh-CN 1/3 (0 failed); "
                                  "700 of 5000 tokens today")


def test_the_web_page_shows_a_generated_summary_with_its_label() -> None:
    from bot.features.web.view import paper_view

    paper = english_paper(6)
    shown = with_generated(paper, [_made(paper, SummaryLang.ZH_CN, ZH_TEXT, "llama3.1")])
    view = paper_view(shown, Lang.ZH_HANT)
    assert (view.summary_label, view.abstract_label) == ("AI 總結 · llama3.1 · 未經核對", "")
    assert "實驗" in view.summary_zh and view.abstract_en.startswith("We study")
    plain = paper_view(paper, Lang.ZH_HANT)
    assert (plain.summary_zh, plain.summary_label, plain.brief_en) == ("", "", "")
    both = with_generated(paper, [_made(paper, SummaryLang.EN, "A short English summary.")])
    brief = paper_view(both, Lang.EN)  # beside the abstract, labelled
    assert (brief.brief_en, brief.brief_label) == (
        "A short English summary.", "AI summary · qwen2.5:7b · not checked")
    assert brief.abstract_en.startswith("We study") and brief.abstract_label == ""


def test_dms_exports_and_corrections_carry_a_generated_summary_labelled() -> None:
    from bot.features.catalog.jsonl import dumps, read_record
    from bot.features.corrections.rules import current_value
    from bot.features.export.formats import ExportFormat
    from bot.features.export.service import catalog_text
    from bot.features.notifications.notices import new_papers_message
    from domain.corrections import Field, Target

    paper = english_paper(7)
    english = "A sparse attention method that beats prior work on benchmarks."
    shown = with_generated(paper, [_made(paper, SummaryLang.ZH_CN, ZH_TEXT, "llama3.1"),
                                   _made(paper, SummaryLang.EN, english, "llama3.1")])
    dm = new_papers_message([(shown, ["attention"])], "Club", Lang.ZH_HANT)
    assert "> *AI 總結 · llama3.1 · 未經核對*: 本文提出" in dm and "實驗" in dm
    assert "*AI summary · llama3.1 · not checked*: A sparse" in new_papers_message(
        [(shown, ["attention"])], "Club", Lang.EN)
    assert "AI summary" not in new_papers_message([(paper, ["attention"])], "Club", Lang.EN)
    record = json.loads(dumps(shown))
    assert record["summary_zh"] == "" and record["summary_en"] == paper.summary_en
    assert {(s["lang"], s["model"], s["checked"]) for s in record["ai_summaries"]} == {
        ("zh-CN", "llama3.1", False), ("en", "llama3.1", False)}
    assert read_record(record) == (paper, [])  # re-imported as the catalog's own text only
    assert "ai_summaries" not in json.loads(dumps(paper))
    listing = dataclasses.replace(paper, summary_en="", summary_zh="清单总结。")
    reading = catalog_text([with_generated(listing, [_made(listing, SummaryLang.EN, english)])],
                           ExportFormat.MARKDOWN)
    assert "AI summary · qwen2.5:7b · not checked: A sparse attention" in reading
    assert "清单总结" in catalog_text([listing], ExportFormat.MARKDOWN)
    target = Target(paper.id, Field.SUMMARY_ZH)
    assert current_value(shown, target) == ZH_TEXT  # a fix starts from the generated text
    assert current_value(paper, target) == ""  # the source's value stays the catalog's


def test_an_approved_english_summary_correction_is_shown_instead_labelled_corrected() -> None:
    from bot.features.corrections.rules import current_value, with_value
    from bot.features.export.formats import ExportFormat
    from bot.features.export.service import catalog_text
    from bot.features.web.view import paper_view
    from domain.corrections import Field, Target

    paper = english_paper(8)
    made = _made(paper, SummaryLang.EN, "An AI summary.")
    target = Target(paper.id, Field.SUMMARY_EN)
    assert current_value(with_generated(paper, [made]), target) == "An AI summary."
    fixed = with_generated(with_value(paper, target, "A member's summary."), [made])
    assert [s.text for s in fixed.generated] == ["A member's summary."]
    assert fixed.summary_en == paper.summary_en  # the abstract is never overwritten
    view = paper_view(fixed, Lang.ZH_HANS)
    assert (view.brief_en, view.brief_label) == ("A member's summary.",
                                                 "总结 · 已由本服务器成员纠正")
    listing = dataclasses.replace(paper, summary_en="", summary_zh="清单总结。")
    shown = with_value(listing, target, "A member's summary.")  # stands in for the abstract
    card = build_card(shown, Lang.EN, escape=escape)
    assert "Summary · corrected by this server's members**\nA member's" in card.description
    assert "corrected by this server's members: A member's" in catalog_text(
        [shown], ExportFormat.MARKDOWN)
