"""The web page's texts and `/group web`'s answers, en / zh-CN / zh-TW."""

from __future__ import annotations

from bot.shared.lang import Texts, tr

STRINGS: dict[str, Texts] = {
    "web.page_title": tr("{server} reading group", "{server} 读书会", "{server} 讀書會"),
    "web.language": tr("Language", "语言", "語言"),
    "web.search": tr("Search the catalog", "搜索论文库", "搜尋論文庫"),
    "web.search_button": tr("Search", "搜索", "搜尋"),
    "web.search_placeholder": tr("title, author, topic…", "标题、作者、主题……",
                                 "標題、作者、主題……"),
    "web.results": tr("Results for “{q}”", "“{q}”的搜索结果", "「{q}」的搜尋結果"),
    "web.did_you_mean": tr("Showing results for “{q}”", "已显示“{q}”的结果",
                           "已顯示「{q}」的結果"),
    "web.no_words": tr("“{q}” has no words to search for.", "“{q}”里没有可搜索的词。",
                       "「{q}」裡沒有可搜尋的詞。"),
    "web.no_results": tr("No paper matches “{q}”.", "没有找到与“{q}”匹配的论文。",
                         "沒有找到與「{q}」相符的論文。"),
    "web.upcoming": tr("Upcoming sessions", "即将举行的读书会", "即將舉行的讀書會"),
    "web.no_upcoming": tr("No session is scheduled.", "暂无安排。", "暫無安排。"),
    "web.queue": tr("Reading list", "待读列表", "待讀列表"),
    "web.queue_empty": tr("Nothing suggested yet.", "还没有人推荐论文。", "還沒有人推薦論文。"),
    "web.support": tr("{n} in favour", "{n} 人支持", "{n} 人支持"),
    "web.past": tr("Past sessions", "往期读书会", "往期讀書會"),
    "web.no_past": tr("Nothing discussed yet.", "还没有讨论过论文。", "還沒有討論過論文。"),
    "web.daily": tr("Paper of the day", "每日论文", "每日論文"),
    "web.no_daily": tr("No paper of the day yet.", "还没有每日论文。", "還沒有每日論文。"),
    "web.presenter": tr("Presenter: {name}", "报告人：{name}", "報告人：{name}"),
    "web.no_presenter": tr("No presenter yet", "暂无报告人", "暫無報告人"),
    "web.thread": tr("Discussion thread", "讨论串", "討論串"),
    "web.notes": tr("Notes", "笔记", "筆記"),
    "web.paper_gone": tr("(no longer in the catalog: {id})", "（已不在论文库中：{id}）",
                         "（已不在論文庫中：{id}）"),
    "web.footer": tr("Read-only page of paperclub. Anyone with this link can read it.",
                     "paperclub 只读页面。拿到此链接的人都能阅读。",
                     "paperclub 唯讀頁面。拿到此連結的人都能閱讀。"),
    "web.not_found": tr("No page here.", "这里没有页面。", "這裡沒有頁面。"),
    # /group web
    "web.link": tr(
        "🌐 **The reading group's web page**: <{url}>\nThe reading list, sessions, the paper "
        "of the day and a catalog search, readable on a phone. Anyone with the link can read "
        "it: share it with the group, and rotate it if it leaks.",
        "🌐 **读书会网页**：<{url}>\n待读列表、读书会安排、每日论文和论文搜索，手机上也能看。"
        "拿到链接的人都能阅读：可以分享给小组成员，外泄时请更换链接。",
        "🌐 **讀書會網頁**：<{url}>\n待讀列表、讀書會安排、每日論文和論文搜尋，手機上也能看。"
        "拿到連結的人都能閱讀：可以分享給小組成員，外流時請更換連結。"),
    "web.off": tr("The web page is off. An organiser can turn it on with "
                  "`/group web action:rotate`.",
                  "网页已关闭。组织者可以用 `/group web action:rotate` 重新开启。",
                  "網頁已關閉。組織者可以用 `/group web action:rotate` 重新開啟。"),
    "web.rotated": tr("New web page link: the old one stopped working.",
                      "已生成新的网页链接：旧链接已失效。", "已產生新的網頁連結：舊連結已失效。"),
    "web.turned_off": tr("The web page is off: its link no longer works.",
                         "网页已关闭：原有链接已失效。", "網頁已關閉：原有連結已失效。"),
    "web.already_off": tr("The web page was already off.", "网页本来就是关闭的。",
                          "網頁本來就是關閉的。"),
    "organiser.action.web": tr("change the web page link", "更改网页链接", "更改網頁連結"),
    "cmd.name.web": tr("web", "网页", "網頁"),
    "cmd.desc.group_web": tr("The group's read-only web page: its link (organisers: rotate, off)",
                             "读书会的只读网页链接（组织者：更换、关闭）",
                             "讀書會的唯讀網頁連結（組織者：更換、關閉）"),
    "cmd.name.action": tr("action", "操作", "操作"),
    "cmd.desc.web_action": tr("Show the link, make a new one, or turn the page off",
                              "查看链接、生成新链接或关闭网页", "查看連結、產生新連結或關閉網頁"),
    "cmd.choice.web_show": tr("Show the link", "查看链接", "查看連結"),
    "cmd.choice.web_rotate": tr("New link (the old one stops working)",
                                "新链接（旧链接失效）", "新連結（舊連結失效）"),
    "cmd.choice.web_off": tr("Turn the page off", "关闭网页", "關閉網頁"),
}
