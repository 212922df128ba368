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
}
