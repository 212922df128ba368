"""`/feed` (arXiv feeds), the "new in <feed>" post, and feed query refusals."""

from __future__ import annotations

from bot.shared.lang import Texts, tr

STRINGS: dict[str, Texts] = {
    # commands
    "cmd.name.feed": tr("feed", "论文推送", "論文推送"),
    "cmd.desc.feed": tr("Follow arXiv searches: new papers join the catalog",
                        "关注 arXiv 检索：新论文自动加入论文库",
                        "關注 arXiv 檢索：新論文自動加入論文庫"),
    "cmd.desc.feed_add": tr("Follow an arXiv search query", "关注一个 arXiv 检索式",
                            "關注一個 arXiv 檢索式"),
    "cmd.desc.feed_query": tr("An arXiv search query, e.g. cat:cs.LG AND abs:grokking",
                              "arXiv 检索式，例如 cat:cs.LG AND abs:grokking",
                              "arXiv 檢索式，例如 cat:cs.LG AND abs:grokking"),
    "cmd.desc.feed_channel": tr("Where to post the new titles (optional)",
                                "新论文标题发布到哪个频道（可选）",
                                "新論文標題發布到哪個頻道（選填）"),
    "cmd.desc.feed_list": tr("The server's feeds and their last poll",
                             "本服务器的论文推送及最近一次检查",
                             "本伺服器的論文推送及最近一次檢查"),
    "cmd.desc.feed_remove": tr("Stop following a feed", "停止关注某个论文推送",
                               "停止關注某個論文推送"),
    "cmd.desc.the_feed": tr("The feed", "哪一个论文推送", "哪一個論文推送"),
    # answers
    "feed.added": tr(
        "Following `{query}` (feed #{id}). I look for new papers every {every}; they join the "
        "catalog and subscribers hear about them. {where}",
        "已关注 `{query}`（推送 #{id}）。每 {every} 检查一次新论文；"
        "新论文会加入论文库并通知订阅者。{where}",
        "已關注 `{query}`（推送 #{id}）。每 {every} 檢查一次新論文；"
        "新論文會加入論文庫並通知訂閱者。{where}"),
    "feed.resumed": tr(
        "Feed #{id} (`{query}`) is running again. {where}",
        "推送 #{id}（`{query}`）已恢复。{where}",
        "推送 #{id}（`{query}`）已恢復。{where}"),
    "feed.where.channel": tr("New titles are posted in {channel}.",
                             "新论文标题会发布到 {channel}。", "新論文標題會發布到 {channel}。"),
    "feed.where.none": tr("No channel: nothing is posted.", "未指定频道：不会发布消息。",
                          "未指定頻道：不會發布訊息。"),
    "feed.duplicate": tr("This server already follows `{query}` (feed #{id}).",
                         "本服务器已经关注了 `{query}`（推送 #{id}）。",
                         "本伺服器已經關注了 `{query}`（推送 #{id}）。"),
    "feed.limit": tr(
        "This server already follows {limit} feeds, the most it can. Remove one with "
        "`/feed remove` first.",
        "本服务器已关注 {limit} 个推送，已达上限。请先用 `/feed remove` 删除一个。",
        "本伺服器已關注 {limit} 個推送，已達上限。請先用 `/feed remove` 刪除一個。"),
    "feed.cannot_post": tr(
        "I can't post in {channel}: I'm missing {perms}. Give paperclub these permissions in "
        "that channel (or pick another one) and try again.",
        "我无法在 {channel} 发布：缺少 {perms} 权限。"
        "请在该频道给 paperclub 这些权限（或换一个频道）后再试。",
        "我無法在 {channel} 發布：缺少 {perms} 權限。"
        "請在該頻道給 paperclub 這些權限（或換一個頻道）後再試。"),
    "feed.list.title": tr("arXiv feeds", "论文推送", "論文推送"),
    "feed.list.empty": tr("No feeds yet: follow an arXiv search with `/feed add`.",
                          "还没有论文推送：用 `/feed add` 关注一个 arXiv 检索。",
                          "還沒有論文推送：用 `/feed add` 關注一個 arXiv 檢索。"),
    "feed.list.never": tr("not checked yet", "尚未检查", "尚未檢查"),
    "feed.list.polled": tr("last checked {when}", "最近检查：{when}", "最近檢查：{when}"),
    "feed.list.error": tr("last check failed: {reason}", "最近一次检查失败：{reason}",
                          "最近一次檢查失敗：{reason}"),
    "feed.list.paused": tr("paused: {reason}", "已暂停：{reason}", "已暫停：{reason}"),
    "feed.list.every": tr("Checked every {every}.", "每 {every} 检查一次。",
                          "每 {every} 檢查一次。"),
    "feed.removed": tr("Stopped following `{query}` (feed #{id}).",
                       "已停止关注 `{query}`（推送 #{id}）。",
                       "已停止關注 `{query}`（推送 #{id}）。"),
    "feed.unknown": tr("This server has no feed #{id}: see `/feed list`.",
                       "本服务器没有推送 #{id}：请查看 `/feed list`。",
                       "本伺服器沒有推送 #{id}：請查看 `/feed list`。"),
    "feed.paused_notice": tr(
        "⚠️ Feed #{id} (`{query}`) is paused: {reason}. Add it again with `/feed add` (and a "
        "channel I can post in) once fixed.",
        "⚠️ 推送 #{id}（`{query}`）已暂停：{reason}。"
        "修复后请用 `/feed add`（并指定我能发布的频道）重新添加。",
        "⚠️ 推送 #{id}（`{query}`）已暫停：{reason}。"
        "修正後請用 `/feed add`（並指定我能發布的頻道）重新新增。"),
    # the post
    "feed.post.title": tr("New in {query}: {n}", "{query} 有新论文：{n} 篇",
                          "{query} 有新論文：{n} 篇"),
    "feed.post.more.one": tr("…and {n} more: search with `/paper`.",
                             "……还有 {n} 篇：请用 `/paper` 搜索。",
                             "……還有 {n} 篇：請用 `/paper` 搜尋。"),
    "feed.post.more.other": tr("…and {n} more: search with `/paper`.",
                               "……还有 {n} 篇：请用 `/paper` 搜索。",
                               "……還有 {n} 篇：請用 `/paper` 搜尋。"),
    # query refusals
    "feed.query.empty": tr("The query is empty: try `cat:cs.LG AND abs:grokking`.",
                           "检索式为空：试试 `cat:cs.LG AND abs:grokking`。",
                           "檢索式為空：試試 `cat:cs.LG AND abs:grokking`。"),
    "feed.query.length": tr("The query is too long (at most {limit} characters).",
                            "检索式太长（最多 {limit} 个字符）。",
                            "檢索式太長（最多 {limit} 個字元）。"),
    "feed.query.character": tr(
        "arXiv queries can't contain `{char}`: use words, field prefixes such as `ti:` and "
        "`cat:`, quotes, parentheses and AND / OR / ANDNOT.",
        "arXiv 检索式不能包含 `{char}`：请使用词语、`ti:`、`cat:` 等字段前缀、引号、括号以及 "
        "AND / OR / ANDNOT。",
        "arXiv 檢索式不能包含 `{char}`：請使用詞語、`ti:`、`cat:` 等欄位前綴、引號、括號以及 "
        "AND / OR / ANDNOT。"),
    "feed.query.quotes": tr("A quote is not closed in the query.", "检索式中有引号没有闭合。",
                            "檢索式中有引號沒有閉合。"),
    "feed.query.parentheses": tr("The parentheses in the query do not match.",
                                 "检索式中的括号不匹配。", "檢索式中的括號不匹配。"),
    "feed.query.operator": tr(
        "AND, OR and ANDNOT go between two terms (not at the start, the end or twice in a "
        "row).",
        "AND、OR 和 ANDNOT 必须放在两个词之间（不能在开头、结尾或连续出现）。",
        "AND、OR 和 ANDNOT 必須放在兩個詞之間（不能在開頭、結尾或連續出現）。"),
    "feed.query.field": tr("arXiv has no field `{field}:`; it knows {fields}.",
                           "arXiv 没有 `{field}:` 这个字段；可用的有 {fields}。",
                           "arXiv 沒有 `{field}:` 這個欄位；可用的有 {fields}。"),
    "feed.query.empty_term": tr("`{field}:` needs a word or a quoted phrase after it.",
                                "`{field}:` 后面需要一个词或带引号的短语。",
                                "`{field}:` 後面需要一個詞或帶引號的片語。"),
    "feed.query.terms": tr("The query has too many terms (at most {limit}).",
                           "检索式中的词太多（最多 {limit} 个）。",
                           "檢索式中的詞太多（最多 {limit} 個）。"),
    # reasons
    "reason.arxiv_busy": tr("arXiv is busy; I'll try again at the next check",
                            "arXiv 繁忙；下次检查时再试", "arXiv 忙碌中；下次檢查時再試"),
    "reason.arxiv_rejected": tr("arXiv refused the query: {text}", "arXiv 拒绝了检索式：{text}",
                                "arXiv 拒絕了檢索式：{text}"),
}
