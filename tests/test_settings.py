"""Configuration: defaults, files, environment overrides and errors that name the key."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from bot.cli.main import cli
from bot.settings import ConfigError, Settings, load_settings

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "config.example.toml"


def test_defaults_without_a_file() -> None:
    settings = load_settings(None, {})
    assert settings.database.path == Path("paperclub.db")
    assert settings.search.limit == 10
    assert settings.catalog_path().name == "icml2026.txt"
    assert settings.discord_token is None


def _section_text(text: str, section: str) -> str:
    """The lines of `[section]` in a TOML text, up to the next table header."""
    start = text.index(f"\n[{section}]\n")
    end = text.find("\n[", start + 1)
    return text[start : end if end >= 0 else len(text)]


def test_example_config_documents_every_key_with_its_default() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    assert Settings.model_validate(data) == Settings()
    load_settings(EXAMPLE, {})  # also valid the way paperclub reads it
    for section, field in Settings.model_fields.items():
        if section == "discord_token":
            continue
        model = field.annotation
        assert isinstance(model, type)
        for key, key_field in model.model_fields.items():
            if key_field.default is None:  # TOML has no null: shown commented out
                assert f"# {key} = " in _section_text(text, section), f"{section}.{key}"
            else:
                assert key in data.get(section, {}), f"{section}.{key} is not documented"


def test_example_config_names_only_real_commands() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    named = set(re.findall(r"`paperclub ([\w-]+)", text))
    assert named, "the example names no paperclub command"
    assert named <= set(cli.commands), f"no such command: {named - set(cli.commands)}"
    assert set(re.findall(r"`python3 dev\.py (\w+)", text)) <= {"demo", "test", "bench"}


def test_relative_paths_are_relative_to_the_config_file(tmp_path: Path) -> None:
    config = tmp_path / "conf" / "paperclub.toml"
    config.parent.mkdir()
    config.write_text('[database]\npath = "data/pc.db"\n')
    assert load_settings(config, {}).database.path == tmp_path / "conf" / "data" / "pc.db"


def test_environment_overrides_the_file(tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    config.write_text("[search]\nlimit = 5\n")
    settings = load_settings(config, {"PAPERCLUB_SEARCH__LIMIT": "7", "DISCORD_TOKEN": "abc"})
    assert settings.search.limit == 7
    assert settings.discord_token is not None
    assert settings.discord_token.get_secret_value() == "abc"
    assert "abc" not in repr(settings)


@pytest.mark.parametrize(("text", "key"), [
    ("[search]\nlimit = 0\n", "search.limit"),
    ("[search]\nlimt = 3\n", "search.limt"),
    ("[serch]\nlimit = 3\n", "serch"),
    ("[logging]\nlevel = 'LOUD'\n", "logging.level"),
    ("[search]\nfuzzy_threshold = 'high'\n", "search.fuzzy_threshold"),
])
def test_wrong_keys_types_and_values_name_the_key(tmp_path: Path, text: str, key: str) -> None:
    config = tmp_path / "bad.toml"
    config.write_text(text)
    with pytest.raises(ConfigError, match=key.replace(".", r"\.")):
        load_settings(config, {})


def test_token_in_a_file_is_refused(tmp_path: Path) -> None:
    config = tmp_path / "token.toml"
    config.write_text("[discord]\ntoken = 'secret'\n")
    with pytest.raises(ConfigError, match="DISCORD_TOKEN"):
        load_settings(config, {})


def test_invalid_toml_and_missing_file(tmp_path: Path) -> None:
    config = tmp_path / "broken.toml"
    config.write_text("[search\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_settings(config, {})
    with pytest.raises(ConfigError, match="not found"):
        load_settings(tmp_path / "absent.toml", {})


def test_bad_environment_value_names_the_key() -> None:
    with pytest.raises(ConfigError, match=r"search\.limit"):
        load_settings(None, {"PAPERCLUB_SEARCH__LIMIT": "many"})
