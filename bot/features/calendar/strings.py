"""The calendar feed's texts: event descriptions, reminders, `/group calendar` answers."""

from __future__ import annotations

from bot.shared.lang import Texts, tr

STRINGS: dict[str, Texts] = {
    "calendar.name": tr("{server} reading group", "{server} 读书会", "{server} 讀書會"),
    "calendar.presenter": tr("Presenter: {name}", "报告人：{name}", "報告人：{name}"),
    "calendar.thread": tr("Discussion: {link}", "讨论串：{link}", "討論串：{link}"),
    "calendar.paper": tr("Paper: {link}", "论文：{link}", "論文：{link}"),
    "calendar.where": tr("Where: {link}", "地点：{link}", "地點：{link}"),
    "calendar.reminder": tr("Reading group: {title}", "读书会：{title}", "讀書會：{title}"),
    # /calendar
    "calendar.links": tr(
        "📅 **The reading group's calendar**\nSubscribe in your calendar app: <{webcal}>\n"
        "Or add it by address: <{https}>\nSessions appear, move and disappear by themselves. "
        "Keep the link to yourself: anyone who has it sees the sessions.",
        "📅 **读书会日历**\n在日历应用中订阅：<{webcal}>\n或按网址添加：<{https}>\n"
        "读书会的新增、改期和取消会自动同步。请勿外传此链接：拿到它的人都能看到读书会安排。",
        "📅 **讀書會行事曆**\n在行事曆應用程式中訂閱：<{webcal}>\n或依網址新增：<{https}>\n"
        "讀書會的新增、改期和取消會自動同步。請勿外流此連結：拿到它的人都能看到讀書會安排。"),
    "calendar.off": tr("The calendar feed is off. An organiser can turn it on with "
                       "`/calendar rotate`.",
                       "日历订阅已关闭。组织者可以用 `/calendar rotate` 重新开启。",
                       "行事曆訂閱已關閉。組織者可以用 `/calendar rotate` 重新開啟。"),
    "calendar.turned_off": tr("The calendar feed is off: its links no longer work.",
                              "日历订阅已关闭：原有链接已失效。",
                              "行事曆訂閱已關閉：原有連結已失效。"),
    "calendar.already_off": tr("The calendar feed was already off.", "日历订阅本来就是关闭的。",
                               "行事曆訂閱本來就是關閉的。"),
    "calendar.rotated": tr("New calendar links: the old ones stopped working.",
                           "已生成新的日历链接：旧链接已失效。",
                           "已產生新的行事曆連結：舊連結已失效。"),
    "calendar.not_served": tr(
        "(This bot does not serve web pages yet: its host has to turn on `[web]` in the "
        "configuration before the links work.)",
        "（这个机器人尚未开启网页服务：需要由部署者在配置中开启 `[web]`，链接才能使用。）",
        "（這個機器人尚未開啟網頁服務：需要由部署者在設定中開啟 `[web]`，連結才能使用。）"),
    "organiser.action.calendar": tr("change the calendar link", "更改日历链接", "更改行事曆連結"),
    "cmd.name.calendar": tr("calendar", "日历", "行事曆"),
    "cmd.desc.calendar": tr("The reading group's sessions in your calendar app",
                            "在日历应用中查看读书会", "在行事曆應用程式中查看讀書會"),
    "cmd.desc.calendar_link": tr("Your link to subscribe to the sessions",
                                 "订阅读书会的链接", "訂閱讀書會的連結"),
    "cmd.name.rotate": tr("rotate", "更换链接", "更換連結"),
    "cmd.desc.rotate": tr("New calendar links; the old ones stop working (organisers)",
                          "生成新的日历链接，旧链接失效（组织者）",
                          "產生新的行事曆連結，舊連結失效（組織者）"),
    "cmd.desc.calendar_off": tr("Turn the calendar feed off (organisers)",
                                "关闭日历订阅（组织者）", "關閉行事曆訂閱（組織者）"),
}
