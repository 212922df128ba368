"""`/history`: what the group discussed, paged (`/export` has its own keys)."""

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
}
