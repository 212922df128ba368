"""Recommendations: `/recommend`, 👍 / 👎 on cards, the reasons."""

from __future__ import annotations

from bot.shared.lang import Texts, tr

STRINGS: dict[str, Texts] = {
    "cmd.name.recommend": tr("recommend", "推荐论文", "推薦論文"),
    "cmd.desc.recommend": tr("Papers to read next, from what you and the group liked",
                             "根据你和小组的喜好推荐接下来读的论文",
                             "根據你和小組的喜好推薦接下來讀的論文"),
    "cmd.name.for": tr("for", "对象", "對象"),
    "cmd.desc.for": tr("For you, or for the whole group", "为你，还是为整个小组",
                       "為你，還是為整個小組"),
    "cmd.name.count": tr("count", "数量", "數量"),
    "cmd.desc.count": tr("How many papers (1 to 25)", "推荐几篇（1 到 25）", "推薦幾篇（1 到 25）"),
    "choice.for.me": tr("me", "我", "我"),
    "choice.for.group": tr("group", "小组", "小組"),
    "recommend.title.me": tr("Recommended for you", "为你推荐", "為你推薦"),
    "recommend.title.group": tr("Recommended for the group", "为小组推荐", "為小組推薦"),
    "recommend.empty.me": tr(
        "Nothing to go on yet: bookmark, suggest or 👍 a few papers and ask again.",
        "还没有依据：先收藏、推荐或 👍 几篇论文再来。",
        "還沒有依據：先收藏、推薦或 👍 幾篇論文再來。"),
    "recommend.empty.group": tr(
        "The group has no signals yet: discuss, vote, bookmark or 👍 a few papers first.",
        "小组还没有任何依据：先讨论、投票、收藏或 👍 几篇论文。",
        "小組還沒有任何依據：先討論、投票、收藏或 👍 幾篇論文。"),
    "recommend.like.bookmarked": tr("like *{title}* you bookmarked", "与你收藏的《{title}》相似",
                                    "與你收藏的《{title}》相似"),
    "recommend.like.suggested": tr("like *{title}*, suggested", "与被推荐的《{title}》相似",
                                   "與被推薦的《{title}》相似"),
    "recommend.like.supported": tr("like *{title}*, +1'd", "与被 +1 的《{title}》相似",
                                   "與被 +1 的《{title}》相似"),
    "recommend.like.voted": tr("like *{title}*, voted for", "与投过票的《{title}》相似",
                               "與投過票的《{title}》相似"),
    "recommend.like.discussed": tr("like *{title}* the group discussed",
                                   "与小组讨论过的《{title}》相似",
                                   "與小組討論過的《{title}》相似"),
    "recommend.like.presented": tr("like *{title}*, presented", "与讲过的《{title}》相似",
                                   "與講過的《{title}》相似"),
    "recommend.like.liked": tr("like *{title}* you 👍'd", "与你 👍 过的《{title}》相似",
                               "與你 👍 過的《{title}》相似"),
    "recommend.words": tr("shared words: {words}", "共同词：{words}", "共同詞：{words}"),
    "recommend.more_like": tr("More like this", "更多类似", "更多類似"),
    "recommend.less_like": tr("Not for me", "不感兴趣", "不感興趣"),
    "recommend.rated.up": tr("Noted: more like *{title}*.", "已记下：多推荐类似《{title}》的论文。",
                             "已記下：多推薦類似《{title}》的論文。"),
    "recommend.rated.down": tr("Noted: fewer like *{title}*.",
                               "已记下：少推荐类似《{title}》的论文。",
                               "已記下：少推薦類似《{title}》的論文。"),
    "recommend.rated.same": tr("You had already said so.", "你已经标记过了。", "你已經標記過了。"),
}
