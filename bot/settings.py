"""Settings: a TOML file, then `PAPERCLUB_SECTION__KEY` environment overrides, validated once.

The Discord token is read from `DISCORD_TOKEN` only and never from a file.
"""

from __future__ import annotations

import re
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
    StrictInt,
    ValidationError,
    WebsocketUrl,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from domain.shards import Shards

ENV_PREFIX = "PAPERCLUB_"
DISCORD_API_BASE = "https://discord.com/api/v10"
DISCORD_GATEWAY = "wss://gateway.discord.gg/"
ARXIV_API_BASE = "http://export.arxiv.org/api/query"
TOKEN_ENV = "DISCORD_TOKEN"  # noqa: S105 - the variable name, not a secret
TOKEN_KEYS = frozenset({"token", "discord_token"})
TOKEN_HINT = (
    f"the Discord token is read only from the {TOKEN_ENV} environment variable; "
    "a token must not be kept in a file"
)
DISCORD_TRIES = 5
"""discord.py 2.x (`HTTPClient.request`) tries a REST request this many times."""
DISCORD_BACKOFF_SECONDS = sum(1 + 2 * tries for tries in range(DISCORD_TRIES))
"""discord.py sleeps 1 + 2n s after the n-th try that got a 500, 502, 504, 524 or a reset
connection: 1 + 3 + 5 + 7 + 9 = 25 s in the worst case."""
DISCORD_CALL_SECONDS = DISCORD_BACKOFF_SECONDS + DISCORD_TRIES * 1.0
"""The default bound on one Discord call (`discord.call_timeout_seconds`): the back-off and one
second for each answer, 30 s. A lease shorter than the bound is refused: a process could lose
its lease while Discord still holds its request, and another process would post again."""
LEASE_KEYS = (("digest", "claim_lease_seconds"), ("subscriptions", "outbox_lease_seconds"))
"""The leases every Discord call is made under (the digest's one also times votes, reminders
and feed announcements)."""
SEARCH_LIMIT_MIN = 1  # also the range of `paperclub search --limit`
SEARCH_LIMIT_MAX = 100


class ConfigError(Exception):
    """The configuration is unusable; the message names the key and the problem."""


class _Section(BaseModel):
    # strict: a TOML `true` is not the number 1 (a float field still takes an integer).
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


POSTGRES_SCHEMES = ("postgresql://", "postgres://")


class DatabaseSettings(_Section):
    """Where the database lives: a SQLite file (the default), or a PostgreSQL server named by
    `url = "postgresql://…"` (a `url` that is a plain path names the SQLite file)."""

    path: Path = Field(default=Path("paperclub.db"), strict=False)
    url: str | None = None
    """`postgresql://user:password@host:port/dbname` selects PostgreSQL."""
    pool_size: int = Field(default=10, ge=1, le=100)
    """PostgreSQL connections in this process's pool."""
    readers: int = Field(default=4, ge=1, le=32)
    """Reader connections serving concurrent lookups."""
    write_wait_seconds: float = Field(default=10.0, gt=0.0, le=120.0)
    """How long a command waits for the write lock (a catalog load) before "try again"."""

    @field_validator("path", mode="before")
    @classmethod
    def _not_empty(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            raise PydanticCustomError(
                "empty_path", "must not be empty: name the SQLite file, e.g. paperclub.db")
        return value

    @field_validator("url", mode="before")
    @classmethod
    def _known_scheme(cls, value: object) -> object:
        if isinstance(value, str) and "://" in value and not value.startswith(POSTGRES_SCHEMES):
            raise PydanticCustomError(
                "url_scheme", "must be a postgresql://user:password@host/dbname URL "
                "(or a SQLite file path)")
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @property
    def postgres_url(self) -> str | None:
        """The PostgreSQL server to use, or None for SQLite."""
        if self.url and self.url.startswith(POSTGRES_SCHEMES):
            return self.url
        return None

    @property
    def sqlite_path(self) -> Path:
        """The SQLite file (when `postgres_url` is None): `url` if it is a path, else `path`."""
        return Path(self.url) if self.url and self.postgres_url is None else self.path


class CatalogSettings(_Section):
    """The catalog loaded when the database is empty."""

    path: Path | None = Field(default=None, strict=False)


class SearchSettings(_Section):
    """Search behaviour."""

    limit: int = Field(default=10, ge=SEARCH_LIMIT_MIN, le=SEARCH_LIMIT_MAX)
    fuzzy_threshold: float = Field(default=75.0, ge=50.0, le=100.0)


class DiscordSettings(_Section):
    """How to reach Discord and which commands to sync where."""

    api_base: HttpUrl = Field(default=HttpUrl(DISCORD_API_BASE), strict=False)
    gateway_url: WebsocketUrl = Field(default=WebsocketUrl(DISCORD_GATEWAY), strict=False)
    sync: Literal["off", "guild", "global"] = "off"
    dev_guild_id: int = Field(default=0, ge=0)
    owner_ids: tuple[StrictInt, ...] = Field(default=(), strict=False)  # a TOML array is a list
    application_id: int = Field(default=0, ge=0)
    shard_count: int | None = Field(default=None, ge=1)
    """How many shards the bot runs in all (None: what Discord recommends, in one process)."""
    shard_ids: tuple[StrictInt, ...] | None = Field(default=None, strict=False)
    """The shards this process runs (None: all of them)."""
    request_share: float | None = Field(default=None, gt=0.0, le=1.0)
    """This process's share of the token's request budget (None: its fraction of the shards)."""
    call_timeout_seconds: float = Field(default=DISCORD_CALL_SECONDS, gt=0.0, le=300.0)
    """The longest one REST call, retries and rate-limit waits included, may take."""

    @model_validator(mode="after")
    def _guild_sync_needs_a_guild(self) -> DiscordSettings:
        if self.sync == "guild" and not self.dev_guild_id:
            raise ValueError("sync = 'guild' needs dev_guild_id (the development server's id)")
        return self

    @model_validator(mode="after")
    def _shards_are_consistent(self) -> DiscordSettings:
        if self.shard_ids is not None and self.shard_count is None:
            raise ValueError("shard_ids needs shard_count (how many shards there are in all)")
        try:
            self.shards()
        except ValueError as exc:
            raise ValueError(str(exc)) from None
        return self

    def shards(self) -> Shards:
        """The shards this process looks after."""
        return Shards(self.shard_count or 1, self.shard_ids)

    def process_share(self) -> float:
        """This process's fraction of the token's requests per second."""
        return self.request_share if self.request_share is not None else self.shards().share

    def with_shards(self, count: int | None, ids: tuple[int, ...] | None) -> DiscordSettings:
        """These settings with `--shard-count`/`--shard-ids` applied, validated again."""
        data = self.model_dump()
        if count is not None:
            data["shard_count"] = count
        if ids is not None:
            data["shard_ids"] = ids
        return DiscordSettings.model_validate(data)


class DigestSettings(_Section):
    """The paper of the day."""

    grace_hours: float = Field(default=6.0, ge=0.0, le=48.0)
    tick_seconds: int = Field(default=60, ge=5, le=3600)
    concurrency: int = Field(default=50, ge=1, le=1000)
    requests_per_second: float = Field(default=45.0, ge=1.0, le=50.0)
    claim_lease_seconds: int = Field(default=300, ge=1, le=3600)


class SubscriptionSettings(_Section):
    """Topic subscriptions."""

    dm_per_second: float = Field(default=4.0, gt=0.0, le=50.0)
    drain_seconds: float = Field(default=10.0, ge=0.0, le=600.0)
    outbox_lease_seconds: float = Field(default=60.0, ge=1.0, le=3600.0)


_CONTACT = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+|https?://[^\s]+")


class ArxivSettings(_Section):
    """How to reach arXiv's export API, and how politely."""

    api_base: HttpUrl = Field(default=HttpUrl(ARXIV_API_BASE), strict=False)
    poll_minutes: int = Field(default=180, ge=30, le=7 * 24 * 60)
    """How often feeds are polled (arXiv publishes once a day)."""
    contact: str = ""
    """An e-mail address or web page for the User-Agent, so arXiv can reach the operator."""
    timeout_seconds: float = Field(default=30.0, gt=0.0, le=300.0)
    max_retries: int = Field(default=4, ge=0, le=10)
    """Retries after throttling or a failure, backing off, before "arXiv is busy"."""

    @field_validator("contact")
    @classmethod
    def _reachable(cls, value: str) -> str:
        value = value.strip()
        if value and not _CONTACT.fullmatch(value):
            raise PydanticCustomError(
                "bad_contact", "must be an e-mail address or an http(s) URL, without spaces")
        return value


class WebSettings(_Section):
    """The bot's own web server: the calendar feed (off by default)."""

    enabled: bool = False
    host: str = "127.0.0.1"
    port: int = Field(default=8080, ge=0, le=65535)
    """0 takes any free port (tests)."""
    base_url: HttpUrl | None = Field(default=None, strict=False)
    """The public address members reach it at (behind a reverse proxy with TLS: its https URL);
    default `http://HOST:PORT`."""

    def public_base(self) -> str:
        """The address links start with, without a trailing slash."""
        if self.base_url is not None:
            return str(self.base_url).rstrip("/")
        return f"http://{self.host}:{self.port}"


class LoggingSettings(_Section):
    """Log output."""

    level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"

    @field_validator("level", mode="before")
    @classmethod
    def _upper_case(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value


class Settings(_Section):
    """All of paperclub's settings."""

    database: DatabaseSettings = DatabaseSettings()
    catalog: CatalogSettings = CatalogSettings()
    search: SearchSettings = SearchSettings()
    discord: DiscordSettings = DiscordSettings()
    digest: DigestSettings = DigestSettings()
    subscriptions: SubscriptionSettings = SubscriptionSettings()
    logging: LoggingSettings = LoggingSettings()
    arxiv: ArxivSettings = ArxivSettings()
    web: WebSettings = WebSettings()
    discord_token: SecretStr | None = Field(default=None, exclude=True, strict=False)

    @model_validator(mode="after")
    def _leases_outlast_a_discord_call(self) -> Settings:
        longest = self.discord.call_timeout_seconds
        for section, key in LEASE_KEYS:
            lease = getattr(getattr(self, section), key)
            if lease < longest:
                raise PydanticCustomError(
                    "lease_too_short",
                    f"{lease:g} s is shorter than the longest a Discord call may take, "
                    f"{longest:g} s (discord.call_timeout_seconds; discord.py tries a request "
                    f"{DISCORD_TRIES} times with up to {DISCORD_BACKOFF_SECONDS} s of "
                    "back-off): another process could take over while Discord still holds "
                    f"the call and post twice; use at least {longest:g}",
                    {"loc": (section, key)})
        return self

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


def _env_overrides(env: Mapping[str, str]) -> dict[tuple[str, str], tuple[str, Any]]:
    """`(section, key)` → (variable name, value) for every `PAPERCLUB_SECTION__KEY`."""
    overrides: dict[tuple[str, str], tuple[str, Any]] = {}
    for name, value in sorted(env.items()):
        if not name.startswith(ENV_PREFIX) or "__" not in name:
            continue
        section, _, key = name[len(ENV_PREFIX) :].lower().partition("__")
        overrides[section, key] = (name, _env_value(value))
    return overrides


def _token_keys(table: Mapping[str, Any], prefix: str = "") -> list[str]:
    """The dotted path of every token-like key in a TOML table, at any depth."""
    found: list[str] = []
    for key, value in table.items():
        if key.lower() in TOKEN_KEYS:
            found.append(prefix + key)
        elif isinstance(value, dict):
            found += _token_keys(value, f"{prefix}{key}.")
    return found


def _resolve_relative(data: dict[str, Any], base: Path) -> None:
    for section, key in (("database", "path"), ("database", "url"), ("catalog", "path")):
        value = data.get(section, {}).get(key) if isinstance(data.get(section), dict) else None
        relative = (isinstance(value, str) and value not in {"", ":memory:"}
                    and "://" not in value)
        if relative and not Path(str(value)).is_absolute():
            data[section][key] = str(base / str(value))


def _describe(
    exc: ValidationError,
    path: Path | None,
    overrides: Mapping[tuple[str, str], tuple[str, Any]],
    file_sections: set[str],
) -> str:
    """One line naming each problem by its TOML key path, or by its environment variable."""
    in_file: list[str] = []
    from_env: list[str] = []
    for error in exc.errors():
        # a check across sections (a lease against the Discord call bound) names its key
        loc = tuple(str(part) for part in error.get("ctx", {}).get("loc", error["loc"]))
        if len(loc) >= 2 and (loc[0], loc[1]) in overrides:
            items = "".join(f"[{part}]" for part in loc[2:])
            from_env.append(f"{overrides[loc[0], loc[1]][0]}{items}: {error['msg']}")
            continue
        names = [
            name for (section, _), (name, _) in overrides.items()
            if len(loc) == 1 and section == loc[0] and section not in file_sections
        ]  # a whole section that only the environment brought
        if names:
            from_env.append(f"{', '.join(names)}: {error['msg']}")
        else:
            in_file.append(f"{'.'.join(loc) or '(top level)'}: {error['msg']}")
    where = f"{path}: " if path else ""
    return "; ".join(([where + "; ".join(in_file)] if in_file else []) + from_env)


def load_settings(path: Path | None = None, env: Mapping[str, str] | None = None) -> Settings:
    """Read, merge and validate; raises `ConfigError` naming the offending key or variable."""
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
        tokens = _token_keys(data)
        if tokens:
            raise ConfigError(f"{path}: {tokens[0]}: {TOKEN_HINT}")
        _resolve_relative(data, path.parent)
    file_sections = set(data)
    overrides = _env_overrides(env)
    for (section, key), (name, value) in overrides.items():
        if key in TOKEN_KEYS:
            raise ConfigError(f"{name}: {TOKEN_HINT}")
        target = data.setdefault(section, {})
        if not isinstance(target, dict):
            raise ConfigError(f"{name}: '{section}' is not a section")
        target[key] = value
    if env.get(TOKEN_ENV):
        data["discord_token"] = env[TOKEN_ENV]
    try:
        return Settings.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(_describe(exc, path, overrides, file_sections)) from None
