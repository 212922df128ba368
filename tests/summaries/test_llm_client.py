"""The chat-completions client against the stand-in: answers, waits, broken bodies, the key,
and no more requests in flight than `concurrency`."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.features.summaries.llm_client import LlmBroken, LlmBusy, LlmClient
from bot.settings import ConfigError, load_settings
from bot.settings_llm import LLM_KEY_ENV, LlmSettings
from llm_standin import LlmFault, LlmStandIn

ASK = [{"role": "system", "content": "Write in English (en)."},
       {"role": "user", "content": "Title: Sparse attention"}]


def _settings(llm: LlmStandIn, **more: object) -> LlmSettings:
    values: dict[str, object] = {"enabled": True, "base_url": llm.base_url, "model": "standin",
                                 "requests_per_minute": 10_000, **more}
    return LlmSettings.model_validate(values, strict=False)


async def test_an_answer_with_its_usage_and_the_key_from_the_environment() -> None:
    async with LlmStandIn() as llm:
        settings = _settings(llm)
        key = settings.api_key({LLM_KEY_ENV: "sk-test"})
        async with LlmClient(settings, api_key=key) as client:
            answer = await client.complete(ASK)
        async with LlmClient(settings, api_key=settings.api_key({})) as client:
            await client.complete(ASK)
    assert "sparse" in answer.text and answer.tokens > 0
    assert [r.authorization for r in llm.requests] == ["Bearer sk-test", ""]
    assert llm.requests[0].model == "standin" and llm.requests[0].max_tokens == 400


async def test_throttling_errors_and_timeouts_say_wait_broken_bodies_say_broken() -> None:
    async with LlmStandIn() as llm:
        llm.fail(LlmFault.too_many_requests(7), LlmFault.server_error(503),
                 LlmFault.slow(2.0), LlmFault.malformed(), LlmFault.malformed('{"choices": []}'))
        async with LlmClient(_settings(llm, timeout_seconds=0.3)) as client:
            with pytest.raises(LlmBusy) as throttled:
                await client.complete(ASK)
            with pytest.raises(LlmBusy, match="503"):
                await client.complete(ASK)
            with pytest.raises(LlmBusy, match="timeout"):
                await client.complete(ASK)
            for _ in range(2):
                with pytest.raises(LlmBroken):
                    await client.complete(ASK)
    assert throttled.value.retry_after == 7.0


async def test_no_more_requests_in_flight_than_the_concurrency() -> None:
    async with LlmStandIn() as llm:
        llm.fail(*[LlmFault.slow(0.05)] * 8)
        async with LlmClient(_settings(llm, concurrency=3)) as client:
            await asyncio.gather(*(client.complete(ASK) for _ in range(8)))
    assert llm.peak_in_flight == 3


def test_llm_is_off_by_default_and_the_key_is_never_read_from_the_file(tmp_path: Path) -> None:
    assert load_settings().llm.enabled is False
    config = tmp_path / "c.toml"
    config.write_text('[llm]\napi_key = "sk-secret"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=f"api_key: the key is read only from {LLM_KEY_ENV}"):
        load_settings(config)
    env = {"PAPERCLUB_LLM__ENABLED": "true", "PAPERCLUB_LLM__MODEL": "llama3.1"}
    settings = load_settings(None, env).llm
    assert (settings.enabled, settings.model) == (True, "llama3.1")
