""""Papers like my bookmarks" end to end through both stand-ins: a member who bookmarked papers
follows `/subscribe kind:similar`, sees it in `/subscriptions` in words, and is told by one DM
of the paper `/catalog add` brings that is close to their bookmarks, not of the unrelated one."""

from __future__ import annotations

import pytest

from arxiv_standin import ArxivStandIn
from bot.client.bot import PaperclubBot
from discord_standin import Guild, Member, StandIn, User
from tests.group import People

CLOSE_ID, CLOSE_TITLE = "2401.01234", "Sparse Circuits Emerge Late"  # on grokking
FAR_ID, FAR_TITLE = "math/0309136", "Knot Floer Homology"


@pytest.fixture
def guild(people: People) -> Guild:
    """alice: a member; bob: Manage Server (may add papers)."""
    return Guild("Reading Group", channels=["general", "papers"],
                 members=[people.alice, Member(people.bob, roles=[people.admin_role]),
                          people.carol])


def _dms(standin: StandIn, user: User) -> list[str]:
    return [m.content for m in standin.messages(standin.dm_channel(user))]


async def test_a_new_paper_like_the_bookmarks_is_told_once_and_an_unrelated_one_is_not(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        arxiv: ArxivStandIn) -> None:
    for paper in ("To Grok Grokking", "How the Hessian-Spectrum of Neural Networks"):
        marked = await standin.slash("bookmark", {"paper": paper}, guild=guild,
                                     user=people.alice)
        await marked.reply()
    followed = await standin.slash("subscribe", {"kind": "similar"}, guild=guild,
                                   user=people.alice)
    reply = (await followed.reply()).content
    assert "90 of 100" in reply and "above 90% of the catalog" in reply
    assert "Judged from the 2 papers you bookmarked" in reply
    nothing = await standin.slash("subscribe", {"kind": "similar", "threshold": 40},
                                  guild=guild, user=people.carol)
    assert "haven't bookmarked" in (await nothing.reply()).content
    mine = await standin.slash("subscriptions", guild=guild, user=people.alice)
    listed = (await mine.reply()).content
    assert "Papers like your bookmarks and 👍" in listed and "90 of 100" in listed

    added = await standin.slash("catalog add", {"link": f"{CLOSE_ID} {FAR_ID}"}, guild=guild,
                                user=people.bob)
    assert CLOSE_TITLE in (await added.reply()).content
    await bot.background_done()
    (dm,) = _dms(standin, people.alice)
    assert CLOSE_TITLE in dm and "like your bookmarks (" in dm and FAR_TITLE not in dm
    assert dm.startswith("New papers in **Reading Group** are like your bookmarks and 👍:")
    assert _dms(standin, people.carol) == []  # nothing liked: nothing is close

    changed = await standin.slash("subscribe", {"kind": "similar", "threshold": 100},
                                  guild=guild, user=people.alice)
    assert "changed from 90 to 100 of 100" in (await changed.reply()).content
    stopped = await standin.slash("unsubscribe", {"kind": "similar"}, guild=guild,
                                  user=people.alice)
    assert "no longer follow papers like your bookmarks" in (await stopped.reply()).content
    after = await standin.slash("subscriptions", guild=guild, user=people.alice)
    assert "Papers like your bookmarks" not in (await after.reply()).content
    bare = await standin.slash("subscribe", {}, guild=guild, user=people.alice)
    assert "Name a topic" in (await bare.reply()).content  # kind:topic needs its topic
