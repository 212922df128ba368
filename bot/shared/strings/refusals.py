"""Refusals of what a member typed: times, time zones and search filters."""

from __future__ import annotations

from bot.shared.lang import Texts, tr

STRINGS: dict[str, Texts] = {
    "time.format": tr("Use a 24-hour time such as 09:30 or 21:00 (HH:MM).",
                      "请使用 24 小时制时间，例如 09:30 或 21:00（HH:MM）。",
                      "請使用 24 小時制時間，例如 09:30 或 21:00（HH:MM）。"),
    "time.range": tr(
        "That time does not exist: hours go from 00 to 23 and minutes from 00 to 59, e.g. 09:30 "
        "or 21:00.",
        "没有这个时间：小时为 00 到 23，分钟为 00 到 59，例如 09:30 或 21:00。",
        "沒有這個時間：小時為 00 到 23，分鐘為 00 到 59，例如 09:30 或 21:00。"),
    "zone.empty": tr(
        "Give a time zone name such as Europe/Berlin, America/New_York or Asia/Shanghai.",
        "请给出时区名称，例如 Asia/Shanghai、Europe/Berlin 或 America/New_York。",
        "請給出時區名稱，例如 Asia/Taipei、Europe/Berlin 或 America/New_York。"),
    "zone.offset": tr(
        "“{zone}” is a fixed offset, not a time zone: fixed offsets like UTC+3 don't follow "
        "daylight saving. Use the zone of a city instead, such as Europe/Moscow, Europe/Berlin, "
        "America/New_York or Asia/Shanghai.",
        "“{zone}”是固定时差，不是时区：UTC+3 这样的固定时差不随夏令时变化。请改用城市所在的时区，"
        "例如 Asia/Shanghai、Europe/Berlin 或 America/New_York。",
        "「{zone}」是固定時差，不是時區："
        "UTC+3 這樣的固定時差不隨夏令時間變化。請改用城市所在的時區，"
        "例如 Asia/Taipei、Europe/Berlin 或 America/New_York。"),
    "zone.etc": tr(
        "“{zone}” means UTC{sign}{hours}, not what it looks like: Etc/GMT names use the POSIX "
        "convention, which inverts the sign, and they never follow daylight saving. Use the zone "
        "of a city instead, such as Europe/Berlin, America/New_York or Asia/Shanghai.",
        "“{zone}”的意思是 UTC{sign}{hours}，"
        "与看上去相反：Etc/GMT 名称采用 POSIX 约定，正负号是反的，"
        "而且不随夏令时变化。请改用城市所在的时区，例如 Asia/Shanghai、Europe/Berlin 或 "
        "America/New_York。",
        "「{zone}」的意思是 UTC{sign}{hours}，"
        "與看起來相反：Etc/GMT 名稱採用 POSIX 慣例，正負號是反的，"
        "而且不隨夏令時間變化。請改用城市所在的時區，例如 Asia/Taipei、Europe/Berlin 或 "
        "America/New_York。"),
    "zone.abbreviation": tr(
        "“{zone}” is an abbreviation, not a time zone, and doesn't switch between summer and "
        "winter time. Use {hint}, or another city zone.",
        "“{zone}”是缩写，不是时区，也不会在夏令时和冬令时之间切换。请使用 {hint} 或其他城市时区。",
        "「{zone}」是縮寫，不是時區，也不會在夏令時間和冬令時間之間切換。"
        "請使用 {hint} 或其他城市時區。"),
    "zone.unknown": tr(
        "Unknown time zone “{zone}”. Use an IANA name such as Europe/Berlin, America/New_York or "
        "Asia/Shanghai.",
        "未知时区“{zone}”。请使用 IANA 名称，例如 Asia/Shanghai、"
        "Europe/Berlin 或 America/New_York。",
        "未知時區「{zone}」。請使用 IANA 名稱，例如 Asia/Taipei、"
        "Europe/Berlin 或 America/New_York。"),
    "zone.unknown_suggest": tr(
        "Unknown time zone “{zone}”. Use an IANA name such as Europe/Berlin, America/New_York or "
        "Asia/Shanghai. Did you mean {suggestions}?",
        "未知时区“{zone}”。请使用 IANA 名称，例如 Asia/Shanghai、"
        "Europe/Berlin 或 America/New_York。"
        "你是不是要找 {suggestions}？",
        "未知時區「{zone}」。請使用 IANA 名稱，例如 Asia/Taipei、"
        "Europe/Berlin 或 America/New_York。"
        "你是不是要找 {suggestions}？"),
    "query.honours": tr("honours can be {honours}", "荣誉只能是 {honours}", "榮譽只能是 {honours}"),
    "query.no_words": tr(
        "The query has no words to search for (leave it empty for a random paper).",
        "查询里没有可搜索的词（留空即可随机显示一篇论文）。",
        "查詢裡沒有可搜尋的詞（留空即可隨機顯示一篇論文）。"),
    "query.year": tr("year must be four digits, like 2026", "年份必须是四位数字，例如 2026",
                     "年份必須是四位數字，例如 2026"),
}
