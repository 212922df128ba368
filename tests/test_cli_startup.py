"""The command line starts without the libraries only some commands need: scikit-learn alone
took seconds to import, and every `paperclub` command paid it before parsing its arguments; a
catalog lookup (`paperclub search`) imports neither discord.py, nor the scheduler, nor arXiv's
HTTP client (each command's module is imported when it runs)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bot.cli.main import COMMANDS

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


DISCORD_SIDE = ("discord", "apscheduler", "aiohttp", "sklearn", "numpy")
"""What the bot, `add` and recommendations need, and a catalog lookup does not."""


def test_a_lookup_imports_nothing_of_discord_or_arxiv(tmp_path: Path) -> None:
    probe = ("import runpy, sys\n"
             "slow = set(sys.argv[2:])\n"
             "sys.argv = ['paperclub', 'search', 'grokking', '--db', sys.argv[1]]\n"
             "try:\n    runpy.run_module('bot', run_name='__main__')\n"
             "except SystemExit:\n    pass\n"
             "print(sorted({m.split('.')[0] for m in sys.modules} & slow))")
    done = subprocess.run([sys.executable, "-c", probe, str(tmp_path / "none.db"),
                           *DISCORD_SIDE], capture_output=True, text=True, check=True)
    assert "no database at" in done.stderr  # the command did run
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_help_still_lists_every_command() -> None:
    done = subprocess.run([sys.executable, "-m", "bot", "--help"], capture_output=True,
                          text=True, check=True)
    listed = {line.split()[0] for line in done.stdout.split("Commands:")[1].splitlines()
              if line.strip()}
    assert listed == set(COMMANDS)
