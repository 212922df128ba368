"""The systemd template unit: the instance name is the shard range `paperclub run` gets."""

from __future__ import annotations

import configparser
import shlex
from pathlib import Path

import pytest

from domain.shards import parse_shard_ids

UNIT = Path(__file__).resolve().parents[1] / "deploy" / "paperclub@.service"


def _service() -> configparser.SectionProxy:
    unit = configparser.ConfigParser(interpolation=None, strict=False)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(UNIT, encoding="utf-8")
    return unit["Service"]


@pytest.mark.parametrize(("instance", "shards"), [("0-1", (0, 1)), ("2-3", (2, 3)),
                                                  ("4-7", (4, 5, 6, 7)), ("5", (5,))])
def test_the_instance_name_becomes_the_shard_ids(instance: str,
                                                 shards: tuple[int, ...]) -> None:
    command = shlex.split(_service()["ExecStart"].replace("%i", instance))
    assert command[1:3] == ["run", "--config"] and command[0].endswith("/paperclub")
    assert parse_shard_ids(command[command.index("--shard-ids") + 1]) == shards


def test_the_unit_stops_with_sigterm_and_restarts_on_failure() -> None:
    service = _service()
    assert (service["KillSignal"], service["Restart"]) == ("SIGTERM", "on-failure")
    assert "EnvironmentFile" in service  # the token and database URL stay out of the unit


def test_the_licence_is_an_spdx_expression_setuptools_understands() -> None:
    """`project.license` as a string (PEP 639): the `{ text = … }` table is deprecated, and
    setuptools takes the string from version 77 on."""
    import tomllib

    from packaging.requirements import Requirement

    licenses = pytest.importorskip("packaging.licenses")
    project = tomllib.loads((UNIT.parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    license_ = project["project"]["license"]
    assert isinstance(license_, str)
    assert licenses.canonicalize_license_expression(license_) == license_
    assert not any("License ::" in c for c in project["project"].get("classifiers", []))
    setuptools = next(Requirement(r) for r in project["build-system"]["requires"]
                      if Requirement(r).name == "setuptools")
    assert "77.0" in setuptools.specifier and "76.9" not in setuptools.specifier
