"""Who may add papers from arXiv, per server: the same on SQLite and PostgreSQL."""

from __future__ import annotations

from domain.adding import AddPolicy, WhoAdds
from tests.backends import Backend


async def test_a_server_without_a_rule_has_the_default(backend: Backend) -> None:
    assert await backend.add_policies().policy(1) == AddPolicy(WhoAdds.CURATORS, None)


async def test_rules_are_replaced_per_server(backend: Backend) -> None:
    store = backend.add_policies()
    big_role = 2**63 - 1  # Discord ids use all 64 bits
    await store.set_policy(1, WhoAdds.CURATORS, big_role)
    await store.set_policy(2, WhoAdds.ANYONE, None)
    assert await store.policy(1) == AddPolicy(WhoAdds.CURATORS, big_role)
    await store.set_policy(1, WhoAdds.MANAGERS, None)
    assert await store.policy(1) == AddPolicy(WhoAdds.MANAGERS, None)
    assert await store.policy(2) == AddPolicy(WhoAdds.ANYONE, None)
    assert await store.policy(3) == AddPolicy()


def test_who_may_add_under_each_rule() -> None:
    role, other = 10, 11
    curators = AddPolicy(WhoAdds.CURATORS, role)
    assert curators.allows(manage_guild=False, role_ids=[other, role])
    assert not curators.allows(manage_guild=False, role_ids=[other])
    assert curators.allows(manage_guild=True, role_ids=[])
    assert not AddPolicy().allows(manage_guild=False, role_ids=[role])
    managers = AddPolicy(WhoAdds.MANAGERS, role)
    assert not managers.allows(manage_guild=False, role_ids=[role])
    assert managers.curators is None and curators.curators == role
    assert AddPolicy(WhoAdds.ANYONE).allows(manage_guild=False, role_ids=[])
