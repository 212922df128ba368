"""Configuration: defaults, files, environment overrides and errors that name the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.settings import ConfigError, load_settings

ROOT = Path(__file__).resolve().parent.parent


def test_defaults_without_a_file() -> None:
    settings = load_settings(None, {})
    assert settings.database.path == Path("paperclub.db")
    assert settings.search.limit == 10
    assert settings.catalog_path().name == "icml2026.txt"
    assert settings.discord_token is None


def test_example_config_is_valid_and_documents_every_key() -> None:
    example = ROOT / "config.example.toml"
    settings = load_settings(example, {})
    text = example.read_text(encoding="utf-8")
    for section, model in settings:
        if section == "discord_token":
            continue
        assert f"[{section}]" in text
        for key in type(model).model_fields:
            assert f"{key} =" in text, f"{section}.{key} is not documented"


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
