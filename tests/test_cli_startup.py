"""The command line starts without the libraries only some commands need: scikit-learn alone
took seconds to import, and every `paperclub` command paid it before parsing its arguments."""

from __future__ import annotations

import subprocess
import sys

SLOW = ("sklearn",)
"""Imported where recommendations are fitted or text is analysed, never at start."""


def test_the_cli_and_the_bot_import_without_scikit_learn() -> None:
    probe = ("import sys, bot.cli.main, bot.wiring; "
             "print(sorted({m.split('.')[0] for m in sys.modules} & set(sys.argv[1:])))")
    loaded = subprocess.run([sys.executable, "-c", probe, *SLOW], capture_output=True,
                            text=True, check=True).stdout.strip()
    assert loaded == "[]"


def test_recommendations_still_load_it_when_fitting() -> None:
    probe = ("import sys; from bot.features.recommend.features import build; "
             "from domain.paper import Paper; "
             "build([Paper('Grokking at the edge', '顿悟', ('A. Author',)), "
             "Paper('Diffusion models', '扩散模型', ('B. Author',))]); "
             "print('sklearn' in sys.modules)")
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=True).stdout.strip()
    assert loaded == "True"
