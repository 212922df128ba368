"""Why a post was skipped, failed or paused: `reason.<ReasonCode>` and the durations they use.

The English texts are the sentences stored before reasons became codes.
"""

from __future__ import annotations

from bot.shared.lang import Texts, tr

STRINGS: dict[str, Texts] = {
    "reason.offline_past_grace": tr(
        "bot was offline at the due time (more than {grace} late)",
        "预定时间机器人不在线（延迟超过 {grace}）", "預定時間機器人不在線（延遲超過 {grace}）"),
    "reason.later_day_due": tr(
        "a later day's paper was already due when the bot caught up",
        "机器人恢复时，之后一天的论文已经到期", "機器人恢復時，之後一天的論文已經到期"),
    "reason.no_eligible_paper": tr("the catalog has no eligible paper",
                                   "论文库里没有符合条件的论文",
                                   "論文庫裡沒有符合條件的論文"),
    "reason.paper_left_catalog": tr("the chosen paper left the catalog", "选中的论文已不在论文库中",
                                    "選中的論文已不在論文庫中"),
    "reason.channel_missing": tr("the channel no longer exists (10003)", "该频道已不存在（10003）",
                                 "該頻道已不存在（10003）"),
    "reason.no_access": tr("the bot cannot see the channel (missing access, 50001)",
                           "机器人看不到该频道（缺少访问权限，50001）",
                           "機器人看不到該頻道（缺少存取權限，50001）"),
    "reason.no_permission": tr(
        "the bot lacks permission to post or open threads there (50013)",
        "机器人没有在那里发布或开讨论串的权限（50013）",
        "機器人沒有在那裡發布或開討論串的權限（50013）"),
    "reason.discord_error": tr("Discord answered {status} ({code})",
                               "Discord 返回 {status}（{code}）",
                               "Discord 回應 {status}（{code}）"),
    "reason.event_gone": tr(
        "the session's Discord event was deleted or ended in Discord",
        "读书会的 Discord 活动已在 Discord 中被删除或结束",
        "讀書會的 Discord 活動已在 Discord 中被刪除或結束"),
    "reason.no_event_permission": tr(
        "paperclub may not create or edit events here: give it the Create Events (or Manage "
        "Events) permission, then try again",
        "paperclub 无权在这里创建或编辑活动：请授予它“创建活动”（或“管理活动”）权限后重试",
        "paperclub 無權在這裡建立或編輯活動：請授予它「建立活動」（或「管理活動」）權限後重試"),
    "reason.no_code": tr("no code", "无错误码", "無錯誤碼"),
    "reason.no_thread": tr("no discussion thread: {cause}", "没有讨论串：{cause}",
                           "沒有討論串：{cause}"),
    "reason.threads_off": tr("threads are off", "讨论串已关闭", "討論串已關閉"),
    "reason.paused_after_failures": tr(
        "paused after {count} failures in a row; last: {cause}",
        "连续失败 {count} 次后暂停；最后一次：{cause}",
        "連續失敗 {count} 次後暫停；最後一次：{cause}"),
    "reason.dms_closed": tr(
        "Discord refused a direct message (DMs from server members are closed). Allow them in "
        "the server's Privacy Settings, then run `/subscriptions resume_dms:true`.",
        "Discord 拒绝了一条私信（你关闭了来自服务器成员的私信）。请在该服务器的隐私设置中允许，"
        "然后运行 `/subscriptions resume_dms:true`。",
        "Discord 拒絕了一則私訊（你關閉了來自伺服器成員的私訊）。請在該伺服器的隱私設定中允許，"
        "然後執行 `/subscriptions resume_dms:true`。"),
    "reason.text": tr("{text}", "{text}", "{text}"),
    "duration.hours.one": tr("{n} hour", "{n} 小时", "{n} 小時"),
    "duration.hours.other": tr("{n} hours", "{n} 小时", "{n} 小時"),
    "duration.minutes.one": tr("{n} minute", "{n} 分钟", "{n} 分鐘"),
    "duration.minutes.other": tr("{n} minutes", "{n} 分钟", "{n} 分鐘"),
}
