"""Reading lists (`/bookmark`, `/bookmarks`) and what `/forget-me` erased of the group's records."""

from __future__ import annotations

from bot.shared.lang import Texts, tr

STRINGS: dict[str, Texts] = {
    "cmd.name.bookmark": tr("bookmark", "收藏", "收藏"),
    "cmd.desc.bookmark": tr("Keep a paper on your reading list in this server",
                            "把论文加入你在本服务器的阅读清单", "把論文加入你在本伺服器的閱讀清單"),
    "cmd.name.bookmark_remove": tr("remove_it", "取消收藏", "取消收藏"),
    "cmd.desc.bookmark_remove": tr("Take it off your reading list instead",
                                   "改为从阅读清单中移除", "改為從閱讀清單中移除"),
    "cmd.name.bookmarks": tr("bookmarks", "我的收藏", "我的收藏"),
    "cmd.desc.bookmarks": tr("Your reading list in this server", "你在本服务器的阅读清单",
                             "你在本伺服器的閱讀清單"),
    "bookmarks.added": tr("Added **{title}** to your reading list.",
                          "已把 **{title}** 加入你的阅读清单。",
                          "已把 **{title}** 加入你的閱讀清單。"),
    "bookmarks.already": tr("**{title}** is already on your reading list.",
                            "**{title}** 已经在你的阅读清单中。",
                            "**{title}** 已經在你的閱讀清單中。"),
    "bookmarks.removed": tr("Took **{title}** off your reading list.",
                            "已从你的阅读清单移除 **{title}**。",
                            "已從你的閱讀清單移除 **{title}**。"),
    "bookmarks.not_there": tr("**{title}** is not on your reading list.",
                              "**{title}** 不在你的阅读清单中。",
                              "**{title}** 不在你的閱讀清單中。"),
    "bookmarks.title": tr("Your reading list", "你的阅读清单", "你的閱讀清單"),
    "bookmarks.empty": tr("Nothing here yet: `/bookmark` a paper.",
                          "这里还没有论文：用 `/bookmark` 收藏一篇。",
                          "這裡還沒有論文：用 `/bookmark` 收藏一篇。"),
    "bookmarks.line": tr("**{n}. {title}**\nid `{paper}` · added {when}",
                         "**{n}. {title}**\n编号 `{paper}` · 收藏于 {when}",
                         "**{n}. {title}**\n編號 `{paper}` · 收藏於 {when}"),
    "count.bookmarks.one": tr("{n:,} bookmark", "{n:,} 个收藏", "{n:,} 個收藏"),
    "count.bookmarks.other": tr("{n:,} bookmarks", "{n:,} 个收藏", "{n:,} 個收藏"),
    "count.ballots.one": tr("{n:,} vote", "{n:,} 张选票", "{n:,} 張選票"),
    "count.ballots.other": tr("{n:,} votes", "{n:,} 张选票", "{n:,} 張選票"),
    "count.suggestions.one": tr("{n:,} suggestion", "{n:,} 个推荐", "{n:,} 個推薦"),
    "count.suggestions.other": tr("{n:,} suggestions", "{n:,} 个推荐", "{n:,} 個推薦"),
    "count.presentations.one": tr("{n:,} presentation", "{n:,} 次报告", "{n:,} 次報告"),
    "count.presentations.other": tr("{n:,} presentations", "{n:,} 次报告", "{n:,} 次報告"),
    "count.feeds.one": tr("{n:,} feed", "{n:,} 个论文推送", "{n:,} 個論文推送"),
    "count.feeds.other": tr("{n:,} feeds", "{n:,} 个论文推送", "{n:,} 個論文推送"),
    "group.forgotten": tr(
        "Also deleted {bookmarks} and {ballots}, and removed your name from {suggestions}, "
        "{presentations} and {feeds}.",
        "另外删除了 {bookmarks}和 {ballots}，"
        "并从 {suggestions}、{presentations}和 {feeds}中移除了你的名字。",
        "另外刪除了 {bookmarks}和 {ballots}，"
        "並從 {suggestions}、{presentations}和 {feeds}中移除了你的名字。"),
}
