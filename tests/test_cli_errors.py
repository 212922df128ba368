"""Every command with each bad input: exit 2, one line on stderr, no traceback.

The cases run as real `paperclub` processes (logging, rich and interpreter shutdown included),
all started at once so that the matrix costs about as much as its slowest case.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from bot.settings import SEARCH_LIMIT_MAX, SEARCH_LIMIT_MIN

pytestmark = pytest.mark.slow

COMMANDS = ("import", "search", "show", "stats", "export", "local", "run", "sync", "invite")
REQUIRED_ARGS = {"import": ("{catalog}",), "search": ("grokking",), "show": ("0" * 16,)}
DISCORD_COMMANDS = ("run", "sync", "invite")
LONG = "x" * 150  # longer than any terminal width: a hard wrap would split the line


@dataclass(frozen=True)
class Case:
    """One invocation and what its single stderr line must say."""

    args: tuple[str, ...]
    says: tuple[str, ...]
    config: str = ""
    env: dict[str, str] = field(default_factory=dict)


class _Plain(BaseHTTPRequestHandler):
    """A plain-HTTP server: a TLS client talking to it fails its handshake."""

    def do_GET(self) -> None:
        self.send_error(404)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet."""


@pytest.fixture(scope="module")
def plain_http_port() -> Iterator[int]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Plain)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _discord_config(api_base: str, gateway: str) -> str:
    return f'[discord]\napi_base = "{api_base}"\ngateway_url = "{gateway}"\n'


def _cases(plain_port: int) -> dict[str, Case]:
    refused = _closed_port()
    unreachable = {
        "dns": (_discord_config(f"https://paperclub-{LONG[:40]}.invalid/api/v10",
                                "wss://paperclub-gateway.invalid"),
                ("cannot reach https://paperclub-", ".invalid/api/v10")),
        "refused": (_discord_config(f"http://127.0.0.1:{refused}/api/v10",
                                    f"ws://127.0.0.1:{refused}"),
                    (f"cannot reach http://127.0.0.1:{refused}/api/v10", "refused")),
        "tls": (_discord_config(f"https://127.0.0.1:{plain_port}/api/v10",
                                f"wss://127.0.0.1:{plain_port}"),
                (f"cannot reach https://127.0.0.1:{plain_port}/api/v10", "TLS")),
    }
    cases: dict[str, Case] = {}
    for command in COMMANDS:
        args = (command, *REQUIRED_ARGS.get(command, ()))
        cases[f"{command}-bad-config"] = Case(args, ("search.limit",),
                                              config="[search]\nlimit = 'ten'\n")
        cases[f"{command}-unknown-option"] = Case((*args, "--no-such-option"),
                                                  ("--no-such-option",))
    for command in DISCORD_COMMANDS:
        for why, (config, says) in unreachable.items():
            # `run` logs at INFO as a service does ("logging in"); the error is still one line
            env = {"DISCORD_TOKEN": "a-token", "PAPERCLUB_LOGGING__LEVEL": "WARNING"}
            cases[f"{command}-{why}"] = Case((command,), says, config=config, env=env)
    cases["export-missing-dir"] = Case(
        ("export", "-o", f"/nonexistent-{LONG}/x.jsonl"), ("cannot write", "x.jsonl"))
    cases["import-strict-names-the-file"] = Case(
        ("import", "{mixed}", "--strict"), ("mixed.txt", "line 11", "strict"))
    for limit in (SEARCH_LIMIT_MIN - 1, SEARCH_LIMIT_MAX + 1):
        cases[f"search-limit-{limit}"] = Case(
            ("search", "grokking", "--limit", str(limit)),
            ("--limit", f"{SEARCH_LIMIT_MIN}<=x<={SEARCH_LIMIT_MAX}"))
    return cases


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory, plain_http_port: int,
             catalog_path: Path) -> dict[str, tuple[Case, subprocess.CompletedProcess[str]]]:
    """Run every case (in parallel) and keep its result."""
    root = tmp_path_factory.mktemp("cli-errors")
    mixed = root / "mixed.txt"
    mixed.write_text("ICML\n\nA Title\n\n标题\n\nAnn A\n\nAI总结 好。\n\nOrphan\n",
                     encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["COLUMNS"] = "80"
    loaded = root / "loaded.db"  # migrated and loaded once, so no case logs a migration
    subprocess.run([sys.executable, "-m", "bot", "import", str(catalog_path), "--db", str(loaded)],
                   capture_output=True, env=env, timeout=120, check=True)

    def run(name: str, case: Case) -> subprocess.CompletedProcess[str]:
        args = [a.format(catalog=catalog_path, mixed=mixed) for a in case.args]
        shutil.copy(loaded, root / f"{name}.db")
        args += ["--db", str(root / f"{name}.db")]
        if case.config:
            config = root / f"{name}.toml"
            config.write_text(case.config, encoding="utf-8")
            args += ["--config", str(config)]
        return subprocess.run([sys.executable, "-m", "bot", *args], capture_output=True,
                              text=True, env={**env, **case.env}, timeout=120, check=False)

    cases = _cases(plain_http_port)
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = {name: pool.submit(run, name, case) for name, case in cases.items()}
        return {name: (cases[name], future.result()) for name, future in futures.items()}


@pytest.mark.parametrize("name", sorted(_cases(0)))
def test_bad_input_exits_2_with_one_line(
        name: str, outcomes: dict[str, tuple[Case, subprocess.CompletedProcess[str]]]) -> None:
    case, result = outcomes[name]
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for text in case.says:
        assert text in lines[0]


def test_an_import_past_the_file_size_limit_says_so(tmp_path: Path) -> None:
    """The operating system refuses the write (EFBIG): SQLite's "disk I/O error" is said as
    the file-size limit or a full disk or quota, in one line, exit 2."""
    import resource

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (300_000, 300_000))

    catalog = Path(__file__).resolve().parents[1] / "bot" / "data" / "icml2026.txt"
    result = subprocess.run(
        [sys.executable, "-m", "bot", "import", str(catalog), "--db", str(tmp_path / "x.db")],
        preexec_fn=limited, capture_output=True, text=True, check=False,
        cwd=Path(__file__).resolve().parents[1], env={**os.environ, "NO_COLOR": "1"})
    assert result.returncode == 2, result.stderr
    (line,) = result.stderr.strip().splitlines()
    assert "file-size limit" in line and "300,000 bytes" in line and "Traceback" not in line
