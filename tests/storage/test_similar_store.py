"""Followers of papers like their bookmarks: one threshold per (server, member), both backends."""

from __future__ import annotations

from tests.backends import Backend

GUILD, OTHER_GUILD, ANA, BO = 42, 43, 1001, 1002


async def test_follow_change_and_unfollow(backend: Backend) -> None:
    store = backend.similar()
    assert await store.threshold(GUILD, ANA) is None
    assert await store.follow(GUILD, ANA, 90) is None
    assert await store.follow(GUILD, ANA, 75) == 90
    assert await store.threshold(GUILD, ANA) == 75
    assert await store.threshold(OTHER_GUILD, ANA) is None
    await store.follow(GUILD, BO, 100)
    await store.follow(OTHER_GUILD, BO, 0)
    assert await store.in_guild(GUILD) == {ANA: 75, BO: 100}
    assert await store.in_guild(OTHER_GUILD) == {BO: 0}
    assert await store.guilds() == [GUILD, OTHER_GUILD]
    assert await store.unfollow(GUILD, ANA)
    assert not await store.unfollow(GUILD, ANA)
    assert await store.in_guild(GUILD) == {BO: 100}


async def test_forget_removes_a_member_everywhere(backend: Backend) -> None:
    store = backend.similar()
    await store.follow(GUILD, ANA, 80)
    await store.follow(OTHER_GUILD, ANA, 60)
    await store.follow(GUILD, BO, 70)
    assert await store.forget(ANA) == 2
    assert await store.forget(ANA) == 0
    assert await store.in_guild(GUILD) == {BO: 70}
    assert await store.guilds() == [GUILD]
