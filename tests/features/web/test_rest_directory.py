"""The web page's own process asks Discord's REST API (here the stand-in) for a server's name
and language and members' display names: remembered for a while, and a Discord failure gives
no name and the default, never an error."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.client.rest_directory import RestDirectory
from bot.features.web.directory import (
    DEFAULT_SERVER,
    FAILED_SECONDS,
    NAME_LOOKUPS,
    NAME_SECONDS,
    SERVER_SECONDS,
    ServerInfo,
    answer_names,
)
from bot.shared.lang import Lang
from discord_standin import Fault, Guild, Member, StandIn, User

ADA = User("ada", global_name="Ada Lovelace")
BOB = User("bob")
CAROL = User("carol", global_name="Carol")
STRANGER = User("stranger")


class Ticks:
    """A monotonic clock the test moves."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def group() -> Guild:
    return Guild("读书会", members=[ADA, BOB, Member(CAROL, nick="Carol Reader")], locale="zh-TW")


@pytest.fixture
async def standin(group: Guild) -> AsyncIterator[StandIn]:
    async with StandIn(guilds=[group], token="web-token") as server:
        yield server
        assert server.internal_errors == []


@pytest.fixture
def ticks() -> Ticks:
    return Ticks()


@pytest.fixture
async def directory(standin: StandIn, ticks: Ticks) -> AsyncIterator[RestDirectory]:
    found = RestDirectory("web-token", monotonic=ticks)
    assert await found.start()
    yield found
    await found.close()


def _reads(standin: StandIn, path: str) -> int:
    return len(standin.requests("GET", path))


async def test_server_and_display_names_come_from_rest(
        group: Guild, standin: StandIn, directory: RestDirectory) -> None:
    assert await directory.server(group.id) == ServerInfo("读书会", Lang.ZH_HANT)
    names = [await directory.member_name(group.id, user.id) for user in (ADA, BOB, CAROL)]
    assert names == ["Ada Lovelace", "bob", "Carol Reader"]  # global name, username, nickname
    assert await directory.member_name(group.id, STRANGER.id) is None
    assert await directory.server(424242) == DEFAULT_SERVER  # a server Discord does not know
    assert _reads(standin, f"/guilds/{group.id}/members/") == 4


async def test_answers_are_remembered_then_asked_again(
        group: Guild, standin: StandIn, directory: RestDirectory, ticks: Ticks) -> None:
    for _ in range(3):
        await directory.server(group.id)
        assert await directory.member_name(group.id, STRANGER.id) is None  # remembered too
    assert _reads(standin, f"/guilds/{group.id}") == 2  # the guild, and the stranger once
    ticks.now += SERVER_SECONDS
    await directory.server(group.id)
    await directory.member_name(group.id, STRANGER.id)
    assert _reads(standin, f"/guilds/{group.id}") == 3  # the server again, not the member
    ticks.now += NAME_SECONDS
    await directory.member_name(group.id, STRANGER.id)
    assert _reads(standin, f"/members/{STRANGER.id}") == 2


async def test_a_discord_failure_is_no_name_and_the_last_answer(
        group: Guild, standin: StandIn, directory: RestDirectory, ticks: Ticks) -> None:
    assert (await directory.server(group.id)).name == "读书会"
    ticks.now += SERVER_SECONDS
    standin.fail("GET", f"/guilds/{group.id}", Fault.error(403, 50001, "Missing Access"))
    standin.fail("GET", "/guilds/*/members/*", Fault.error(403, 50001, "Missing Access"))
    assert (await directory.server(group.id)).name == "读书会"  # the last answer stands
    assert await directory.member_name(group.id, ADA.id) is None
    ticks.now += FAILED_SECONDS  # asked again soon after a failure
    assert await directory.member_name(group.id, ADA.id) == "Ada Lovelace"


async def test_unreachable_or_refused_discord_gives_the_defaults(
        group: Guild, standin: StandIn) -> None:
    refused = RestDirectory("not-the-token")
    assert not await refused.start()
    assert await refused.server(group.id) == DEFAULT_SERVER
    assert await refused.member_name(group.id, ADA.id) is None
    await refused.close()


async def test_one_answer_asks_about_a_bounded_number_of_members(
        group: Guild, standin: StandIn, directory: RestDirectory) -> None:
    name_of = answer_names(directory, group.id)
    for user_id in range(1, NAME_LOOKUPS + 11):
        assert await name_of(user_id) is None
    assert await name_of(1) is None  # once per answer
    assert _reads(standin, "/members/") == NAME_LOOKUPS


async def test_the_rest_guild_has_discords_shape(
        group: Guild, standin: StandIn, directory: RestDirectory) -> None:
    data = await directory.client.http.get_guild(group.id, with_counts=True)
    required = {"id", "name", "icon", "description", "splash", "features", "banner", "owner_id",
                "preferred_locale", "roles", "emojis", "stickers", "verification_level",
                "premium_tier", "nsfw_level", "approximate_member_count"}
    assert required <= set(data)
    assert not {"channels", "members", "unavailable", "joined_at"} & set(data)
    assert data["approximate_member_count"] == len(group.members)  # type: ignore[typeddict-item]
    member = await directory.client.http.get_member(group.id, CAROL.id)
    assert {"user", "nick", "roles", "joined_at", "premium_since",
            "communication_disabled_until", "banner", "flags"} <= set(member)
