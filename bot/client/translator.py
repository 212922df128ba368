"""Chinese (zh-CN, zh-TW) names and descriptions for the slash commands."""

from __future__ import annotations

import discord
from discord import app_commands

# English source string -> (Simplified, Traditional). Names must be lower case, no spaces.
TRANSLATIONS: dict[str, tuple[str, str]] = {
    # /paper
    "paper": ("论文", "論文"),
    "Find a paper by title, author or topic, in English or Chinese": (
        "按标题、作者或主题查找论文（中英文均可）", "按標題、作者或主題查找論文（中英文均可）"),
    "query": ("查询", "查詢"),
    "Words from the title, an author, or a topic; leave empty for a random paper": (
        "标题中的词、作者或主题；留空则随机推荐一篇", "標題中的詞、作者或主題；留空則隨機推薦一篇"),
    "author": ("作者", "作者"),
    "Only papers by this author (a surname is enough)": (
        "只看该作者的论文（姓即可）", "只看該作者的論文（姓即可）"),
    "venue": ("会议", "會議"),
    "Main track or workshop": ("主会或研讨会", "主會或研討會"),
    "honours": ("荣誉", "榮譽"),
    "Spotlight, oral or poster": ("焦点、口头报告或海报", "焦點、口頭報告或海報"),
    "private": ("仅自己可见", "僅自己可見"),
    "Show the answer only to you": ("只有你能看到回答", "只有你能看到回答"),
    "Main track": ("主会", "主會"),
    "Workshop": ("研讨会", "研討會"),
    "Any": ("不限", "不限"),
    "Spotlight": ("焦点论文", "焦點論文"),
    "Oral": ("口头报告", "口頭報告"),
    "Poster": ("海报", "海報"),
    # /random-paper
    "random-paper": ("随机论文", "隨機論文"),
    "Show a random paper from the catalog": ("从论文库随机推荐一篇", "從論文庫隨機推薦一篇"),
    # /catalog
    "catalog": ("论文库", "論文庫"),
    "The paper catalog": ("论文库", "論文庫"),
    "stats": ("统计", "統計"),
    "How many papers, from which venues, loaded when": (
        "论文数量、会议分布和最近加载时间", "論文數量、會議分佈和最近載入時間"),
    "reload": ("重新加载", "重新載入"),
    "Reload the catalog file (bot owner only)": (
        "重新加载论文库文件（仅限机器人所有者）", "重新載入論文庫檔案（僅限機器人擁有者）"),
    # /digest
    "digest": ("每日论文", "每日論文"),
    "The server's paper of the day": ("本服务器的每日论文", "本伺服器的每日論文"),
    "set": ("设置", "設定"),
    "Post a paper every day at a local time": ("每天在本地时间发布一篇论文",
                                               "每天在本地時間發布一篇論文"),
    "channel": ("频道", "頻道"),
    "Where to post": ("发布到哪个频道", "發布到哪個頻道"),
    "time": ("时间", "時間"),
    "Local time, HH:MM (24-hour)": ("本地时间，HH:MM（24 小时制）", "本地時間，HH:MM（24 小時制）"),
    "timezone": ("时区", "時區"),
    "IANA time zone such as Europe/Berlin": ("IANA 时区，例如 Asia/Shanghai",
                                             "IANA 時區，例如 Asia/Taipei"),
    "thread": ("讨论串", "討論串"),
    "Open a discussion thread for each paper": ("为每篇论文开一个讨论串", "為每篇論文開一個討論串"),
    "mention_subscribers": ("提及订阅者", "提及訂閱者"),
    "Mention members subscribed to the paper's topics": ("提及订阅了相关主题的成员",
                                                          "提及訂閱了相關主題的成員"),
    "Only main-track or only workshop papers": ("只发主会或只发研讨会论文",
                                                "只發主會或只發研討會論文"),
    "off": ("关闭", "關閉"),
    "Stop the paper of the day": ("停止每日论文", "停止每日論文"),
    "status": ("状态", "狀態"),
    "Channel, time, next post, recent posts": ("频道、时间、下一次发布和最近的发布",
                                               "頻道、時間、下一次發布和最近的發布"),
    "preview": ("预览", "預覽"),
    "The next paper of the day, only to you": ("预览下一篇每日论文（仅自己可见）",
                                               "預覽下一篇每日論文（僅自己可見）"),
    "now": ("立即发布", "立即發布"),
    "Post today's paper now, if not yet posted": ("如果今天还没发布，立即发布今天的论文",
                                                  "如果今天還沒發布，立即發布今天的論文"),
    # subscriptions
    "subscribe": ("订阅", "訂閱"),
    "Be told when a paper on a topic comes up": ("有相关主题的论文时通知我",
                                                 "有相關主題的論文時通知我"),
    "topic": ("主题", "主題"),
    "Words, an author (author:vardi) or a venue (venue:workshop)": (
        "关键词、作者（author:vardi）或会议（venue:workshop）",
        "關鍵詞、作者（author:vardi）或會議（venue:workshop）"),
    "delivery": ("通知方式", "通知方式"),
    "How to tell you": ("怎样通知你", "怎樣通知你"),
    "Direct message": ("私信", "私訊"),
    "Mention in the paper of the day": ("在每日论文中提及我", "在每日論文中提及我"),
    "unsubscribe": ("取消订阅", "取消訂閱"),
    "Stop following a topic": ("不再关注某个主题", "不再關注某個主題"),
    "One of your topics": ("你关注的主题之一", "你關注的主題之一"),
    "subscriptions": ("我的订阅", "我的訂閱"),
    "Your topics here, with matches": ("你在本服务器的订阅及匹配数",
                                       "你在本伺服器的訂閱及匹配數"),
    "resume_dms": ("恢复私信", "恢復私訊"),
    "Turn direct messages back on after Discord refused one": (
        "私信被 Discord 拒绝后重新开启", "私訊被 Discord 拒絕後重新開啟"),
    "forget-me": ("删除我的数据", "刪除我的資料"),
    "Delete all your subscriptions and notification records": (
        "删除你的所有订阅和通知记录", "刪除你的所有訂閱和通知紀錄"),
    "subscriptions-admin": ("订阅管理", "訂閱管理"),
    "Topics followed in this server (admins)": ("本服务器关注的主题（管理员）",
                                                "本伺服器關注的主題（管理員）"),
    "Show who follows this one topic": ("查看谁关注了这个主题", "查看誰關注了這個主題"),
}


class PaperclubTranslator(app_commands.Translator):
    """Looks strings up in `TRANSLATIONS`; other locales keep the English original."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        """The Chinese text for zh-CN / zh-TW, None elsewhere."""
        pair = TRANSLATIONS.get(string.message)
        if pair is None:
            return None
        if locale is discord.Locale.chinese:
            return pair[0]
        if locale is discord.Locale.taiwan_chinese:
            return pair[1]
        return None
