"""Finding a post of ours again after a crash: the marker in its footer is read as a whole."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from bot.client.own_posts import carries_marker
from bot.features.digest.scheduler import digest_marker
from bot.features.sessions.reminders import reminder_marker
from bot.features.votes.service import vote_marker
from domain.feeds import announcement_marker
from domain.sessions import Place, Session, SessionStatus


def _session(session_id: int = 3, revision: int = 1) -> Session:
    return Session(id=session_id, guild_id=1, paper_id="p", starts_at=datetime(2026, 12, 3,
                   tzinfo=UTC), presenter_id=None, place=Place(), channel_id=5,
                   status=SessionStatus.SCHEDULED, revision=revision)


@pytest.mark.parametrize(("footer", "marker"), [
    (announcement_marker(1, 2), announcement_marker(1, 2)),
    (f"ICML 2026 · {digest_marker(date(2026, 12, 1))}", digest_marker(date(2026, 12, 1))),
    (vote_marker(7), vote_marker(7)),
    (reminder_marker(_session(), 60), reminder_marker(_session(), 60)),
])
def test_a_footer_carrying_the_marker_is_ours(footer: str, marker: str) -> None:
    assert carries_marker(footer, marker)


@pytest.mark.parametrize(("footer", "marker"), [
    (announcement_marker(1, 23), announcement_marker(1, 2)),  # a later poll's post
    (announcement_marker(11, 2), announcement_marker(1, 2)),
    (vote_marker(12), vote_marker(1)),
    ("", vote_marker(1)),
    (reminder_marker(_session(revision=2), 60), reminder_marker(_session(), 60)),
    (reminder_marker(_session(33), 60), reminder_marker(_session(3), 60)),
    (reminder_marker(_session(), 600), reminder_marker(_session(), 60)),
    (f"{digest_marker(date(2026, 12, 1))} · later", digest_marker(date(2026, 12, 1))),
])
def test_a_longer_marker_is_another_post(footer: str, marker: str) -> None:
    assert not carries_marker(footer, marker)


def test_markers_members_read_are_short_and_in_no_language() -> None:
    """Members see the markers in footers: no internal names (`paperclub-vote-1.`,
    `paperclub session 1.1 -60m`), no word of any language, a few characters."""
    markers = [digest_marker(date(2026, 12, 1)), vote_marker(1), announcement_marker(1, 2),
               reminder_marker(_session(), 60), reminder_marker(_session(revision=2), 1440)]
    for marker in markers:
        assert not any(c.isalpha() for c in marker), marker
        assert len(marker) <= 16, marker
