"""Mention batches: every id once, in order, at most 100 per message, within the room."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.shared.lang import Lang
from bot.shared.mentions import CONTENT_LIMIT, MAX_USERS, mention_batches, people, people_room
from bot.shared.messages import t

SNOWFLAKES = st.integers(min_value=1, max_value=2**63 - 1)


@given(st.lists(SNOWFLAKES, max_size=400, unique=True))
def test_batches_keep_every_id_once_within_the_limits(ids: list[int]) -> None:
    batches = mention_batches(ids)
    assert [u for batch in batches for u in batch] == ids
    for batch in batches:
        assert 1 <= len(batch) <= MAX_USERS
        assert len(people(batch)) <= people_room()
        for lang in Lang:
            assert len(t(lang, "notify.mention", people=people(batch), topics="")) < CONTENT_LIMIT


def test_real_snowflakes_fill_under_90_per_message_and_short_ids_stop_at_100() -> None:
    long_ids = [1_577_096_027_599_536_159 + n for n in range(250)]
    assert all(len(b) < 90 for b in mention_batches(long_ids))
    assert [len(b) for b in mention_batches(list(range(1, 251)))] == [100, 100, 50]
