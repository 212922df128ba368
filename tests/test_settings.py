"""Configuration: defaults, files, environment overrides and errors that name the key."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from pydantic import BaseModel

from bot.cli.main import COMMANDS
from bot.settings import (
    SEARCH_LIMIT_MAX,
    SEARCH_LIMIT_MIN,
    ConfigError,
    Settings,
    load_settings,
)

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
    assert named <= set(COMMANDS), f"no such command: {named - set(COMMANDS)}"
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
    ("[arxiv]\ncontact = 'call me maybe'\n", "arxiv.contact"),
    ("[arxiv]\npoll_minutes = 5\n", "arxiv.poll_minutes"),
    ("[arxiv]\napi_base = 'not a url'\n", "arxiv.api_base"),
])
def test_wrong_keys_types_and_values_name_the_key(tmp_path: Path, text: str, key: str) -> None:
    config = tmp_path / "bad.toml"
    config.write_text(text)
    with pytest.raises(ConfigError, match=key.replace(".", r"\.")):
        load_settings(config, {})


def test_invalid_toml_and_missing_file(tmp_path: Path) -> None:
    config = tmp_path / "broken.toml"
    config.write_text("[search\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_settings(config, {})
    with pytest.raises(ConfigError, match="not found"):
        load_settings(tmp_path / "absent.toml", {})


def _numeric_keys() -> list[tuple[str, str]]:
    """Every (section, key) of Settings holding an int or a float."""
    keys = []
    for section, field in Settings.model_fields.items():
        model = field.annotation
        if isinstance(model, type) and issubclass(model, BaseModel):
            keys += [(section, key) for key, inner in model.model_fields.items()
                     if inner.annotation in (int, float)]
    return keys


def test_numeric_keys_are_found() -> None:
    assert ("search", "limit") in _numeric_keys()
    assert ("digest", "grace_hours") in _numeric_keys()


@pytest.mark.parametrize(("section", "key"), _numeric_keys())
def test_booleans_are_not_numbers(tmp_path: Path, section: str, key: str) -> None:
    config = tmp_path / "bool.toml"
    config.write_text(f"[{section}]\n{key} = true\n")
    with pytest.raises(ConfigError, match=rf"{section}\.{key}: Input should be a valid"):
        load_settings(config, {})
    with pytest.raises(ConfigError, match=rf"PAPERCLUB_{section.upper()}__{key.upper()}: "):
        load_settings(None, {f"PAPERCLUB_{section.upper()}__{key.upper()}": "true"})


def test_boolean_owner_id_is_refused(tmp_path: Path) -> None:
    config = tmp_path / "bool.toml"
    config.write_text("[discord]\nowner_ids = [12, true]\n")
    with pytest.raises(ConfigError, match=r"discord\.owner_ids\.1: Input should be a valid int"):
        load_settings(config, {})


def test_numbers_keep_working(tmp_path: Path) -> None:
    config = tmp_path / "numbers.toml"
    config.write_text("[search]\nfuzzy_threshold = 80\n[discord]\nowner_ids = [12, 34]\n")
    settings = load_settings(config, {"PAPERCLUB_DIGEST__GRACE_HOURS": "2"})
    assert settings.search.fuzzy_threshold == 80.0
    assert settings.discord.owner_ids == (12, 34)
    assert settings.digest.grace_hours == 2.0


def test_logging_level_in_any_case(tmp_path: Path) -> None:
    config = tmp_path / "log.toml"
    config.write_text("[logging]\nlevel = 'debug'\n")
    assert load_settings(config, {}).logging.level == "DEBUG"
    assert load_settings(None, {"PAPERCLUB_LOGGING__LEVEL": "Warning"}).logging.level == "WARNING"


def test_search_limit_range_is_the_shared_constants(tmp_path: Path) -> None:
    for limit in (SEARCH_LIMIT_MIN, SEARCH_LIMIT_MAX):
        assert load_settings(None, {"PAPERCLUB_SEARCH__LIMIT": str(limit)}).search.limit == limit
    for limit in (SEARCH_LIMIT_MIN - 1, SEARCH_LIMIT_MAX + 1):
        with pytest.raises(ConfigError, match="PAPERCLUB_SEARCH__LIMIT: Input should be"):
            load_settings(None, {"PAPERCLUB_SEARCH__LIMIT": str(limit)})
    assert f"({SEARCH_LIMIT_MIN}-{SEARCH_LIMIT_MAX})" in EXAMPLE.read_text(encoding="utf-8")


def test_bad_environment_value_names_the_variable() -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings(None, {"PAPERCLUB_SEARCH__LIMIT": "many"})
    assert str(caught.value) == "PAPERCLUB_SEARCH__LIMIT: Input should be a valid integer"


def test_environment_error_does_not_blame_the_file(tmp_path: Path) -> None:
    config = tmp_path / "fine.toml"
    config.write_text("[search]\nlimit = 5\n")
    with pytest.raises(ConfigError) as caught:
        load_settings(config, {"PAPERCLUB_SEARCH__LIMIT": "0"})
    assert str(caught.value) == (
        "PAPERCLUB_SEARCH__LIMIT: Input should be greater than or equal to 1")


@pytest.mark.parametrize("name", ["PAPERCLUB_SEARCH__LIMT", "PAPERCLUB_SERCH__LIMIT"])
def test_unknown_environment_key_names_the_variable(name: str) -> None:
    with pytest.raises(ConfigError, match=f"^{name}: Extra inputs are not permitted$"):
        load_settings(None, {name: "3"})


def test_file_and_environment_errors_are_told_apart(tmp_path: Path) -> None:
    config = tmp_path / "both.toml"
    config.write_text("[search]\nfuzzy_threshold = 10\n")
    with pytest.raises(ConfigError) as caught:
        load_settings(config, {"PAPERCLUB_SEARCH__LIMIT": "0"})
    message = str(caught.value)
    assert message.startswith(f"{config}: search.fuzzy_threshold: Input should be greater")
    assert message.endswith("; PAPERCLUB_SEARCH__LIMIT: Input should be greater than or equal to 1")
    assert "\n" not in message


@pytest.mark.parametrize(("text", "key"), [
    ("[discord]\ntoken = 'secret'\n", "discord.token"),
    ("token = 'secret'\n", "token"),
    ("discord_token = 'secret'\n", "discord_token"),
    ("[search]\ntoken = 'secret'\n", "search.token"),
    ("[digest]\ndiscord_token = 'secret'\n", "digest.discord_token"),
])
def test_token_anywhere_in_a_file_gets_the_hint(tmp_path: Path, text: str, key: str) -> None:
    config = tmp_path / "token.toml"
    config.write_text(text)
    with pytest.raises(ConfigError) as caught:
        load_settings(config, {})
    message = str(caught.value)
    assert message.startswith(f"{config}: {key}: ")
    assert "DISCORD_TOKEN environment variable" in message
    assert "must not be kept in a file" in message
    assert "secret" not in message


@pytest.mark.parametrize("name", ["PAPERCLUB_DISCORD__TOKEN", "PAPERCLUB_SEARCH__TOKEN"])
def test_token_override_variable_gets_the_hint(name: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings(None, {name: "secret"})
    message = str(caught.value)
    assert message.startswith(f"{name}: ")
    assert "DISCORD_TOKEN environment variable" in message
    assert "Extra inputs" not in message
    assert "secret" not in message


def test_empty_database_path_is_refused(tmp_path: Path) -> None:
    config = tmp_path / "empty.toml"
    config.write_text("[database]\npath = ''\n")
    with pytest.raises(ConfigError, match=r"database\.path: must not be empty"):
        load_settings(config, {})
    with pytest.raises(ConfigError, match=r"^PAPERCLUB_DATABASE__PATH: must not be empty"):
        load_settings(None, {"PAPERCLUB_DATABASE__PATH": ""})
    assert load_settings(None, {"PAPERCLUB_DATABASE__PATH": ":memory:"}).database.path == Path(
        ":memory:")


def test_arxiv_defaults_and_contact(tmp_path: Path) -> None:
    defaults = load_settings(None, {}).arxiv
    assert str(defaults.api_base) == "http://export.arxiv.org/api/query"
    assert (defaults.poll_minutes, defaults.contact) == (180, "")
    config = tmp_path / "arxiv.toml"
    config.write_text("[arxiv]\ncontact = ' club@example.org '\n")
    assert load_settings(config, {}).arxiv.contact == "club@example.org"


def test_a_postgresql_url_selects_postgresql_and_a_path_or_none_keeps_sqlite(
        tmp_path: Path) -> None:
    url = "postgresql://paperclub:secret@db.example:5432/paperclub"
    assert load_settings(None, {}).database.postgres_url is None
    settings = load_settings(None, {"PAPERCLUB_DATABASE__URL": url})
    assert settings.database.postgres_url == url
    config = tmp_path / "paperclub.toml"
    config.write_text('[database]\nurl = "postgres://h/db"\n')
    assert load_settings(config, {}).database.postgres_url == "postgres://h/db"
    config.write_text('[database]\nurl = "other.db"\n')
    as_path = load_settings(config, {}).database
    assert as_path.postgres_url is None and as_path.sqlite_path == tmp_path / "other.db"


def test_a_database_url_of_another_scheme_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"PAPERCLUB_DATABASE__URL: .*postgresql://"):
        load_settings(None, {"PAPERCLUB_DATABASE__URL": "mysql://h/db"})


def test_shards_from_the_file_and_the_environment(tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    config.write_text("[discord]\nshard_count = 4\nshard_ids = [0, 3]\n")
    settings = load_settings(config, {})
    assert settings.discord.shards().owned == (0, 3) and settings.discord.process_share() == 0.5
    env = {"PAPERCLUB_DISCORD__SHARD_IDS": "[1]", "PAPERCLUB_DISCORD__REQUEST_SHARE": "0.9"}
    settings = load_settings(config, env)
    assert settings.discord.shards().owned == (1,) and settings.discord.process_share() == 0.9
    assert load_settings(None, {}).discord.process_share() == 1.0


@pytest.mark.parametrize(("text", "problem"), [
    ("shard_count = 2\nshard_ids = [2]\n", "between 0 and 1"),
    ("shard_count = 2\nshard_ids = [1, 1]\n", "must not repeat"),
    ("shard_ids = [0]\n", "needs shard_count"),
    ("shard_count = 0\n", "discord.shard_count"),
])
def test_impossible_shards_are_refused_naming_the_problem(tmp_path: Path, text: str,
                                                          problem: str) -> None:
    config = tmp_path / "c.toml"
    config.write_text("[discord]\n" + text)
    with pytest.raises(ConfigError, match=problem):
        load_settings(config, {})


@pytest.mark.parametrize("key", ["digest.claim_lease_seconds",
                                 "subscriptions.outbox_lease_seconds"])
def test_a_lease_shorter_than_a_discord_call_is_refused_naming_the_key(
        tmp_path: Path, key: str) -> None:
    section, name = key.split(".")
    config = tmp_path / "lease.toml"
    config.write_text(f"[{section}]\n{name} = 2\n")
    with pytest.raises(ConfigError) as refused:
        load_settings(config, {})
    message = str(refused.value)
    assert f"{key}: 2 s is shorter than" in message and "use at least 30" in message
    variable = f"PAPERCLUB_{section.upper()}__{name.upper()}"
    with pytest.raises(ConfigError, match=f"^{variable}: 29 s is shorter"):
        load_settings(None, {variable: "29"})
    assert getattr(getattr(load_settings(None, {variable: "30"}), section), name) == 30


def test_a_shorter_call_bound_allows_a_shorter_lease(tmp_path: Path) -> None:
    config = tmp_path / "fast.toml"
    config.write_text("[discord]\ncall_timeout_seconds = 1\n[digest]\nclaim_lease_seconds = 1\n")
    settings = load_settings(config, {})
    assert settings.discord.call_timeout_seconds == 1 and settings.digest.claim_lease_seconds == 1
    with pytest.raises(ConfigError, match=r"outbox_lease_seconds: 60 s .* at least 90"):
        load_settings(None, {"PAPERCLUB_DISCORD__CALL_TIMEOUT_SECONDS": "90"})


def test_settings_alone_reads_neither_the_process_environment_nor_a_file(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAPERCLUB_SEARCH__LIMIT", "3")
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    assert Settings().search.limit == 10 and Settings().discord_token is None
    assert Settings() == Settings.model_validate({})


def test_a_whole_section_from_one_variable_is_named_by_it() -> None:
    settings = load_settings(None, {"PAPERCLUB_SEARCH": "{limit = 7, fuzzy_threshold = 80}"})
    assert (settings.search.limit, settings.search.fuzzy_threshold) == (7, 80.0)
    with pytest.raises(ConfigError, match=r"^PAPERCLUB_SEARCH\[limit\]: Input should be"):
        load_settings(None, {"PAPERCLUB_SEARCH": "{limit = 0}"})


def test_variable_names_in_any_case_and_other_paperclub_variables_ignored() -> None:
    env = {"paperclub_search__limit": "7", "PAPERCLUB_REALWORLD": "/elsewhere",
           "PAPERCLUB_TOKEN": "not ours", "PAPERCLUB_DISCORD_TOKEN": "not read"}
    settings = load_settings(None, env)
    assert settings.search.limit == 7 and settings.discord_token is None


def test_a_list_item_from_the_environment_is_named_by_its_index() -> None:
    with pytest.raises(ConfigError, match=r"^PAPERCLUB_DISCORD__OWNER_IDS\[1\]: Input should be "
                                          r"a valid integer"):
        load_settings(None, {"PAPERCLUB_DISCORD__OWNER_IDS": "[12, true]"})


def test_a_token_that_looks_like_a_number_stays_text() -> None:
    token = load_settings(None, {"DISCORD_TOKEN": "12345"}).discord_token
    assert token is not None and token.get_secret_value() == "12345"


def test_a_directory_is_not_a_config_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=f"^{re.escape(str(tmp_path))}: cannot read config file"):
        load_settings(tmp_path, {})
