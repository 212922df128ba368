"""The chat-completions stand-in answers like the API, deterministically, and misbehaves on
demand."""

from __future__ import annotations

import json

import aiohttp

from llm_standin import LlmFault, LlmStandIn


async def _ask(llm: LlmStandIn, system: str, user: str) -> tuple[int, dict[str, str], str]:
    body = {"model": "m", "messages": [{"role": "system", "content": system},
                                       {"role": "user", "content": user}]}
    async with aiohttp.ClientSession() as session, session.post(
            f"{llm.base_url}/chat/completions", json=body) as response:
        return response.status, dict(response.headers), await response.text()


async def test_answers_in_the_asked_language_the_same_each_time() -> None:
    async with LlmStandIn() as llm:
        first, again, english = [
            json.loads((await _ask(llm, system, "Title: Graphs"))[2])["choices"][0]["message"][
                "content"] for system in ("Answer in Simplified Chinese (zh-CN).",
                                          "Answer in Simplified Chinese (zh-CN).",
                                          "Answer in English.")]
    assert first == again
    assert "本文" in first or "作者" in first or "实验" in first or "该" in first
    assert "graphs" in english and "本文" not in english
    assert [r.language for r in llm.requests] == ["zh-CN", "zh-CN", "en"]
    assert llm.tokens_served > 0


async def test_faults_come_in_order_then_normal_answers() -> None:
    async with LlmStandIn() as llm:
        llm.fail(LlmFault.too_many_requests(7), LlmFault.malformed(), LlmFault.answer("@here"))
        status, headers, _ = await _ask(llm, "English", "x")
        malformed = await _ask(llm, "English", "x")
        mentions = await _ask(llm, "English", "x")
        normal = await _ask(llm, "English", "x")
    assert (status, headers["Retry-After"]) == (429, "7")
    assert malformed[0] == 200 and not malformed[2].endswith("}")
    assert json.loads(mentions[2])["choices"][0]["message"]["content"] == "@here"
    assert normal[0] == 200 and llm.pending_faults == 0
