"""`/export`: BibTeX and Markdown files of the catalog, the history, the queue, a reading list."""

from __future__ import annotations

from bot.shared.lang import Texts, tr

STRINGS: dict[str, Texts] = {
    "export.done.one": tr("Here is the export ({n:,} paper).", "导出文件已生成（{n:,} 篇论文）。",
                          "匯出檔案已產生（{n:,} 篇論文）。"),
    "export.done.other": tr("Here is the export ({n:,} papers).",
                            "导出文件已生成（{n:,} 篇论文）。", "匯出檔案已產生（{n:,} 篇論文）。"),
    "export.cut": tr(
        "Here is the export: the first {kept:,} of {total:,} papers (Discord takes files of "
        "at most {limit} here; `paperclub export` on the server writes everything).",
        "导出文件已生成：共 {total:,} 篇论文中的前 {kept:,} 篇（这里 Discord 只接受不超过 "
        "{limit} 的文件；在服务器上运行 `paperclub export` 可导出全部）。",
        "匯出檔案已產生：共 {total:,} 篇論文中的前 {kept:,} 篇（這裡 Discord 只接受不超過 "
        "{limit} 的檔案；在伺服器上執行 `paperclub export` 可匯出全部）。"),
    "export.member": tr("member {id}", "成员 {id}", "成員 {id}"),
    "export.md.heading_history": tr("Reading group history", "读书会讨论记录", "讀書會討論紀錄"),
    "export.md.heading_queue": tr("Reading group queue", "读书会候选队列", "讀書會候選佇列"),
    "export.md.heading_bookmarks": tr("Reading list", "阅读清单", "閱讀清單"),
    "export.md.discussed": tr("Discussed {date}", "讨论于 {date}", "討論於 {date}"),
    "export.md.presented": tr("Discussed {date}, presented by {presenter}",
                              "讨论于 {date}，报告人 {presenter}",
                              "討論於 {date}，報告人 {presenter}"),
    "export.md.suggested": tr("Suggested {date}", "推荐于 {date}", "推薦於 {date}"),
    "export.md.bookmarked": tr("Bookmarked {date}", "收藏于 {date}", "收藏於 {date}"),
    "export.md.thread": tr("discussion thread", "讨论串", "討論串"),
    "export.md.gone": tr("no longer in the catalog", "已不在论文库中", "已不在論文庫中"),
}
