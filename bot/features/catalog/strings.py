"""`/catalog`: the catalog's statistics and reloads."""

from __future__ import annotations

from bot.shared.lang import Texts, tr

STRINGS: dict[str, Texts] = {
    "catalog.title": tr("Paper catalog", "论文库", "論文庫"),
    "catalog.summaries": tr("AI summaries (only the owner sees this)", "AI 总结（仅所有者可见）",
                            "AI 總結（僅所有者可見）"),
    "catalog.summaries_lang": tr("{language}: {done} of {wanted} made, {failed} failed",
                                 "{language}：已生成 {done} / {wanted}，失败 {failed}",
                                 "{language}：已生成 {done} / {wanted}，失敗 {failed}"),
    "catalog.summaries_tokens": tr("Tokens today: {spent} of {budget}",
                                   "今日 token：{spent} / {budget}",
                                   "今日 token：{spent} / {budget}"),
    "catalog.stats": tr("**{papers}** papers · {workshops} workshops · last loaded {when}",
                        "共 **{papers}** 篇论文 · {workshops} 个研讨会 · 最近加载 {when}",
                        "共 **{papers}** 篇論文 · {workshops} 個研討會 · 最近載入 {when}"),
    "catalog.meaning": tr("Search by meaning: {embedded} of {total} papers embedded{more}.",
                          "语义搜索：已嵌入 {embedded} / {total} 篇论文{more}。",
                          "語義搜尋：已嵌入 {embedded} / {total} 篇論文{more}。"),
    "catalog.meaning_running": tr(" (catching up in the background)", "（后台进行中）",
                                  "（背景進行中）"),
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
    "catalog.track.unknown": tr("track not given", "未注明分会", "未註明分會"),
    "catalog.no_conference": tr("No conference (added from arXiv or imported)",
                                "无会议（从 arXiv 添加或导入）", "無會議（從 arXiv 新增或匯入）"),
}
