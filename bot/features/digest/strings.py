"""`/digest` and the paper-of-the-day post."""

from __future__ import annotations

from bot.shared.lang import Texts, tr

STRINGS: dict[str, Texts] = {
    "digest.paused_notice": tr(
        "⚠️ The paper of the day is paused: {reason}. Run `/digest set` again once fixed.",
        "⚠️ 每日论文已暂停：{reason}。修复后请重新运行 `/digest set`。",
        "⚠️ 每日論文已暫停：{reason}。修正後請重新執行 `/digest set`。"),
    "digest.cannot_post": tr(
        "I can't post in {channel}: I'm missing {perms}. Give paperclub these permissions in "
        "that channel (or pick another channel) and try again.",
        "我无法在 {channel} 发布：缺少 {perms} 权限。请在该频道给 paperclub 这些权限"
        "（或换一个频道）后再试。",
        "我無法在 {channel} 發布：缺少 {perms} 權限。請在該頻道給 paperclub 這些權限"
        "（或換一個頻道）後再試。"),
    "digest.saved": tr(
        "Paper of the day: {channel} every day at {time} {zone}. Next post: {next}.",
        "每日论文：每天 {time}（{zone}）发布到 {channel}。下一次发布：{next}。",
        "每日論文：每天 {time}（{zone}）發布到 {channel}。下一次發布：{next}。"),
    "digest.when": tr("{weekday} {date} {zone} ({relative})",
                      "{date}（{weekday}）{zone}（{relative}）",
                      "{date}（{weekday}）{zone}（{relative}）"),
    "weekdays": tr("Mon Tue Wed Thu Fri Sat Sun", "周一 周二 周三 周四 周五 周六 周日",
                   "週一 週二 週三 週四 週五 週六 週日"),
    "digest.off": tr("The paper of the day is off.", "每日论文已关闭。", "每日論文已關閉。"),
    "digest.was_off": tr("There was no paper of the day.", "本来就没有每日论文。",
                         "本來就沒有每日論文。"),
    "digest.none_yet": tr("No paper of the day yet: use `/digest set`.",
                          "还没有每日论文：请使用 `/digest set`。",
                          "還沒有每日論文：請使用 `/digest set`。"),
    "digest.none_yet_first": tr("No paper of the day yet: use `/digest set` first.",
                                "还没有每日论文：请先使用 `/digest set`。",
                                "還沒有每日論文：請先使用 `/digest set`。"),
    "digest.status.title": tr("Paper of the day", "每日论文", "每日論文"),
    "digest.status.state": tr("State", "状态", "狀態"),
    "digest.status.channel": tr("Channel", "频道", "頻道"),
    "digest.status.time": tr("Time", "时间", "時間"),
    "digest.status.options": tr("Options", "选项", "選項"),
    "digest.status.next": tr("Next post", "下一次发布", "下一次發布"),
    "digest.status.recent": tr("Recent", "最近", "最近"),
    "digest.status.on": tr("on", "开启", "開啟"),
    "digest.status.off": tr("off", "关闭", "關閉"),
    "digest.status.paused": tr("paused — {reason}", "已暂停 — {reason}", "已暫停 — {reason}"),
    "digest.option.thread": tr("thread {state}", "讨论串{state}", "討論串{state}"),
    "digest.option.mentions": tr("mentions {state}", "提及{state}", "提及{state}"),
    "digest.option.papers": tr("papers: {track}", "论文：{track}", "論文：{track}"),
    "digest.option.skip_discussed": tr("skip discussed papers {state}", "跳过已讨论的论文{state}",
                                       "跳過已討論的論文{state}"),
    "digest.track.any": tr("any", "不限", "不限"),
    "digest.track.main": tr("main", "主会", "主會"),
    "digest.track.workshop": tr("workshop", "研讨会", "研討會"),
    "digest.recent.posted": tr("✅ posted", "✅ 已发布", "✅ 已發布"),
    "digest.recent.skipped": tr("⏭️ skipped", "⏭️ 已跳过", "⏭️ 已跳過"),
    "digest.recent.failed": tr("⚠️ failed", "⚠️ 失败", "⚠️ 失敗"),
    "digest.recent.claimed": tr("⏳ in progress", "⏳ 进行中", "⏳ 進行中"),
    "digest.recent.position": tr("{position} of {size}", "第 {position}/{size} 篇",
                                 "第 {position}/{size} 篇"),
    "digest.recent.late": tr("late", "延迟", "延遲"),
    "digest.recent.nothing": tr("nothing yet", "暂无记录", "暫無紀錄"),
    "digest.preview.empty": tr("The catalog has no paper for the paper of the day.",
                               "论文库里没有可作为每日论文的论文。",
                               "論文庫裡沒有可作為每日論文的論文。"),
    "digest.preview.note": tr(
        "**Next paper of the day** (preview) · {position} of {size} in this cycle",
        "**下一篇每日论文**（预览）· 本轮第 {position}/{size} 篇",
        "**下一篇每日論文**（預覽）· 本輪第 {position}/{size} 篇"),
    "digest.now.posted": tr("Posted today's paper: {where}", "已发布今天的论文：{where}",
                            "已發布今天的論文：{where}"),
    "digest.now.already": tr("Today's paper is already out: {where}", "今天的论文已经发布：{where}",
                             "今天的論文已經發布：{where}"),
    "digest.now.failed": tr("Could not post: {reason}", "无法发布：{reason}", "無法發布：{reason}"),
    "digest.now.pick_channel": tr(
        "Choose a channel the bot can post in with `/digest set`, then try `/digest now` again.",
        "请用 `/digest set` 选择机器人能发布的频道，然后再试一次 `/digest now`。",
        "請用 `/digest set` 選擇機器人能發布的頻道，然後再試一次 `/digest now`。"),
    "digest.now.off": tr(
        "The paper of the day is off, so nothing was posted. `/digest set` turns it on again.",
        "每日论文已关闭，因此没有发布。使用 `/digest set` 重新开启。",
        "每日論文已關閉，因此沒有發布。使用 `/digest set` 重新開啟。"),
    "digest.post.note": tr("**Paper of the day** · {position} of {size} in this cycle",
                           "**每日论文** · 本轮第 {position}/{size} 篇",
                           "**每日論文** · 本輪第 {position}/{size} 篇"),
    "digest.post.recommended": tr(
        "**Paper of the day** · recommended for the group, like *{title}*",
        "**每日论文** · 为小组推荐，与《{title}》相似",
        "**每日論文** · 為小組推薦，與《{title}》相似"),
    "digest.post.recommended_plain": tr("**Paper of the day** · recommended for the group",
                                        "**每日论文** · 为小组推荐", "**每日論文** · 為小組推薦"),
    "digest.preview.recommended": tr(
        "**Next paper of the day** (preview) · recommended for the group, like *{title}*",
        "**下一篇每日论文**（预览）· 为小组推荐，与《{title}》相似",
        "**下一篇每日論文**（預覽）· 為小組推薦，與《{title}》相似"),
    "digest.preview.recommended_plain": tr(
        "**Next paper of the day** (preview) · recommended for the group",
        "**下一篇每日论文**（预览）· 为小组推荐", "**下一篇每日論文**（預覽）· 為小組推薦"),
    "digest.option.pick": tr(
        "picked: the group's recommended paper (never one posted, discussed or bookmarked "
        "before; fresh papers preferred)",
        "选题：小组的推荐论文（不选发布过、讨论过或收藏过的；优先较新的论文）",
        "選題：小組的推薦論文（不選發布過、討論過或收藏過的；優先較新的論文）"),
    "digest.option.pick_fallback": tr(
        "picked: the group's recommended paper — the group has no signals yet, so the cycle "
        "picks until someone bookmarks, 👍s, suggests or votes for a paper, or one is "
        "discussed",
        "选题：小组的推荐论文 — 小组还没有任何依据，在有人收藏、👍、推荐或投票给论文，"
        "或讨论过论文之前，按轮换选题",
        "選題：小組的推薦論文 — 小組還沒有任何依據，在有人收藏、👍、推薦或投票給論文，"
        "或討論過論文之前，按輪換選題"),
    "digest.recent.recommended": tr("recommended", "推荐", "推薦"),
    "cmd.name.pick": tr("pick", "选题", "選題"),
    "cmd.desc.pick": tr("Cycle through the catalog, or the group's recommended paper",
                        "轮换整个论文库，或选小组的推荐论文", "輪換整個論文庫，或選小組的推薦論文"),
    "cmd.choice.cycle": tr("Cycle through the catalog", "轮换论文库", "輪換論文庫"),
    "cmd.choice.recommended": tr("Recommended for the group", "为小组推荐", "為小組推薦"),
    "digest.thread.name": tr("Paper of the day", "每日论文", "每日論文"),
    "digest.post.late": tr("Posted late: the bot was offline at the scheduled time.",
                           "延迟发布：预定时间机器人不在线。", "延遲發布：預定時間機器人不在線。"),
}
