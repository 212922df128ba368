"""Paper cards, result lists and `/catalog`."""

from __future__ import annotations

from bot.core.lang import Texts, tr

STRINGS: dict[str, Texts] = {
    "card.authors": tr("Authors", "作者", "作者"),
    "card.affiliations": tr("Affiliations", "机构", "機構"),
    "card.venue": tr("Venue", "会议", "會議"),
    "card.summary": tr("AI summary (Chinese)", "AI总结", "AI總結"),
    "card.length": tr("Length", "篇幅", "篇幅"),
    "card.more": tr("and {n} more", "等 {n} 位", "等 {n} 位"),
    "card.arxiv": tr("Find on arXiv", "在 arXiv 查找", "在 arXiv 查詢"),
    "results.found": tr("{n} papers match “{q}”", "找到 {n} 篇与“{q}”相关的论文",
                        "找到 {n} 篇與「{q}」相關的論文"),
    "results.page": tr("Page {page} of {pages}", "第 {page}/{pages} 页", "第 {page}/{pages} 頁"),
    "results.none": tr("No paper matches **{q}**.", "没有找到与 **{q}** 相关的论文。",
                       "沒有找到與 **{q}** 相關的論文。"),
    "results.did_you_mean": tr("Did you mean **{s}**?", "您是不是要找 **{s}**？",
                               "您是不是要找 **{s}**？"),
    "results.corrected": tr("Showing results for **{s}**.", "已显示 **{s}** 的结果。",
                            "已顯示 **{s}** 的結果。"),
    "results.hint": tr("Try fewer words, an author (`author:vardi`) or Chinese (`蒸馏`).",
                       "试试更少的词、作者（`author:vardi`）或英文关键词。",
                       "試試更少的詞、作者（`author:vardi`）或英文關鍵詞。"),
    "results.empty_catalog": tr("The catalog is empty.", "论文库是空的。", "論文庫是空的。"),
    "results.pick": tr("Open a paper…", "打开一篇论文…", "打開一篇論文…"),
    "results.back": tr("Back to results", "返回结果", "返回結果"),
    "results.only_owner": tr(
        "These results belong to {name}'s search; run `/paper` yourself to page.",
        "这是 {name} 的搜索结果；请自己运行 `/paper`。",
        "這是 {name} 的搜尋結果；請自己執行 `/paper`。"),
    "results.failed": tr("Something went wrong with these results; please search again.",
                         "这些结果出了问题，请重新搜索。", "這些結果出了問題，請重新搜尋。"),
    "catalog.title": tr("Paper catalog", "论文库", "論文庫"),
    "catalog.stats": tr("**{papers}** papers · {workshops} workshops · last loaded {when}",
                        "共 **{papers}** 篇论文 · {workshops} 个研讨会 · 最近加载 {when}",
                        "共 **{papers}** 篇論文 · {workshops} 個研討會 · 最近載入 {when}"),
    "catalog.rejected": tr("Records rejected by the last load: {count}.",
                           "最近一次加载拒收的记录：{count} 条。",
                           "最近一次載入拒收的紀錄：{count} 筆。"),
    "catalog.rejected_lines": tr("Records rejected by the last load: {count} (line {lines}).",
                                 "最近一次加载拒收的记录：{count} 条（第 {lines} 行）。",
                                 "最近一次載入拒收的紀錄：{count} 筆（第 {lines} 行）。"),
    "catalog.reloaded": tr(
        "{file}: {added} added, {updated} updated, {unchanged} unchanged, {rejected} rejected",
        "{file}：新增 {added} 篇，更新 {updated} 篇，未变 {unchanged} 篇，拒收 {rejected} 篇",
        "{file}：新增 {added} 篇，更新 {updated} 篇，未變 {unchanged} 篇，拒收 {rejected} 篇"),
}
