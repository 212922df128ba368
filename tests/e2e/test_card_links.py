"""Cards with arXiv links and both texts, end to end: the other text is a click away."""

from __future__ import annotations

from typing import Any

from bot.client.bot import PaperclubBot
from discord_standin import Guild, Message, StandIn
from domain.paper import Links, Paper
from tests.group import People

GROKKING = "To Grok Grokking: Provable Grokking in Ridge Regression"
ABSTRACT = ("We prove that $\\alpha$-regularised ridge\n  regression groks at 50% of the "
            "steps; see \\emph{Theorem 1}.")


def _buttons(message: Message) -> list[dict[str, Any]]:
    """The card's link and abstract buttons (👍 / 👎 / More like this: tests/e2e/test_recommend;
    Suggest a correction: tests/e2e/test_correction_button)."""
    return [c for c in message.walk_components() if c.get("type") == 2
            and not str(c.get("custom_id", "")).startswith(("paperclub:rate:",
                                                            "paperclub:correct:"))]


async def _with_links(bot: PaperclubBot, bundled_papers: list[Paper]) -> Paper:
    listed = next(p for p in bundled_papers if p.title_en == GROKKING)
    arxiv = Paper(title_en=GROKKING, title_zh="", authors=listed.authors, summary_en=ABSTRACT,
                  links=Links(arxiv_id="2601.01234", arxiv_version=2))
    [outcome] = await bot.services.catalog.add_papers([arxiv])
    return outcome.paper


async def test_a_card_links_to_arxiv_and_shows_the_other_text_on_a_click(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        bundled_papers: list[Paper]) -> None:
    paper = await _with_links(bot, bundled_papers)
    handle = await standin.slash("paper", {"query": "grokking ridge"}, guild=guild,
                                 user=people.alice)
    card = await handle.answer()
    (embed,) = card.embeds
    assert embed["url"] == "https://arxiv.org/abs/2601.01234"
    assert "We prove that α-regularised ridge regression groks at 50% of the steps; " \
           "see Theorem 1." in embed["description"]
    assert paper.summary_zh[:20] not in embed["description"]  # a click away
    page, pdf, other = _buttons(card)
    assert (page["label"], page["url"]) == ("arXiv page", "https://arxiv.org/abs/2601.01234")
    assert (pdf["label"], pdf["url"]) == ("PDF", "https://arxiv.org/pdf/2601.01234")
    assert other["label"] == "AI summary (Chinese)"

    click = await standin.click(card, str(other["custom_id"]), user=people.bob)
    reply = await click.reply()
    assert reply.ephemeral
    (shown,) = reply.embeds
    assert paper.summary_zh[:20] in shown["description"]
    assert len(shown["description"]) <= 4096 and len(shown["title"]) <= 256


async def test_chinese_readers_open_with_the_summary_and_click_for_the_abstract(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        bundled_papers: list[Paper]) -> None:
    await _with_links(bot, bundled_papers)
    handle = await standin.slash("paper", {"query": "grokking ridge"}, guild=guild,
                                 locale="zh-TW")
    card = await handle.answer()
    (embed,) = card.embeds
    assert "**AI總結**" in embed["description"] and "We prove" not in embed["description"]
    other = _buttons(card)[-1]
    assert other["label"] == "英文摘要"
    click = await standin.click(card, str(other["custom_id"]), locale="zh-TW")
    (shown,) = (await click.reply()).embeds
    assert shown["description"].startswith("We prove that α-regularised")
    assert shown["title"].startswith("英文摘要 · ")


async def test_a_long_chinese_title_without_an_arxiv_id_still_gets_its_card(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    title = ("基于大规模预训练语言模型的多模态知识图谱构建与推理方法研究"
             "以中文科技文献和开放获取预印本平台为例的实证分析与评估")
    [outcome] = await bot.services.catalog.add_papers([
        Paper(title_en=title, title_zh="", authors=("李华",), summary_en="A study.")])
    handle = await standin.slash("paper", {"query": outcome.paper.id}, guild=guild,
                                 user=people.alice)
    card = await handle.answer()
    (embed,) = card.embeds
    (search, *_) = _buttons(card)
    assert search["label"] == "Find on arXiv" and len(search["url"]) <= 512
    assert search["url"] == embed["url"]
