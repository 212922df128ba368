"""`/history` (what the group discussed) and `/export` (BibTeX or Markdown files)."""

from __future__ import annotations

from bot.shared.lang import Texts, tr

STRINGS: dict[str, Texts] = {
    "cmd.name.history": tr("history", "讨论记录", "討論紀錄"),
    "cmd.desc.history": tr("What the group has discussed, newest first",
                           "小组讨论过的论文，最新的在前", "小組討論過的論文，最新的在前"),
    "cmd.name.export": tr("export", "导出", "匯出"),
    "cmd.desc.export": tr("The history, the queue or your reading list as a file",
                          "把讨论记录、候选队列或你的阅读清单导出为文件",
                          "把討論紀錄、候選佇列或你的閱讀清單匯出為檔案"),
    "cmd.name.export_what": tr("what", "内容", "內容"),
    "cmd.desc.export_what": tr("What to export", "要导出的内容", "要匯出的內容"),
    "cmd.name.export_format": tr("format", "格式", "格式"),
    "cmd.desc.export_format": tr("BibTeX (Zotero, LaTeX) or Markdown (a wiki)",
                                 "BibTeX（Zotero、LaTeX）或 Markdown（维基）",
                                 "BibTeX（Zotero、LaTeX）或 Markdown（維基）"),
    "cmd.choice.history": tr("History", "讨论记录", "討論紀錄"),
    "cmd.choice.queue": tr("Queue", "候选队列", "候選佇列"),
    "cmd.choice.bookmarks": tr("Your reading list", "你的阅读清单", "你的閱讀清單"),
    "cmd.choice.bibtex": tr("BibTeX", "BibTeX", "BibTeX"),
    "cmd.choice.markdown": tr("Markdown", "Markdown", "Markdown"),
    "history.title": tr("What the group discussed", "小组讨论过的论文", "小組討論過的論文"),
    "history.empty": tr("Nothing discussed yet: an organiser marks a session `/session done`.",
                        "还没有讨论过的论文：组织者用 `/session done` 标记已讨论的场次。",
                        "還沒有討論過的論文：組織者用 `/session done` 標記已討論的場次。"),
    "history.line": tr("**{n}. {title}**\n{date} · presented by {presenter}",
                       "**{n}. {title}**\n{date} · 报告人 {presenter}",
                       "**{n}. {title}**\n{date} · 報告人 {presenter}"),
    "history.line_no_presenter": tr("**{n}. {title}**\n{date}", "**{n}. {title}**\n{date}",
                                    "**{n}. {title}**\n{date}"),
    "history.thread": tr("discussion thread", "讨论串", "討論串"),
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
