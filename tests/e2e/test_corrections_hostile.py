"""Hostile text in a proposal (markdown, @everyone, role and member mentions, code fences, a
lone surrogate, a value thousands of characters long) is shown as text and pings nobody: on the
review message, in /corrections list, in /corrections history, and in the export."""

from __future__ import annotations

import json

from bot.client.bot import PaperclubBot
from discord_standin import Guild, Message, StandIn
from domain.paper import Paper
from tests.e2e.test_corrections import _button, _propose, _review
from tests.group import People


def _silent(message: Message | None) -> None:
    assert message is not None
    assert message.pings.everyone is False and not message.pings.users
    assert not message.pings.roles


async def test_hostile_text_is_shown_as_text_and_never_pings(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        bundled_papers: list[Paper]) -> None:
    paper = bundled_papers[6]
    role = guild.roles[0].id if guild.roles else 1
    loud = (f"@everyone @here <@&{role}> <@{people.bob.id}> **粗** __下__ ~~删~~ "
            "```diff\n+ 假的\n``` [点我](https://evil.example) \ud800")
    await (await standin.slash("group corrections", {"channel": guild.channel("papers").id},
                               guild=guild, user=people.bob)).reply()
    summary = loud + " " + "长" * (2999 - len(loud))
    _, answer = await _propose(standin, guild, people.alice, paper, "summary_zh", summary,
                               loud)
    assert "sent to the curators" in answer
    review = _review(standin, guild)
    _silent(review)
    shown = json.dumps(review.embeds, ensure_ascii=False)
    assert "```diff\\n+ 假的" not in shown and "\ud800" not in shown  # the fence cannot close
    assert "\\\\*\\\\*粗" in shown and "\\\\_\\\\_下" in shown
    approve = await standin.click(review, _button(review, "approve"), user=people.bob)
    await approve.response()
    _silent(standin.message(review.id))
    reverted = await standin.slash("corrections revert", {"correction": 1, "reason": loud[:400]},
                                   guild=guild, user=people.bob)
    assert "withdrawn" in ((await reverted.reply()).content or "")
    for command, options in (("corrections list", {"status": "reverted"}),
                             ("corrections history", {"paper": paper.id})):
        handle = await standin.slash(command, options, guild=guild, user=people.carol)
        shown_to = await handle.answer()
        content = shown_to.content or ""
        _silent(shown_to)
        assert "\\*\\*粗" in content and "\ud800" not in content and len(content) <= 2000
        assert "@everyone" not in content.replace("@\u200beveryone", "")
