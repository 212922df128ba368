"""Every slash command answered in zh-CN and zh-TW: no English sentence, the right script.

The server and its members use the same Chinese locale, so replies (the member's locale),
channel posts and DMs (the server's) are all expected in it. Catalog data (titles, authors,
venues), what the member typed, code spans, links and mentions are removed before checking.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import pytest
from opencc import OpenCC

from arxiv_standin import ArxivFault, ArxivStandIn
from bot.client.bot import PaperclubBot
from bot.shared.lang import Lang
from bot.shared.messages import t
from discord_standin import (
    Callback,
    Guild,
    InteractionHandle,
    Member,
    Message,
    OptionValue,
    StandIn,
    User,
)
from domain.crosslingual import default_glossary
from domain.paper import Paper
from domain.text import to_traditional
from tests.clocks import FakeClock
from tests.group import People

# Code, links, mentions, timestamps, and the post's footer marker (it finds the post again
# after a restart, so it never changes with the language).
NOT_TEXT = re.compile(r"`[^`]*`|https?://\S+|<[@#]?!?&?\d+>|<t:\d+:\w>"
                      r"|📅 \d{4}-\d\d-\d\d")
ENGLISH_RUN = re.compile(r"[A-Za-z][\w'’-]*(?:[ ,]+[A-Za-z][\w'’-]*){2,}")
TO_TRADITIONAL = OpenCC("s2tw")
Answer = Callback | Message
FEED_QUERY = "cat:cs.LG AND abs:grokking"
TYPED = ("grokking", "qqqzzzxx", "year:20x6", "Asia/Taipei", "Reading Group", "papers",
         "值得一读", FEED_QUERY, "distillation", "xu", "good")
LATIN_WORD = re.compile(r"(?<![\w/.:-])[A-Za-z][a-z]{2,}(?![\w/.:-])")
"""A word of the bot's own left in English (`main`, `spotlight`, `Workshop`) once catalog data,
typed text, code and links are removed; acronyms and product names are not words of it."""
NAMES = {"arXiv", "Discord", "BibTeX", "Markdown", "Zotero", "Grokking", "paperclub"}


@pytest.fixture(params=["zh-CN", "zh-TW"])
def locale(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def guild(people: People, locale: str) -> Guild:
    """The reading group's server, set to the members' language."""
    return Guild("Reading Group", channels=["general", "papers"], locale=locale,
                 members=[people.alice, Member(people.bob, roles=[people.admin_role]),
                          people.carol])


def _components(components: Iterable[dict[str, Any]]) -> Iterable[dict[str, Any]]:
    """Every component, nested ones (in action rows) included."""
    for item in components:
        yield item
        yield from _components(item.get("components") or ())


def _texts(message: Answer) -> list[str]:
    """Content and every text of every embed."""
    texts = [message.content]
    for embed in message.embeds:
        texts += [str(embed.get("title") or ""), str(embed.get("description") or ""),
                  str((embed.get("footer") or {}).get("text") or "")]
        texts += [f"{f['name']}\n{f['value']}" for f in embed.get("fields") or []]
    components = (message.data.get("components") if isinstance(message, Callback)
                  else message.components)
    for item in _components(components or ()):
        texts += [str(item.get(key) or "") for key in ("label", "placeholder")]
        texts += [f"{o.get('label')}\n{o.get('description') or ''}"
                  for o in item.get("options") or []]
    return texts


def _catalog_data(papers: list[Paper], lang: Lang) -> list[str]:
    """The catalog's text as a reader of `lang` must see it: a zh-TW reader only ever sees its
    Chinese in Traditional characters, so its Simplified form is not forgiven there."""
    data: list[str] = list(TYPED)
    chinese: list[str] = []
    for paper in papers:
        data += [paper.title_en, paper.summary_en, paper.id, *paper.authors,
                 paper.venue.badge(), paper.venue.length(), paper.venue.workshop or ""]
        data += [a.en for a in paper.affiliations]
        chinese += [paper.title_zh, paper.summary_zh, *(a.zh for a in paper.affiliations)]
    data += [to_traditional(item) for item in chinese] if lang is Lang.ZH_HANT else chinese
    return sorted({d for d in data if d}, key=len, reverse=True)


def _glossary_english() -> list[str]:
    """The glossary's English terms: "matched 岭回归 → ridge regression" names the catalog's
    own words, read in the other language."""
    forms = {form for term in default_glossary().terms() for form in term.en_text}
    return sorted(forms, key=len, reverse=True)


def _leftover(text: str, data: Iterable[str]) -> str:
    """The text with markdown escapes, code, links, mentions and catalog data removed."""
    text = NOT_TEXT.sub(" ", re.sub(r"\\(.)", r"\1", text))
    for item in data:
        text = text.replace(item, " ")
        if len(item) > 40:  # titles cut short with an ellipsis
            text = re.sub(re.escape(item[:30]) + r"[^\n*]*…", " ", text)
    return text


Run = Callable[..., Awaitable[Answer]]


async def _session_walk(run: Run, standin: StandIn, guild: Guild, people: People,
                        clock: FakeClock, papers: list[Paper], bot: PaperclubBot) -> list[Answer]:
    """`/group`, `/present`, `/session`, `/history` and `/export`, with a refusal, a reminder
    and the thread's notices."""
    standin.set_clock(clock)
    await run("session schedule", {"paper": papers[1].id, "when": "2026-12-03 18:00"},
              user=people.alice)
    await run("group organiser-role", {"role": people.admin_role.id})
    await run("group timezone", {"timezone": "Asia/Taipei"})
    await run("group reminders", {"before": "24h 1h"})
    await run("group reminders", {"before": "soon"})
    await run("present volunteer", user=people.alice)
    await run("present volunteer", user=people.carol)
    await run("session schedule", {"paper": papers[1].id, "when": "2026-12-01 18:00"})
    await run("session schedule", {"paper": papers[2].id, "when": "2026-12-05 18:00"})
    await run("session schedule", {"paper": papers[2].id, "when": "2020-01-01 18:00"})
    await run("session list")
    await run("session move", {"session": 2, "when": "2026-12-06 18:00"})
    await run("present skip", user=people.alice)
    await run("present swap", {"member": people.carol.id}, user=people.alice)
    await run("present swap", {"member": people.bob.id}, user=people.alice)
    await run("present leave", user=people.carol)
    clock.advance(hours=2)  # 24 h before session 1 (18:00 in Taipei is 10:00 UTC)
    assert [s.outcome for s in await bot.services.reminders.tick()] == ["posted"]
    await run("session done", {"session": 1, "notes": "good"}, user=people.carol)
    await run("session done", {"session": 1, "notes": "good"})
    await run("session cancel", {"session": 2})
    await run("history", user=people.carol)
    await run("history", in_guild=False)
    await run("export", {"what": "history", "format": "markdown"}, user=people.carol)
    await run("export", {"what": "bookmarks", "format": "bibtex"}, user=people.carol)
    general = guild.channel("general")
    posted = [m for m in standin.messages(general)
              if m.embeds and "📅" in str(m.embeds[0].get("description"))]
    threads = [m.thread for m in posted if m.thread is not None]
    assert len(posted) == 2 and threads
    return [*posted, *(m for thread in threads for m in standin.messages(thread))]


async def _adding_walk(run: Run, standin: StandIn, guild: Guild, people: People,
                       arxiv: ArxivStandIn, locale: str) -> list[Answer]:
    """`/group adding`, `/catalog add` (refused, added, unknown, malformed, arXiv busy), the
    message command and `/suggest` with a link."""
    await run("catalog add", {"link": "2401.01234"}, user=people.alice)
    await run("group adding", {"who": "managers", "curator-role": people.admin_role.id})
    await run("group adding", {"who": "curators", "curator-role": people.admin_role.id})
    await run("catalog add", {"link": "2401.01234"}, user=people.alice)
    await run("group adding", {"who": "curators"})
    await run("catalog add", {"link": "2401.01234 2509.99999 arXiv:2401.1"})
    await run("catalog add", {"link": "no id"})
    arxiv.fail(ArxivFault.rate_exceeded(), times=3)
    await run("catalog add", {"link": "hep-th/9901001"})
    await run("suggest", {"paper": "arxiv.org/abs/2312.04567"})
    await run("group adding", {"who": "anyone"})
    posted = await standin.say(guild.channel("general"), people.alice,
                               "https://arxiv.org/abs/2602.01234 and 2401.01234")
    menu = await standin.message_command("Add paper to paperclub", posted, user=people.alice,
                                         locale=locale)
    return [await _answer(menu)]


async def _feed_walk(run: Run, people: People) -> None:
    """`/feed`: follow, a refused query, a duplicate, the list, a refusal, removal."""
    await run("feed add", {"query": FEED_QUERY})
    await run("feed add", {"query": "title:grokking"})
    await run("feed add", {"query": "cat:cs.LG AND"})
    await run("feed add", {"query": FEED_QUERY})
    await run("feed list")
    await run("feed remove", {"feed": 1}, user=people.alice)
    await run("feed remove", {"feed": 99})
    await run("feed remove", {"feed": 1})
    await run("feed list")


async def _answer(handle: InteractionHandle) -> Answer:
    response = await handle.response()
    return await handle.followup() if response.type == 5 else response


async def test_every_command_answers_in_chinese(bot: PaperclubBot, standin: StandIn,
                                                guild: Guild, people: People, locale: str,
                                                bundled_papers: list[Paper],
                                                clock: FakeClock, arxiv: ArxivStandIn) -> None:
    lang = Lang.from_locale(locale)
    answers: list[Answer] = []

    async def run(command: str, options: dict[str, OptionValue] | None = None, *,
                  user: User = people.bob, in_guild: bool = True) -> Answer:
        handle = await standin.slash(command, options or {}, guild=guild if in_guild else None,
                                     user=user, locale=locale)
        answer = await _answer(handle)
        answers.append(answer)
        return answer

    await run("paper", {"query": "grokking"})
    await run("paper", {"query": "regression"})
    await run("paper", {"query": "qqqzzzxx"})
    await run("paper", {"query": "year:20x6"})
    await run("paper", {"query": "distillation", "author": "xu", "honours": "spotlight",
                        "venue": "workshop"})
    await run("random-paper")
    await run("catalog stats")
    for time, zone in (("25:00", "Asia/Taipei"), ("9h", "Asia/Taipei"), ("09:00", "UTC+3"),
                       ("09:00", "Etc/GMT+3"), ("09:00", "CST"), ("09:00", "Asia/Taipe")):
        await run("digest set", {"channel": guild.channel("papers").id, "time": time,
                                 "timezone": zone})
    await run("digest set", {"channel": guild.channel("papers").id, "time": "09:00",
                             "timezone": "Asia/Taipei"})
    await run("digest status")
    preview = await run("digest preview")
    authors = next(f["value"] for f in preview.embeds[0]["fields"]
                   if f["name"] == t(lang, "card.authors"))
    topic = "author:" + authors.split(",")[0].split()[-1]
    await run("subscribe", {"topic": topic, "delivery": "dm"})
    await run("subscribe", {"topic": topic, "delivery": "mention"}, user=people.alice)
    await run("subscribe", {"topic": "grokking"}, user=people.alice)
    for refused_topic in ("🤖", "year:20x6", "grokking " * 11, "honours:best"):
        await run("subscribe", {"topic": refused_topic}, user=people.alice)
    await run("subscriptions", user=people.alice)
    await run("subscriptions-admin")
    await run("subscriptions-admin", {"topic": "grokking"})
    await run("suggest", {"paper": "grokking", "note": "值得一读"}, user=people.alice)
    await run("suggest", {"paper": "grokking"})
    await run("suggest", {"paper": "grokking"})
    await run("queue show")
    await run("queue remove", {"paper": "grokking"}, user=people.carol)
    await run("queue remove", {"paper": "qqqzzzxx"}, user=people.carol)
    await run("suggest", {"paper": "grokking"}, in_guild=False)
    await run("suggest", {"paper": "distillation"}, user=people.carol)
    await run("vote start", user=people.alice)
    start = await standin.slash("vote start", {"from": 2, "hours": 1}, guild=guild,
                                user=people.bob, locale=locale)
    vote_message = await start.answer()  # the ballot (a followup after a write-wait deferral)
    answers.append(vote_message)
    await run("vote start")
    buttons = [str(c["custom_id"]) for c in vote_message.walk_components()
               if c.get("type") == 2]
    for button in (buttons[0], buttons[0], buttons[1]):
        answers.append(await (await standin.click(vote_message, button, user=people.alice,
                                                  locale=locale)).response())
    await run("vote status")
    close = await standin.slash("vote close", guild=guild, user=people.bob, locale=locale)
    await close.response()
    answers.append(await close.followup())
    await run("vote status")
    answers += standin.messages(guild.channel("general"))
    await run("bookmark", {"paper": "grokking"}, user=people.alice)
    await run("bookmark", {"paper": "grokking"}, user=people.alice)
    await run("bookmarks", user=people.alice)
    await run("bookmark", {"paper": "grokking", "remove_it": True}, user=people.alice)
    await run("bookmark", {"paper": "grokking", "remove_it": True}, user=people.alice)
    await run("bookmarks", user=people.alice)
    await run("digest now")
    await bot.background_done()
    await run("digest status")
    await run("unsubscribe", {"topic": "grokking"}, user=people.alice)
    refused = await run("digest off", user=people.alice)
    assert t(lang, "perm.manage_guild") in refused.content
    await run("digest off")
    await _feed_walk(run, people)
    await run("forget-me", user=people.alice, in_guild=False)
    posts = standin.messages(guild.channel("papers"))
    dms = standin.messages(standin.dm_channel(people.bob))
    assert posts and posts[0].content and dms, "the walk must reach a post, a mention and a DM"
    answers += [*posts, *dms, *await _session_walk(run, standin, guild, people, clock,
                                                   bundled_papers, bot)]
    answers += await _adding_walk(run, standin, guild, people, arxiv, locale)
    added = [p async for p in bot.services.catalog.papers.iter_papers() if p.links.arxiv_id]
    assert len(added) == 3  # hep-th/9901001 met a busy arXiv
    said = "\n".join(a.content for a in answers)
    assert t(lang, "adding.busy") in said and "`2509.99999`" in said and "`arXiv:2401.1`" in said

    data = [topic, *_catalog_data([*bundled_papers, *added], lang), *_glossary_english()]
    assert not [a for a in answers if "Only organisers" in a.content]
    texts = [_leftover(text, data) for answer in answers for text in _texts(answer)]
    english = [words for text in texts for words in ENGLISH_RUN.findall(text)]
    assert not english, f"English left in {locale} replies: {english}"
    words = {word for text in texts for word in LATIN_WORD.findall(text)} - NAMES
    assert not words, f"English words left in {locale} replies: {sorted(words)}"
    if lang is Lang.ZH_HANT:
        simplified = [text for text in texts if TO_TRADITIONAL.convert(text) != text]
        assert not simplified, f"Simplified characters in zh-TW replies: {simplified}"
