"""Finding a post of ours again after a crash: the marker in its footer is read as a whole."""

from __future__ import annotations

from datetime import date

import pytest

from bot.client.own_posts import carries_marker
from bot.features.digest.scheduler import digest_marker
from bot.features.votes.service import vote_marker
from domain.feeds import announcement_marker


@pytest.mark.parametrize(("footer", "marker"), [
    (announcement_marker(1, 2), announcement_marker(1, 2)),
    (f"ICML 2026 · {digest_marker(date(2026, 12, 1))}", digest_marker(date(2026, 12, 1))),
    (vote_marker(7), vote_marker(7)),
])
def test_a_footer_carrying_the_marker_is_ours(footer: str, marker: str) -> None:
    assert carries_marker(footer, marker)


@pytest.mark.parametrize(("footer", "marker"), [
    (announcement_marker(1, 23), announcement_marker(1, 2)),  # a later poll's post
    (announcement_marker(11, 2), announcement_marker(1, 2)),
    (vote_marker(12), vote_marker(1)),
    ("", vote_marker(1)),
])
def test_a_longer_marker_is_another_post(footer: str, marker: str) -> None:
    assert not carries_marker(footer, marker)
