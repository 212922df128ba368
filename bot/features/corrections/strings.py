"""Corrections (纠错): proposing a fix, the curators' review, the lists and the history."""

from __future__ import annotations

from bot.shared.lang import Texts, tr

STRINGS: dict[str, Texts] = {
    "corrections.too_long": tr("That is too long: at most {limit:,} characters.",
                               "太长了：最多 {limit:,} 个字符。",
                               "太長了：最多 {limit:,} 個字元。"),
    "corrections.empty": tr("This field cannot be empty.", "这一栏不能为空。", "這一欄不能為空。"),
    "corrections.bad_year": tr("A year is four digits, such as 2025.",
                               "年份是四位数字，例如 2025。", "年份是四位數字，例如 2025。"),
    "corrections.bad_track": tr("The track is one of: main, workshop, unknown.",
                                "类别只能是 main、workshop 或 unknown 之一。",
                                "類別只能是 main、workshop 或 unknown 之一。"),
    "corrections.bad_arxiv_id": tr("That is not an arXiv id: {problem}.",
                                   "这不是 arXiv 编号：{problem}。",
                                   "這不是 arXiv 編號：{problem}。"),
    "corrections.no_affiliation": tr(
        "This paper lists {count} affiliations; pick one of them by its number.",
        "这篇论文列出 {count} 个机构；请按编号选一个。",
        "這篇論文列出 {count} 個機構；請按編號選一個。"),
    "corrections.unchanged": tr("That is the value the paper already has.",
                                "这就是论文现在的值。", "這就是論文現在的值。"),
    "corrections.no_such": tr("There is no correction #{id} in this server.",
                              "本服务器没有编号 #{id} 的纠错。", "本伺服器沒有編號 #{id} 的糾錯。"),
    "corrections.no_paper": tr("No paper in the catalog has the id `{id}`.",
                               "论文库中没有编号为 `{id}` 的论文。",
                               "論文庫中沒有編號為 `{id}` 的論文。"),
    "count.corrections.one": tr("{n:,} correction", "{n:,} 条纠错", "{n:,} 條糾錯"),
    "count.corrections.other": tr("{n:,} corrections", "{n:,} 条纠错", "{n:,} 條糾錯"),
    "corrections.forgotten": tr(
        "Your name was removed from {corrections}; they stay, by \"a former member\".",
        "已从 {corrections}中移除你的名字；纠错本身保留，署名为“一位前成员”。",
        "已從 {corrections}中移除你的名字；糾錯本身保留，署名為「一位前成員」。"),
}
