"""Settings: a TOML file, then `PAPERCLUB_SECTION__KEY` environment overrides, validated once.

The Discord token is read from `DISCORD_TOKEN` only and never from a file.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    HttpUrl,
    SecretStr,
    ValidationError,
    WebsocketUrl,
    model_validator,
)

ENV_PREFIX = "PAPERCLUB_"
DISCORD_API_BASE = "https://discord.com/api/v10"
DISCORD_GATEWAY = "wss://gateway.discord.gg/"
TOKEN_ENV = "DISCORD_TOKEN"  # noqa: S105 - the variable name, not a secret


class ConfigError(Exception):
    """The configuration is unusable; the message names the key and the problem."""


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class DatabaseSettings(_Section):
    """Where the SQLite database lives."""

    path: Path = Path("paperclub.db")


class CatalogSettings(_Section):
    """The catalog loaded when the database is empty."""

    path: Path | None = None


class SearchSettings(_Section):
    """Search behaviour."""

    limit: int = Field(default=10, ge=1, le=100)
    fuzzy_threshold: float = Field(default=75.0, ge=50.0, le=100.0)


class DiscordSettings(_Section):
    """How to reach Discord and which commands to sync where."""

    api_base: HttpUrl = HttpUrl(DISCORD_API_BASE)
    gateway_url: WebsocketUrl = WebsocketUrl(DISCORD_GATEWAY)
    sync: Literal["off", "guild", "global"] = "off"
    dev_guild_id: int = Field(default=0, ge=0)
    owner_ids: tuple[int, ...] = ()
    application_id: int = Field(default=0, ge=0)

    @model_validator(mode="after")
    def _guild_sync_needs_a_guild(self) -> DiscordSettings:
        if self.sync == "guild" and not self.dev_guild_id:
            raise ValueError("sync = 'guild' needs dev_guild_id (the development server's id)")
        return self


class DigestSettings(_Section):
    """The paper of the day."""

    grace_hours: float = Field(default=6.0, ge=0.0, le=48.0)
    tick_seconds: int = Field(default=60, ge=5, le=3600)
    concurrency: int = Field(default=50, ge=1, le=1000)
    requests_per_second: float = Field(default=45.0, ge=1.0, le=50.0)


class SubscriptionSettings(_Section):
    """Topic subscriptions."""

    dm_per_second: float = Field(default=4.0, gt=0.0, le=50.0)


class LoggingSettings(_Section):
    """Log output."""

    level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"


class Settings(_Section):
    """All of paperclub's settings."""

    database: DatabaseSettings = DatabaseSettings()
    catalog: CatalogSettings = CatalogSettings()
    search: SearchSettings = SearchSettings()
    discord: DiscordSettings = DiscordSettings()
    digest: DigestSettings = DigestSettings()
    subscriptions: SubscriptionSettings = SubscriptionSettings()
    logging: LoggingSettings = LoggingSettings()
    discord_token: SecretStr | None = Field(default=None, exclude=True)

    def catalog_path(self) -> Path:
        """The configured catalog, or the bundled ICML 2026 listing."""
        return self.catalog.path or bundled_catalog()


def bundled_catalog() -> Path:
    """The catalog shipped inside the package."""
    return Path(__file__).resolve().parent / "data" / "icml2026.txt"


def _env_value(value: str) -> Any:
    """A TOML literal (`[1, 2]`, `true`, `5`) where the text is one, else the text itself."""
    try:
        return tomllib.loads(f"v = {value}")["v"]
    except tomllib.TOMLDecodeError:
        return value


def _env_overrides(env: Mapping[str, str]) -> dict[str, dict[str, Any]]:
    overrides: dict[str, dict[str, Any]] = {}
    for name, value in env.items():
        if not name.startswith(ENV_PREFIX) or "__" not in name:
            continue
        section, _, key = name[len(ENV_PREFIX) :].lower().partition("__")
        overrides.setdefault(section, {})[key] = _env_value(value)
    return overrides


def _resolve_relative(data: dict[str, Any], base: Path) -> None:
    for section, key in (("database", "path"), ("catalog", "path")):
        value = data.get(section, {}).get(key) if isinstance(data.get(section), dict) else None
        relative = isinstance(value, str) and value not in {"", ":memory:"}
        if relative and not Path(str(value)).is_absolute():
            data[section][key] = str(base / str(value))


def load_settings(path: Path | None = None, env: Mapping[str, str] | None = None) -> Settings:
    """Read, merge and validate; raises `ConfigError` naming the offending key."""
    env = {} if env is None else env
    data: dict[str, Any] = {}
    if path is not None:
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ConfigError(f"{path}: config file not found") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{path}: cannot read config file ({exc})") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path}: not valid TOML ({exc})") from None
        discord_section = data.get("discord", {})
        if "discord_token" in data or (
            isinstance(discord_section, dict) and "token" in discord_section
        ):
            raise ConfigError(
                f"{path}: discord token: do not put the token in a file; "
                f"set the {TOKEN_ENV} environment variable"
            )
        _resolve_relative(data, path.parent)
    for section, values in _env_overrides(env).items():
        target = data.setdefault(section, {})
        if not isinstance(target, dict):
            raise ConfigError(f"{ENV_PREFIX}{section.upper()}__*: '{section}' is not a section")
        target.update(values)
    if env.get(TOKEN_ENV):
        data["discord_token"] = env[TOKEN_ENV]
    try:
        return Settings.model_validate(data)
    except ValidationError as exc:
        problems = []
        for error in exc.errors():
            key = ".".join(str(part) for part in error["loc"]) or "(top level)"
            problems.append(f"{key}: {error['msg']}")
        where = f"{path}: " if path else ""
        raise ConfigError(where + "; ".join(problems)) from None
