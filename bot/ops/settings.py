"""The operator's settings, `[ops]` and `[logging]` (read with the others by `bot.settings`)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator


class OpsSettings(BaseModel):
    """The operations listener: `/healthz`, `/readyz` and `/metrics` (off by default), apart
    from the public web page."""

    # as every section of `bot.settings`: strict (a TOML `true` is not the number 1)
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    enabled: bool = False
    host: str = "127.0.0.1"
    """Keep it private: the metrics are for the operator's Prometheus, not the public."""
    port: int = Field(default=9310, ge=0, le=65535)
    """0 takes any free port (tests)."""
    metrics: bool = True
    """Serve `/metrics` (and count what it shows); false leaves only the health checks."""
    probe_timeout_seconds: float = Field(default=1.0, gt=0.0, le=30.0)
    """`/readyz` says "not ready" when the database's test write takes longer than this."""


class LoggingSettings(BaseModel):
    """Log output."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    format: Literal["human", "json"] = "human"

    @field_validator("level", mode="before")
    @classmethod
    def _upper_case(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value
