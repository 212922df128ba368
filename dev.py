#!/usr/bin/env python3
"""One-command set-up and tasks for paperclub; needs only Python >= 3.11 and pip.

    python3 dev.py demo [LINE…]   set up .venv if needed, then use the real bot from the terminal
                                  against a local Discord stand-in, on the bundled catalog
    python3 dev.py test [...]     set up .venv if needed, then ruff, mypy and the whole test suite
                                  (pytest-xdist: a worker per CPU, plus one; `-n 0`: one process)
    python3 dev.py bench [...]    set up .venv if needed, then run the benchmarks in bench/
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
STAMP = VENV / ".paperclub-installed"
PACKAGES = ("bot", "storage", "domain", "discord_standin", "arxiv_standin", "llm_standin",
            "tools", "bench", "tests")
"""The project's own packages."""


def _python() -> str:
    return str(BIN / "python")


def ensure_venv() -> None:
    """Create .venv and install paperclub with its test tools, again whenever pyproject changes."""
    if sys.version_info < (3, 11):
        sys.exit("paperclub needs Python 3.11 or newer")
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text() == digest:
        return
    if not (BIN / "python").exists():
        print("creating .venv …", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    print("installing paperclub and its dependencies into .venv …", flush=True)
    subprocess.run([_python(), "-m", "pip", "install", "--quiet", "--upgrade", "pip"], check=True)
    subprocess.run(
        [_python(), "-m", "pip", "install", "--quiet", "-e", f"{ROOT}[test,bench]"], check=True
    )
    STAMP.write_text(digest)


def run(*args: str) -> int:
    """Run a command from the venv in the project root; return its exit code.

    Ctrl-C reaches the command too (the terminal signals the whole foreground group): this
    waits for it to end in its own way rather than killing it and printing a traceback."""
    print("$", " ".join(args), flush=True)
    with subprocess.Popen([str(BIN / args[0]), *args[1:]], cwd=ROOT) as child:
        while True:
            try:
                return child.wait()
            except KeyboardInterrupt:
                continue


def _parallel(args: list[str]) -> list[str]:
    """pytest-xdist options: `_workers` workers, each group of tests on one worker (see
    tests/conftest.py), unless the arguments choose the workers themselves."""
    chosen = any(a in {"-n", "--numprocesses", "no:xdist"} or a.startswith(("-n", "--numproc"))
                 for a in args)
    return [] if chosen else ["-n", str(_workers()), "--dist", "loadgroup"]


def _workers() -> int:
    """One worker per CPU, and one more: the real-process tests (their group runs on one
    worker) mostly wait on the real clock for the processes they start, and the extra worker
    uses the CPU time they leave."""
    return (os.cpu_count() or 1) + 1


def main(argv: list[str]) -> int:
    task, rest = (argv[0], argv[1:]) if argv else ("help", [])
    if task not in {"demo", "test", "bench"}:
        print(__doc__)
        return 2
    ensure_venv()
    if task == "demo":
        # A scripted run (no terminal, --script, or lines given) starts from a fresh database so
        # that it always tells the whole story; a person at the prompt keeps theirs.
        scripted = "--script" in rest or not sys.stdin.isatty() or any(
            not arg.startswith("-") for arg in rest)
        if not scripted:
            return run("paperclub", "local", "--db", str(ROOT / "paperclub-local.db"), *rest)
        with tempfile.TemporaryDirectory(prefix="paperclub-demo-") as scratch:
            return run("paperclub", "local", "--db", str(Path(scratch) / "paperclub.db"), *rest)
    if task == "bench":
        return run("python", "-m", "bench", *rest)
    # Byte-compiled once here: the tests start hundreds of `paperclub` processes, and where
    # PYTHONDONTWRITEBYTECODE is set each would compile every module again (~0.8 s of CPU).
    compiled = ("python", "-m", "compileall", "-q", "-j", "0", *PACKAGES)
    for step in (("ruff", "check", "."), ("mypy",), compiled,
                 ("pytest", "-q", *_parallel(rest), *rest)):
        code = run(*step)
        if code:
            return code
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:  # Ctrl-C while setting up .venv: no traceback
        sys.exit(130)
