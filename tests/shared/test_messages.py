"""The message catalogue: complete in three languages, the right script, reasons rendered."""

from __future__ import annotations

import string

import pytest
from opencc import OpenCC

from bot.shared.lang import Lang
from bot.shared.messages import CATALOGUE, duration, render_reason, t, tn, weekday
from domain.reasons import Reason, ReasonCode

TO_TRADITIONAL = OpenCC("s2tw")
TO_SIMPLIFIED = OpenCC("t2s")
# Mainland words whose Taiwan usage differs (伺服器, 設定, 訊息, 搜尋, 執行, 載入, 檔案).
MAINLAND_WORDS = ("服务器", "设置", "消息", "搜索", "运行", "加载", "文件")


def _fields(text: str) -> set[tuple[str, str]]:
    return {(name, spec or "") for _, name, spec, _ in string.Formatter().parse(text)
            if name is not None}


def test_every_key_has_all_languages_with_the_same_fields() -> None:
    assert len(CATALOGUE) > 150
    for key, texts in CATALOGUE.items():
        assert set(texts) == set(Lang), key
        assert all(texts.values()), key
        english = _fields(texts[Lang.EN])
        for lang in (Lang.ZH_HANS, Lang.ZH_HANT):
            assert {n for n, _ in _fields(texts[lang])} == {n for n, _ in english}, (key, lang)


@pytest.mark.parametrize("key", sorted(CATALOGUE))
def test_chinese_texts_are_in_their_own_script(key: str) -> None:
    hans, hant = CATALOGUE[key][Lang.ZH_HANS], CATALOGUE[key][Lang.ZH_HANT]
    assert TO_TRADITIONAL.convert(hant) == hant, f"{key}: Simplified characters in zh-TW"
    assert TO_SIMPLIFIED.convert(hans) == hans, f"{key}: Traditional characters in zh-CN"
    for word in MAINLAND_WORDS:
        assert TO_TRADITIONAL.convert(word) not in hant, f"{key}: mainland word {word} in zh-TW"


def test_english_plurals_and_durations() -> None:
    assert tn(Lang.EN, "count.papers", 1) == "1 paper"
    assert tn(Lang.EN, "count.papers", 1200) == "1,200 papers"
    assert tn(Lang.ZH_HANT, "count.papers", 2) == "2 篇論文"
    assert [duration(Lang.EN, m) for m in (60, 120, 1, 90)] == [
        "1 hour", "2 hours", "1 minute", "90 minutes"]
    assert duration(Lang.ZH_HANS, 180) == "3 小时"
    assert weekday(Lang.EN, 0) == "Mon" and weekday(Lang.ZH_HANT, 6) == "週日"


FAILED = Reason(ReasonCode.DISCORD_ERROR, {"status": 503, "code": 0})
ENGLISH: list[tuple[Reason, str]] = [
    (Reason(ReasonCode.OFFLINE_PAST_GRACE, {"grace_minutes": 120}),
     "bot was offline at the due time (more than 2 hours late)"),
    (Reason(ReasonCode.OFFLINE_PAST_GRACE, {"grace_minutes": 1}),
     "bot was offline at the due time (more than 1 minute late)"),
    (Reason(ReasonCode.LATER_DAY_DUE),
     "a later day's paper was already due when the bot caught up"),
    (Reason(ReasonCode.NO_ELIGIBLE_PAPER), "the catalog has no eligible paper"),
    (Reason(ReasonCode.PAPER_LEFT_CATALOG), "the chosen paper left the catalog"),
    (Reason(ReasonCode.CHANNEL_MISSING), "the channel no longer exists (10003)"),
    (Reason(ReasonCode.NO_ACCESS), "the bot cannot see the channel (missing access, 50001)"),
    (Reason(ReasonCode.NO_PERMISSION),
     "the bot lacks permission to post or open threads there (50013)"),
    (FAILED, "Discord answered 503 (no code)"),
    (Reason(ReasonCode.DISCORD_ERROR, {"status": 400, "code": 50035}),
     "Discord answered 400 (50035)"),
    (Reason(ReasonCode.EVENT_GONE),
     "the session's Discord event was deleted or ended in Discord"),
    (Reason(ReasonCode.NO_EVENT_PERMISSION),
     "paperclub may not create or edit events here: give it the Create Events (or Manage "
     "Events) permission, then try again"),
    (Reason(ReasonCode.NO_THREAD, cause=Reason(ReasonCode.NO_PERMISSION)),
     "no discussion thread: the bot lacks permission to post or open threads there (50013)"),
    (Reason(ReasonCode.THREADS_OFF), "threads are off"),
    (Reason(ReasonCode.PAUSED_AFTER_FAILURES, {"count": 3}, cause=FAILED),
     "paused after 3 failures in a row; last: Discord answered 503 (no code)"),
    (Reason(ReasonCode.DMS_CLOSED),
     "Discord refused a direct message (DMs from server members are closed). Allow them in "
     "the server's Privacy Settings, then run `/subscriptions resume_dms:true`."),
    (Reason(ReasonCode.LATER_REMINDER_DUE),
     "a later reminder was already due when the bot caught up"),
    (Reason(ReasonCode.SESSION_STARTED), "the session had already started"),
    (Reason(ReasonCode.ARXIV_BUSY), "arXiv is busy; I'll try again at the next check"),
    (Reason(ReasonCode.ARXIV_REJECTED, {"text": "incorrect id format"}),
     "arXiv refused the query: incorrect id format"),
    (Reason(ReasonCode.TEXT, {"text": "an old sentence {kept} as it was"}),
     "an old sentence {kept} as it was"),
]


def test_every_reason_code_renders_todays_english_sentence() -> None:
    assert {reason.code for reason, _ in ENGLISH} == set(ReasonCode)
    for reason, sentence in ENGLISH:
        assert render_reason(Lang.EN, reason) == sentence
        decoded = Reason.decode(reason.encode())
        assert render_reason(Lang.EN, decoded) == sentence


def test_reasons_render_in_chinese_with_nested_causes() -> None:
    paused = Reason(ReasonCode.PAUSED_AFTER_FAILURES, {"count": 3},
                    cause=Reason(ReasonCode.NO_THREAD, cause=Reason(ReasonCode.CHANNEL_MISSING)))
    assert render_reason(Lang.ZH_HANT, paused) == (
        "連續失敗 3 次後暫停；最後一次：沒有討論串：該頻道已不存在（10003）")
    grace = Reason(ReasonCode.OFFLINE_PAST_GRACE, {"grace_minutes": 90})
    assert render_reason(Lang.ZH_HANS, grace) == "预定时间机器人不在线（延迟超过 90 分钟）"
    legacy = Reason.decode("the catalog has no eligible paper")
    assert render_reason(Lang.ZH_HANS, legacy) == "the catalog has no eligible paper"


def test_a_reason_missing_its_parameters_still_renders() -> None:
    assert render_reason(Lang.EN, Reason(ReasonCode.PAUSED_AFTER_FAILURES)) == (
        "paused_after_failures")
    assert t(Lang.EN, "reason.text", text="{x}") == "{x}"
