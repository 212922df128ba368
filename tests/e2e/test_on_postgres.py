"""Key flows of the e2e suite again with the bot on PostgreSQL: the same tests, collected here
with `settings` pointing at a fresh database on the throwaway server (the rest of the suite runs
on SQLite only, so the whole suite's time does not double)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.settings import Settings, load_settings
from tests.e2e.test_corrections import (
    test_forget_me_leaves_the_correction_by_a_former_member,
    test_propose_review_approve_once_and_trace,
)
from tests.e2e.test_digest import (
    test_a_failed_post_is_retried_by_digest_now_after_set,
    test_digest_now_twice_posts_once,
    test_set_then_due_time_gives_one_post_and_one_thread,
    test_skip_discussed_leaves_out_what_the_group_discussed,
)
from tests.e2e.test_group_queue import test_suggest_plus_one_and_show
from tests.e2e.test_group_vote import test_vote_survives_restarts_and_is_announced_exactly_once
from tests.e2e.test_paper_command import test_paper_grokking_answers_with_its_card
from tests.e2e.test_reading_list import (
    test_forget_me_erases_bookmarks_ballots_and_anonymises_suggestions,
)
from tests.e2e.test_resume_leases import (
    forgetful,
    test_two_processes_resume_a_crashed_reminder_claim_once,
    test_two_processes_resume_a_crashed_vote_announcement_once,
)
from tests.e2e.test_subscriptions import (
    test_digest_mentions_exactly_the_matching_members_and_dms_the_others,
    test_new_papers_give_one_batched_dm_and_none_on_reload,
    test_subscribe_list_unsubscribe_and_limits,
)
from tests.group import People

ON_POSTGRES = (
    test_a_failed_post_is_retried_by_digest_now_after_set,
    test_digest_now_twice_posts_once,
    test_set_then_due_time_gives_one_post_and_one_thread,
    test_skip_discussed_leaves_out_what_the_group_discussed,
    test_suggest_plus_one_and_show,
    test_vote_survives_restarts_and_is_announced_exactly_once,
    test_paper_grokking_answers_with_its_card,
    test_forget_me_erases_bookmarks_ballots_and_anonymises_suggestions,
    test_digest_mentions_exactly_the_matching_members_and_dms_the_others,
    test_new_papers_give_one_batched_dm_and_none_on_reload,
    test_subscribe_list_unsubscribe_and_limits,
    test_two_processes_resume_a_crashed_reminder_claim_once,
    test_two_processes_resume_a_crashed_vote_announcement_once,
    test_propose_review_approve_once_and_trace,
    test_forget_me_leaves_the_correction_by_a_former_member,
)
"""The flows run here: the paper of the day (claims, retries, skip-discussed), subscriptions
and the outbox, the queue, a vote across restarts, bookmarks, forgetting, `/paper`, two
processes racing to resume one crashed reminder or vote claim, a correction decided once and
its proposer forgotten."""


FIXTURES = (forgetful,)
"""Fixtures of the tests above that conftest does not provide."""


@pytest.fixture
def settings(tmp_path: Path, people: People, postgres_url: str) -> Settings:
    """The e2e settings with the database on PostgreSQL (a SQLite path that must stay unused)."""
    return load_settings(None, {
        "PAPERCLUB_DATABASE__URL": postgres_url,
        "PAPERCLUB_DATABASE__PATH": str(tmp_path / "unused.db"),
        "PAPERCLUB_DISCORD__SYNC": "global",
        "PAPERCLUB_DISCORD__OWNER_IDS": f"[{people.bob.id}]",
        "PAPERCLUB_DIGEST__TICK_SECONDS": "3600",
        "PAPERCLUB_SUBSCRIPTIONS__DM_PER_SECOND": "50",
    })


@pytest.fixture(autouse=True)
def sqlite_stays_unused(tmp_path: Path) -> Iterator[None]:
    """Nothing falls back to a SQLite file."""
    yield
    assert not (tmp_path / "unused.db").exists()
