"""The model on its own: who a message pings, permissions from roles and overwrites."""

from __future__ import annotations

from discord_standin import Guild, Member, Overwrite, Permission, Role, User, resolve_pings


def test_allowed_mentions_decide_who_is_pinged() -> None:
    content = "<@1> <@&2> @everyone"
    assert resolve_pings(content, {"parse": []}, default_parse=()).users == frozenset()
    pinged = resolve_pings(content, None, default_parse=("users", "roles", "everyone"))
    assert pinged.users == {1} and pinged.roles == {2} and pinged.everyone
    only_users = resolve_pings(content, None, default_parse=("users",))
    assert only_users.users == {1} and not only_users.roles and not only_users.everyone
    assert resolve_pings(content, {"parse": [], "users": ["1"]}, default_parse=()).users == {1}


def test_permissions_follow_roles_and_overwrites() -> None:
    mods = Role("mods", permissions=Permission.MANAGE_MESSAGES)
    alice, bob = User("alice"), User("bob")
    guild = Guild("g", channels=["general", "rules"], members=[alice, Member(bob, roles=[mods])])
    rules = guild.channel("rules")
    rules.overwrites += [
        Overwrite.for_role(guild.everyone, deny=Permission.SEND_MESSAGES),
        Overwrite.for_role(mods, allow=Permission.SEND_MESSAGES),
    ]
    member_alice, member_bob = guild.member(alice), guild.member(bob)
    assert member_alice is not None and member_bob is not None
    assert guild.permissions_in(member_alice, guild.channel("general")) & Permission.SEND_MESSAGES
    assert not guild.permissions_in(member_alice, rules) & Permission.SEND_MESSAGES
    assert guild.permissions_in(member_bob, rules) & Permission.SEND_MESSAGES
