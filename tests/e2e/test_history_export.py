"""/history and /export end to end: paged, per server, never pinging, files that parse back."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bibtexparser.entrypoint import parse_string
from bibtexparser.middlewares import LatexDecodingMiddleware

from bot.client.bot import PaperclubBot
from discord_standin import Callback, Guild, Member, Message, OptionValue, StandIn
from domain.paper import Paper
from tests.e2e.group_steps import answer, suggest
from tests.group import People

DAY = datetime(2026, 11, 2, 18, 0, tzinfo=UTC)


async def _discussed(bot: PaperclubBot, guild: Guild, papers: list[Paper], *,
                     presenter: int | None, notes: str = "", thread: int | None = 777) -> None:
    """The records `/session done` writes, one a week, the last paper newest."""
    for n, paper in enumerate(papers):
        await bot.services.sessions.history.record_discussed(
            guild.id, paper.id, DAY + timedelta(weeks=n), presenter, notes, thread)


def _file(standin: StandIn, reply: Callback | Message) -> str:
    (attachment,) = reply.attachments
    return standin.attachment_data(attachment).decode()


async def test_history_is_paged_newest_first_with_dates_presenters_and_threads(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        bundled_papers: list[Paper]) -> None:
    papers = bundled_papers[:7]
    await _discussed(bot, guild, papers, presenter=people.carol.id)
    handle = await standin.slash("history", guild=guild, user=people.alice)
    listing = await handle.answer()
    assert not listing.pings.users and not listing.pings.everyone
    (embed,) = listing.embeds
    body = embed["description"]
    assert body.index(papers[-1].title_en[:30]) < body.index(papers[-2].title_en[:30])
    newest = int((DAY + timedelta(weeks=6)).timestamp())
    assert f"<t:{newest}:D>" in body and f"<@{people.carol.id}>" in body
    assert f"https://discord.com/channels/{guild.id}/777" in body
    assert embed["footer"]["text"] == "Page 1 of 2"
    button = next(str(c["custom_id"]) for c in listing.walk_components()
                  if c.get("label") == "▶")
    turned = await standin.click(listing, button, user=people.alice)
    await turned.response()
    assert papers[0].title_en[:30] in standin.message(listing.id).embeds[0]["description"]
    other = await standin.add_guild(Guild("Other Group", members=[Member(people.alice)]))
    elsewhere = await answer(standin, "history", guild=other, user=people.alice)
    assert "Nothing discussed yet" in elsewhere.embeds[0]["description"]
    chinese = await standin.slash("history", guild=guild, user=people.alice, locale="zh-CN")
    assert "报告人" in (await chinese.answer()).embeds[0]["description"]


async def test_history_and_export_in_a_dm_are_refused_with_an_explanation(
        bot: PaperclubBot, standin: StandIn, people: People) -> None:
    exports: dict[str, OptionValue] = {"what": "queue", "format": "bibtex"}
    for command, options in (("history", {}), ("export", exports)):
        dm = await answer(standin, command, options, guild=None, user=people.alice)
        assert "only in a server" in dm.content and not dm.attachments


async def test_export_history_as_bibtex_parses_back_to_the_same_titles(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        bundled_papers: list[Paper]) -> None:
    papers = bundled_papers[:4]
    await _discussed(bot, guild, papers, presenter=people.carol.id, notes="50% & {braces}")
    reply = await answer(standin, "export", {"what": "history", "format": "bibtex"},
                         guild=guild, user=people.alice)
    assert "4 papers" in reply.content and not reply.ephemeral
    (attachment,) = reply.attachments
    assert attachment["filename"] == f"paperclub-history-{guild.id}.bib"
    library = parse_string(_file(standin, reply),
                                        append_middleware=[LatexDecodingMiddleware()])
    assert not library.failed_blocks
    titles = [entry.fields_dict["title"].value for entry in library.entries]
    assert titles == [p.title_en for p in reversed(papers)]
    notes = library.entries[0].fields_dict["note"].value
    assert "50% & {braces}" in notes and "carol" in notes
    assert len({entry.key for entry in library.entries}) == 4


async def test_export_markdown_escapes_hostile_notes_and_pings_nobody(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        bundled_papers: list[Paper]) -> None:
    hostile = "@everyone <@&1> **loud** [x](https://e.vil) <script>"
    await suggest(standin, guild, people.alice, bundled_papers[0].id, hostile)
    await _discussed(bot, guild, bundled_papers[1:2], presenter=None, notes=hostile)
    for what in ("queue", "history"):
        handle = await standin.slash("export", {"what": what, "format": "markdown"},
                                     guild=guild, user=people.bob)
        reply = await handle.answer()
        pings = reply.pings
        assert not pings.everyone and not pings.users and not pings.roles
        text = _file(standin, reply)
        assert text.startswith("# Reading group ")
        assert "\\@everyone \\<\\@&1\\> \\*\\*loud\\*\\*" in text
        assert "[x](https://e.vil)" not in text and "<script>" not in text
        assert "   > " in text


async def test_export_bookmarks_is_private_and_cut_to_the_attachment_limit(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        bundled_papers: list[Paper]) -> None:
    for paper in bundled_papers[:12]:
        await answer(standin, "bookmark", {"paper": paper.id}, guild=guild, user=people.alice)
    full = await answer(standin, "export", {"what": "bookmarks", "format": "markdown"},
                        guild=guild, user=people.alice)
    assert full.ephemeral and "12 papers" in full.content
    assert len(_file(standin, full).encode()) > 1500
    standin.attachment_size_limit = 1500
    cut = await answer(standin, "export", {"what": "bookmarks", "format": "bibtex"},
                       guild=guild, user=people.alice)
    assert cut.ephemeral and "of 12 papers" in cut.content
    data = _file(standin, cut)
    assert 0 < len(data.encode()) <= 1500
    kept = parse_string(data).entries
    assert 0 < len(kept) < 12 and f"first {len(kept)} of 12" in cut.content
    nobody = await answer(standin, "export", {"what": "bookmarks", "format": "bibtex"},
                          guild=guild, user=people.bob)
    assert "0 papers" in nobody.content


async def test_a_member_without_the_organiser_role_may_export_the_queue(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        bundled_papers: list[Paper]) -> None:
    await suggest(standin, guild, people.alice, bundled_papers[0].id)
    reply = await answer(standin, "export", {"what": "queue", "format": "bibtex"},
                         guild=guild, user=people.carol)
    assert "(1 paper)" in reply.content
    assert bundled_papers[0].title_en.split()[0] in _file(standin, reply)
