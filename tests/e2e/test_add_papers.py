"""Adding papers from arXiv end to end, through both stand-ins: the message command "Add paper to
paperclub", `/catalog add`, who may add (`/group adding`), arXiv's throttling, `/suggest` with a
link, and subscribers told once."""

from __future__ import annotations

import pytest

from arxiv_standin import BUNDLED_TITLE, ArxivFault, ArxivStandIn
from bot.client.bot import PaperclubBot
from discord_standin import Channel, Guild, Member, Role, StandIn, User
from tests.group import People

MENU = "Add paper to paperclub"
NEW_ID, NEW_TITLE = "2401.01234", "Sparse Circuits Emerge Late"
KNOWN_ID = "2602.01234"


@pytest.fixture
def curators() -> Role:
    return Role("curators")


@pytest.fixture
def guild(people: People, curators: Role) -> Guild:
    """alice: a plain member; bob: Manage Server; carol: the curator role."""
    return Guild("Reading Group", channels=["general", "papers"], roles=[curators],
                 members=[people.alice, Member(people.bob, roles=[people.admin_role]),
                          Member(people.carol, roles=[curators])])


def _channel(guild: Guild, name: str = "papers") -> Channel:
    return next(c for c in guild.channels if c.name == name)


def _dms(standin: StandIn, user: User) -> list[str]:
    return [m.content for m in standin.messages(standin.dm_channel(user))]


async def test_the_message_command_adds_a_new_paper_links_a_known_one_and_explains_a_bad_id(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        arxiv: ArxivStandIn) -> None:
    subscribed = await standin.slash("subscribe", {"topic": "sparse circuits"}, guild=guild,
                                     user=people.alice)
    assert "sparse circuits" in (await subscribed.reply()).content
    posted = await standin.say(
        _channel(guild), people.alice,
        f"Two for Friday: https://arxiv.org/abs/{KNOWN_ID}v2 and arXiv:{NEW_ID} "
        "(not arXiv:2401.123)")
    handle = await standin.message_command(MENU, posted, user=people.bob)
    answer = await handle.reply()
    lines = answer.content.splitlines()
    assert lines[0].startswith(f"Linked `{KNOWN_ID}v2` to a paper already in the catalog: ")
    assert lines[1].startswith(f"Added `{NEW_ID}v1`: Grokking Beyond ℓ\\_2: {NEW_TITLE}")
    assert lines[2] == ("`arXiv:2401.123` is not an arXiv id: the number after the dot is too "
                        "short (4 digits before 2015, 5 since).")
    (embed,) = answer.embeds
    assert embed["title"] == "2 papers from arXiv"
    assert BUNDLED_TITLE in embed["description"] and NEW_TITLE in embed["description"]
    assert len(arxiv.requests) == 1  # one id_list request for both ids
    assert arxiv.requests[0].params["id_list"] == f"{KNOWN_ID}v2,{NEW_ID}"

    again = await standin.message_command(MENU, posted, user=people.bob)
    assert "is already in the catalog" in (await again.reply()).content
    await bot.background_done()
    (dm,) = _dms(standin, people.alice)  # told once, not again on the second add
    assert NEW_TITLE in dm
    card = await standin.slash("paper", {"query": "sparse circuits emerge"}, guild=guild)
    (shown,) = (await card.reply()).embeds
    assert shown["url"] == f"https://arxiv.org/abs/{NEW_ID}"


async def test_who_may_add_is_set_per_server_and_refusals_say_who_can(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People, curators: Role,
        arxiv: ArxivStandIn) -> None:
    refused = await standin.slash("catalog add", {"link": NEW_ID}, guild=guild, user=people.alice)
    answer = await refused.reply()
    assert answer.ephemeral
    assert answer.content == "Only members with Manage Server can add papers to the catalog."
    carol = await standin.slash("catalog add", {"link": NEW_ID}, guild=guild, user=people.carol)
    assert "Manage Server" in (await carol.reply()).content  # no curator role set yet

    setting = await standin.slash("group adding", {"who": "curators", "curator-role": curators},
                                  guild=guild, user=people.bob)
    assert (await setting.reply()).content == (
        f"Members with Manage Server and members of <@&{curators.id}> can add papers from arXiv.")
    refused = await standin.slash("catalog add", {"link": NEW_ID}, guild=guild, user=people.alice)
    assert (await refused.reply()).content == (
        f"Only members with Manage Server or the role <@&{curators.id}> can add papers to the "
        "catalog.")
    assert arxiv.requests == []
    added = await standin.slash("catalog add", {"link": f"https://arxiv.org/pdf/{NEW_ID}.pdf"},
                                guild=guild, user=people.carol)
    answer = await added.reply()
    assert answer.content.startswith(f"Added `{NEW_ID}v1`")
    (embed,) = answer.embeds
    assert NEW_TITLE in embed["title"]

    everyone = await standin.slash("group adding", {"who": "anyone"}, guild=guild,
                                   user=people.bob)
    assert (await everyone.reply()).content == "Every member can now add papers from arXiv."
    by_alice = await standin.slash("catalog add", {"link": "hep-th/9901001"}, guild=guild,
                                   user=people.alice)
    assert (await by_alice.reply()).content.startswith("Added `hep-th/9901001v1`")
    nothing = await standin.slash("catalog add", {"link": "no ids here"}, guild=guild,
                                  user=people.alice)
    assert (await nothing.reply()).content.startswith("No arXiv link or id found")


async def test_arxiv_answering_503_then_200_is_waited_out_and_rate_exceeded_is_busy(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        arxiv: ArxivStandIn) -> None:
    arxiv.fail(ArxivFault.unavailable(retry_after=5))
    handle = await standin.slash("catalog add", {"link": NEW_ID}, guild=guild, user=people.bob)
    assert (await handle.response()).type == 5  # deferred: arXiv may make us wait
    assert (await handle.reply()).content.startswith(f"Added `{NEW_ID}v1`")
    assert [r.status for r in arxiv.requests] == [503, 200]

    arxiv.fail(ArxivFault.rate_exceeded(), times=3)  # every try of this request
    busy = await standin.slash("catalog add", {"link": "2312.04567"}, guild=guild,
                               user=people.bob)
    answer = await busy.reply()
    assert answer.content == "arXiv is busy, try in a minute."
    assert answer.embeds == []
    assert [r.status for r in arxiv.requests][2:] == [503, 503, 503]
    zh = await standin.slash("catalog add", {"link": "2312.04567 2312.9999"}, guild=guild,
                             user=people.bob, locale="zh-CN")
    lines = (await zh.reply()).content.splitlines()
    assert lines[0].startswith("已添加 `2312.04567v3`")
    assert lines[1] == ("`2312.9999` 不是 arXiv 编号："
                        "点号后的数字太短（2015 年以前为 4 位，之后为 5 位）。")


async def test_an_id_arxiv_does_not_know_gets_its_own_line(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    handle = await standin.slash("catalog add", {"link": "2509.99999 0704.0001"}, guild=guild,
                                 user=people.bob, locale="zh-TW")
    lines = (await handle.reply()).content.splitlines()
    assert lines == ["`2509.99999`：arXiv 上沒有這個編號的論文。", lines[1]]
    assert lines[1].startswith("已新增 `0704.0001v1`")


async def test_suggest_takes_an_arxiv_link_adding_the_paper_first(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        arxiv: ArxivStandIn) -> None:
    refused = await standin.slash("suggest", {"paper": f"https://arxiv.org/abs/{NEW_ID}"},
                                  guild=guild, user=people.alice)
    assert (await refused.reply()).content == (
        "Only members with Manage Server can add papers to the catalog.")
    handle = await standin.slash("suggest", {"paper": f"https://arxiv.org/abs/{NEW_ID}",
                                             "note": "short and sweet"},
                                 guild=guild, user=people.bob)
    lines = (await handle.reply()).content.splitlines()
    assert lines[0].startswith(f"Added `{NEW_ID}v1`")
    assert NEW_TITLE in lines[1] and f"<@{people.bob.id}>" in lines[1]
    # once in the catalog, its link names it: a member who may not add can +1 it, and arXiv
    # is not asked again
    plus_one = await standin.slash("suggest", {"paper": f"arXiv:{NEW_ID}"}, guild=guild,
                                   user=people.alice)
    assert (await plus_one.reply()).content.startswith(f"<@{people.alice.id}> +1'd **")
    queue = await standin.slash("queue show", guild=guild, user=people.alice)
    assert NEW_TITLE in str((await queue.reply()).embeds or (await queue.reply()).content)
    assert len(arxiv.requests) == 1


async def test_catalog_stats_names_papers_from_arxiv_without_a_question_mark(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        arxiv: ArxivStandIn) -> None:
    added = await standin.slash("catalog add", {"link": NEW_ID}, guild=guild, user=people.bob)
    await added.reply()
    stats = await standin.slash("catalog stats", guild=guild, user=people.alice)
    names = [f["name"] for f in (await stats.reply()).embeds[0]["fields"]]
    assert "No conference (added from arXiv or imported)" in names
    assert not [n for n in names if n.startswith("?") or "track not given" in n]
