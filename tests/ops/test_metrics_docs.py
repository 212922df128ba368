"""docs/operators/operations.md lists every metric the bot has, and only those, and every
`[ops]` setting."""

from __future__ import annotations

from pathlib import Path

from bot.ops.metrics import BotMetrics
from bot.ops.settings import OpsSettings

PAGE = Path(__file__).resolve().parents[2] / "docs" / "operators" / "operations.md"


def documented_metrics() -> set[str]:
    """The metric families the page's table lists (`_total` is the counters' sample)."""
    return {line.split("`")[1].removesuffix("_total")
            for line in PAGE.read_text(encoding="utf-8").splitlines()
            if line.startswith("| `paperclub_")}


def test_every_metric_is_documented_and_every_documented_one_exists() -> None:
    families = {family.name for family in BotMetrics().registry.collect()}
    assert documented_metrics() == families


def test_every_ops_setting_is_shown_on_the_page() -> None:
    text = PAGE.read_text(encoding="utf-8")
    for key in OpsSettings.model_fields:
        assert f"\n{key} = " in text, key
