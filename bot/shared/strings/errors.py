"""Refusals and failures of any command, and the permission names Discord shows."""

from __future__ import annotations

from bot.shared.lang import Texts, tr

STRINGS: dict[str, Texts] = {
    "error.guild_only": tr("This command works only in a server.", "此命令只能在服务器中使用。",
                           "此指令只能在伺服器中使用。"),
    "error.owner_only": tr("Only the bot's owner can do that.", "只有机器人所有者可以这样做。",
                           "只有機器人擁有者可以這樣做。"),
    "error.missing_permissions": tr("You need the {perms} permission for that.",
                                    "你需要 {perms} 权限。", "你需要 {perms} 權限。"),
    "error.cooldown": tr("Slow down a little: try again in {s:.0f} s.",
                         "请稍候 {s:.0f} 秒再试。", "請稍候 {s:.0f} 秒再試。"),
    "error.foreign_channel": tr(
        "That channel is not in this server (or I cannot see it): pick one of this server's "
        "channels.",
        "该频道不在本服务器中（或我看不到它）：请选择本服务器的频道。",
        "該頻道不在這個伺服器中（或我看不到它）：請選擇這個伺服器的頻道。"),
    "error.discord_forbidden": tr(
        "Discord did not let paperclub do that here: it lacks a permission in this channel or "
        "server. Ask an admin to check paperclub's role and the channel's permissions, then "
        "try again.",
        "Discord 不允许 paperclub 在这里执行此操作：它在本频道或服务器中缺少权限。"
        "请管理员检查 paperclub 的身份组和频道权限后再试。",
        "Discord 不允許 paperclub 在這裡執行此操作：它在這個頻道或伺服器中缺少權限。"
        "請管理員檢查 paperclub 的身分組和頻道權限後再試。"),
    "error.discord_gone": tr(
        "Something this needed is gone from Discord (a deleted channel, message, thread or "
        "event). Check it still exists, then try again.",
        "此操作需要的内容已从 Discord 中消失（频道、消息、讨论串或活动已被删除）。"
        "请确认它仍然存在后再试。",
        "此操作需要的內容已從 Discord 中消失（頻道、訊息、討論串或活動已被刪除）。"
        "請確認它仍然存在後再試。"),
    "error.foreign_member": tr(
        "That member is not in this server: pick someone who is.",
        "该成员不在本服务器中：请选择本服务器的成员。",
        "該成員不在這個伺服器中：請選擇這個伺服器的成員。"),
    "error.unexpected": tr("Something went wrong on our side (error {ref}). Please try again.",
                           "出错了（错误 {ref}），请再试一次。",
                           "出錯了（錯誤 {ref}），請再試一次。"),
    "error.cannot_save": tr("paperclub can't save right now; please try again later. "
                            "The bot's operator has been told why.",
                            "paperclub 暂时无法保存，请稍后再试。已通知机器人管理员原因。",
                            "paperclub 暫時無法儲存，請稍後再試。已通知機器人管理員原因。"),
    "error.catalog_reloading": tr("The catalog is being reloaded; try again in a moment.",
                                  "论文目录正在重新加载，请稍后再试。",
                                  "論文目錄正在重新載入，請稍後再試。"),
    "perm.manage_guild": tr("Manage Server", "管理服务器", "管理伺服器"),
    "perm.view_channel": tr("View Channels", "查看频道", "檢視頻道"),
    "perm.send_messages": tr("Send Messages", "发送消息", "傳送訊息"),
    "perm.embed_links": tr("Embed Links", "嵌入链接", "嵌入連結"),
    "perm.create_public_threads": tr("Create Public Threads", "创建公开子区",
                                     "建立公開討論串"),
    "perm.send_messages_in_threads": tr("Send Messages in Threads", "在子区中发送消息",
                                        "在討論串中傳送訊息"),
    "perm.read_message_history": tr("Read Message History", "查看消息历史",
                                    "讀取訊息歷史"),
}
