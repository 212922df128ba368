"""`/session`: scheduling, moving, cancelling and finishing sessions, and their reminders."""

from __future__ import annotations

from bot.shared.lang import Texts, tr

STRINGS: dict[str, Texts] = {
    # one reminder offset in words, and the list of them ("1 day and 1 hour")
    "offset.days.one": tr("{n} day", "{n} 天", "{n} 天"),
    "offset.days.other": tr("{n} days", "{n} 天", "{n} 天"),
    "offset.hours.one": tr("{n} hour", "{n} 小时", "{n} 小時"),
    "offset.hours.other": tr("{n} hours", "{n} 小时", "{n} 小時"),
    "offset.minutes.one": tr("{n} minute", "{n} 分钟", "{n} 分鐘"),
    "offset.minutes.other": tr("{n} minutes", "{n} 分钟", "{n} 分鐘"),
    "offset.separator": tr(", ", "、", "、"),
    "offset.last": tr("{rest} and {last}", "{rest}和 {last}", "{rest}和 {last}"),
    # reading what was typed
    "session.when.format": tr(
        "Give the date and local time as YYYY-MM-DD HH:MM, such as 2026-12-03 18:30.",
        "请按 YYYY-MM-DD HH:MM 给出日期和本地时间，例如 2026-12-03 18:30。",
        "請按 YYYY-MM-DD HH:MM 給出日期和本地時間，例如 2026-12-03 18:30。"),
    "session.when.past": tr("That time has already passed: pick a time in the future.",
                            "这个时间已经过去了：请选择将来的时间。",
                            "這個時間已經過去了：請選擇未來的時間。"),
    "session.reminders.format": tr(
        "Give up to {most} times before the session, such as 24h 1h or 1d 30m.",
        "请给出最多 {most} 个提前时间，例如 24h 1h 或 1d 30m。",
        "請給出最多 {most} 個提前時間，例如 24h 1h 或 1d 30m。"),
    "session.link_format": tr("The link must start with https:// or http://.",
                              "链接必须以 https:// 或 http:// 开头。",
                              "連結必須以 https:// 或 http:// 開頭。"),
    "session.paper_unknown": tr(
        "I can't find that paper: pick one of the suggestions, or give the paper's id.",
        "找不到这篇论文：请从建议中选择，或给出论文编号。",
        "找不到這篇論文：請從建議中選擇，或給出論文編號。"),
    "session.unknown": tr(
        "There is no upcoming session with that number here: see `/session list`.",
        "这里没有这个编号的待举行读书会：请查看 `/session list`。",
        "這裡沒有這個編號的待舉行讀書會：請查看 `/session list`。"),
    "session.done.who": tr(
        "Only an organiser or the session's presenter can mark it done.",
        "只有组织者或本次读书会的报告人才能标记完成。",
        "只有組織者或本次讀書會的報告人才能標記完成。"),
    "session.discord_refused": tr("Discord refused: {reason}. Nothing was scheduled or changed.",
                                  "Discord 拒绝了：{reason}。没有安排或更改任何内容。",
                                  "Discord 拒絕了：{reason}。沒有安排或變更任何內容。"),
    "session.discord_retry": tr(
        "Try again in a few minutes; if it keeps failing, tell the bot's operator.",
        "请过几分钟再试；如果一直失败，请告诉机器人的管理员。",
        "請過幾分鐘再試；如果一直失敗，請告訴機器人的管理員。"),
    # posts
    "session.when": tr("{full} ({relative})", "{full}（{relative}）", "{full}（{relative}）"),
    "session.where.here": tr("here in {channel}", "就在 {channel}", "就在 {channel}"),
    "session.presenter.none": tr("nobody yet", "暂无", "暫無"),
    "session.announce.presenter": tr("{presenter} presents this one.",
                                     "本次由 {presenter} 报告。", "本次由 {presenter} 報告。"),
    "session.announce.body": tr(
        "📅 **Reading-group session**\n**When:** {when}\n**Presenter:** {presenter}\n"
        "**Where:** {where}\n**Event:** {event}\nDiscuss in the thread below.",
        "📅 **读书会**\n**时间：**{when}\n**报告人：**{presenter}\n**地点：**{where}\n"
        "**活动：**{event}\n请在下方讨论串中讨论。",
        "📅 **讀書會**\n**時間：**{when}\n**報告人：**{presenter}\n**地點：**{where}\n"
        "**活動：**{event}\n請在下方討論串中討論。"),
    "session.footer": tr("Session #{id}", "读书会 #{id}", "讀書會 #{id}"),
    "session.reminder.title": tr("⏰ Reminder", "⏰ 提醒", "⏰ 提醒"),
    "session.reminder.body": tr(
        "**{title}** starts in {before}: {when}\n**Presenter:** {presenter}\n**Where:** {where}",
        "**{title}** 将在 {before} 后开始：{when}\n**报告人：**{presenter}\n**地点：**{where}",
        "**{title}** 將在 {before} 後開始：{when}\n**報告人：**{presenter}\n**地點：**{where}"),
    "session.reminder.late": tr("(Sent late: the bot was offline when it was due.)",
                                "（延迟发送：预定时间机器人不在线。）",
                                "（延遲發送：預定時間機器人不在線。）"),
    "session.notice.moved": tr("🔁 The session on **{title}** moved to {when}.",
                               "🔁 **{title}** 读书会改到 {when}。",
                               "🔁 **{title}** 讀書會改到 {when}。"),
    "session.notice.cancelled": tr("❌ The session on **{title}** ({when}) is cancelled.",
                                   "❌ **{title}** 读书会（{when}）已取消。",
                                   "❌ **{title}** 讀書會（{when}）已取消。"),
    "session.notice.done": tr("✅ **{title}** has been discussed. Thanks, everyone!",
                              "✅ **{title}** 已讨论完毕。谢谢大家！",
                              "✅ **{title}** 已討論完畢。謝謝大家！"),
    "session.prep.title": tr("📝 Questions to prepare", "📝 讨论准备问题", "📝 討論準備問題"),
    "session.prep.body": tr("Questions to think about before discussing **{title}**:\n{questions}",
                            "讨论 **{title}** 之前可以思考的问题：\n{questions}",
                            "討論 **{title}** 之前可以思考的問題：\n{questions}"),
    "session.prep.footer": tr("AI-generated · {model} · not checked · {marker}",
                              "AI 生成 · {model} · 未经核对 · {marker}",
                              "AI 生成 · {model} · 未經核對 · {marker}"),
    "session.notes": tr("Notes", "笔记", "筆記"),
    "session.notes.modal": tr("Session notes", "读书会笔记", "讀書會筆記"),
    # replies
    "session.problem": tr("⚠️ Reminders for session #{id} stopped: {reason}.",
                          "⚠️ 读书会 #{id} 的提醒已停止：{reason}。",
                          "⚠️ 讀書會 #{id} 的提醒已停止：{reason}。"),
    "session.scheduled": tr(
        "Scheduled session #{id}: **{title}**, {when} ({local} {zone}). Announcement: {link} · "
        "event: {event}",
        "已安排读书会 #{id}：**{title}**，{when}（{local} {zone}）。公告：{link} · 活动：{event}",
        "已安排讀書會 #{id}：**{title}**，{when}（{local} {zone}）。公告：{link} · 活動：{event}"),
    "session.list.title": tr("Upcoming sessions", "即将举行的读书会", "即將舉行的讀書會"),
    "session.list.empty": tr("No sessions are scheduled.", "目前没有安排读书会。",
                             "目前沒有安排讀書會。"),
    "session.list.line": tr("{when} · presenter: {presenter} · {link}",
                            "{when} · 报告人：{presenter} · {link}",
                            "{when} · 報告人：{presenter} · {link}"),
    "session.moved": tr("Session #{id} now starts {when}; its reminders start over.",
                        "读书会 #{id} 改为 {when} 开始，提醒将重新安排。",
                        "讀書會 #{id} 改為 {when} 開始，提醒將重新安排。"),
    "session.cancelled": tr("Session #{id} is cancelled; its event is removed.",
                            "读书会 #{id} 已取消，活动已删除。",
                            "讀書會 #{id} 已取消，活動已刪除。"),
    "session.done": tr("Session #{id} is done and its paper recorded as discussed ({where}).",
                       "读书会 #{id} 已完成，论文已记为讨论过（{where}）。",
                       "讀書會 #{id} 已完成，論文已記為討論過（{where}）。"),
    # reasons
    "reason.later_reminder_due": tr("a later reminder was already due when the bot caught up",
                                    "机器人恢复时，更晚的提醒已经到期",
                                    "機器人恢復時，更晚的提醒已經到期"),
    "reason.session_started": tr("the session had already started", "读书会已经开始",
                                 "讀書會已經開始"),
}
