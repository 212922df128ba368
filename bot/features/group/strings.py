"""`/group`: organisers, the time zone, reminders, who adds papers."""

from __future__ import annotations

from bot.shared.lang import Texts, tr

STRINGS: dict[str, Texts] = {
    "organiser.only": tr("Only organisers ({who}) can {action}.",
                         "只有组织者（{who}）才能{action}。", "只有組織者（{who}）才能{action}。"),
    "organiser.who_role": tr("{perm} or {role}", "{perm}或 {role}", "{perm}或 {role}"),
    "organiser.action.schedule": tr("schedule sessions", "安排读书会", "安排讀書會"),
    "organiser.action.move": tr("move sessions", "改期读书会", "改期讀書會"),
    "organiser.action.cancel": tr("cancel sessions", "取消读书会", "取消讀書會"),
    "organiser.action.vote_start": tr("start votes", "发起投票", "發起投票"),
    "organiser.action.vote_close": tr("close votes", "结束投票", "結束投票"),
    "group.organisers.role": tr(
        "Organisers: members with {perm}, and members of {role}.",
        "组织者：拥有{perm}权限的成员，以及 {role} 的成员。",
        "組織者：擁有{perm}權限的成員，以及 {role} 的成員。"),
    "group.organisers.default": tr("Organisers: members with {perm} only.",
                                   "组织者：仅限拥有{perm}权限的成员。",
                                   "組織者：僅限擁有{perm}權限的成員。"),
    "group.organisers.how": tr(
        "Name a role to change it, or use `clear:true` to let only Manage Server organise.",
        "指定一个身份组即可更改；使用 `clear:true` 则仅由拥有管理服务器权限的成员组织。",
        "指定一個身分組即可變更；使用 `clear:true` 則僅由擁有管理伺服器權限的成員組織。"),
    "group.organisers.role_or_clear": tr(
        "Give a role or `clear:true`, not both.", "请指定身份组或 `clear:true`，不要同时使用。",
        "請指定身分組或 `clear:true`，不要同時使用。"),
    "group.timezone.saved": tr("Sessions use the time zone {zone}.",
                               "读书会使用时区 {zone}。", "讀書會使用時區 {zone}。"),
    "group.timezone.digest_own": tr(
        "The paper of the day keeps its own time zone ({zone}).",
        "每日论文仍使用其自己的时区（{zone}）。",
        "每日論文仍使用其自己的時區（{zone}）。"),
    "group.reminders.saved": tr("Reminders go out {before} before each session.",
                                "每次读书会前 {before} 发送提醒。",
                                "每次讀書會前 {before} 發送提醒。"),
    "group.prep.on": tr(
        "Each session gets a prep sheet in its thread a day before: discussion questions "
        "generated from the paper's title and abstract.",
        "每次读书会前一天会在讨论串中发布准备问题：根据论文标题和摘要生成的讨论问题。",
        "每次讀書會前一天會在討論串中發布準備問題：根據論文標題和摘要生成的討論問題。"),
    "group.prep.off": tr("Sessions get no prep sheet.", "读书会不再发布准备问题。",
                         "讀書會不再發布準備問題。"),
    "group.prep.no_llm": tr(
        "(This bot's operator has not set up a model endpoint, so no sheets are made.)",
        "（本机器人的运营者尚未配置模型接口，因此不会生成准备问题。）",
        "（本機器人的營運者尚未設定模型介面，因此不會生成準備問題。）"),
}
