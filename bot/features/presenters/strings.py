"""`/present` and the presenter rotation: who presents next, and why."""

from __future__ import annotations

from bot.shared.lang import Texts, tr

STRINGS: dict[str, Texts] = {
    # turns, not presentations: a turn may be a session not yet held, or a turn skipped
    "rotation.proposed": tr("Presenter proposed by the rotation: {presenter} — {ago}.",
                            "轮值推荐的报告人：{presenter} — {ago}。",
                            "輪值推薦的報告人：{presenter} — {ago}。"),
    "rotation.never": tr("has not presented yet", "还没有报告过", "還沒有報告過"),
    "rotation.ago.one": tr("had the previous turn", "上一轮轮到过", "上一輪輪到過"),
    "rotation.ago.other": tr("had a turn {n} turns ago", "{n} 轮之前轮到过",
                             "{n} 輪之前輪到過"),
    "rotation.nobody": tr("No presenter yet: nobody has volunteered (`/present volunteer`).",
                          "暂无报告人：还没有人报名（`/present volunteer`）。",
                          "暫無報告人：還沒有人報名（`/present volunteer`）。"),
    "rotation.joined": tr("You're in the presenter rotation.", "你已加入报告轮值。",
                          "你已加入報告輪值。"),
    "rotation.already": tr("You're already in the presenter rotation.", "你已经在报告轮值中了。",
                           "你已經在報告輪值中了。"),
    "rotation.left": tr("You left the presenter rotation.", "你已退出报告轮值。",
                        "你已退出報告輪值。"),
    "rotation.skipped": tr("You'll be proposed after everyone else.",
                           "你将排在其他所有人之后。", "你將排在其他所有人之後。"),
    "rotation.not_volunteer": tr("You're not in the rotation: use `/present volunteer` first.",
                                 "你不在轮值中：请先使用 `/present volunteer`。",
                                 "你不在輪值中：請先使用 `/present volunteer`。"),
    "rotation.swapped": tr("You and {member} swapped places in the rotation.",
                           "你和 {member} 交换了轮值顺序。", "你和 {member} 交換了輪值順序。"),
    "rotation.swap_refused": tr(
        "Both you and {member} must be in the rotation (`/present volunteer`) to swap.",
        "你和 {member} 都必须在轮值中（`/present volunteer`）才能交换。",
        "你和 {member} 都必須在輪值中（`/present volunteer`）才能交換。"),
}
