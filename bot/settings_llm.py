"""The `[llm]` section: an OpenAI-compatible chat-completions endpoint for AI summaries.

Off by default: nothing is sent anywhere until an operator sets `enabled = true`. The key is
read from `PAPERCLUB_LLM_API_KEY` only (never from the file); a local server needs none."""

from __future__ import annotations

import os
from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict, Field, HttpUrl

LLM_KEY_ENV = "PAPERCLUB_LLM_API_KEY"
"""The one place the endpoint's key is read from."""


class LlmSettings(BaseModel):
    """Where summaries are generated and how much may be spent on them."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    enabled: bool = False
    base_url: HttpUrl = Field(default=HttpUrl("http://localhost:11434/v1"), strict=False)
    """The API's base URL, up to `/v1` (a local Ollama by default)."""
    model: str = Field(default="qwen2.5:7b-instruct", min_length=1, max_length=200)
    timeout_seconds: float = Field(default=120.0, gt=0.0, le=900.0)
    """One request's time limit (a local model on a CPU is slow)."""
    connect_timeout_seconds: float = Field(default=10.0, gt=0.0, le=120.0)
    concurrency: int = Field(default=2, ge=1, le=64)
    """Requests in flight at once, per process."""
    requests_per_minute: int = Field(default=30, ge=1, le=10_000)
    daily_token_budget: int = Field(default=200_000, ge=1_000, le=1_000_000_000)
    """Tokens (prompt and answer) a UTC day may spend, over every process; when reached,
    generation stops until the next day."""
    max_answer_tokens: int = Field(default=400, ge=50, le=4000)
    poll_seconds: float = Field(default=300.0, ge=5.0, le=86_400.0)
    """How often the background worker looks for papers to summarise (it is also woken after
    loads, adds and feed polls)."""

    def api_key(self, env: Mapping[str, str] | None = None) -> str | None:
        """The key from the environment, or None (a local server)."""
        value = (os.environ if env is None else env).get(LLM_KEY_ENV, "").strip()
        return value or None

    @property
    def lease_seconds(self) -> float:
        """How long a claimed paper stays this process's: longer than a request can take."""
        return 2 * (self.timeout_seconds + self.connect_timeout_seconds) + 60.0
