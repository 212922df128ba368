"""The invite link: exactly the scopes and permissions paperclub needs, each for a reason."""

from __future__ import annotations

import discord

SCOPES = ("bot", "applications.commands")

# Permission flag -> why paperclub needs it.
PERMISSIONS: dict[str, str] = {
    "view_channel": "see the channel chosen for the paper of the day",
    "send_messages": "post the paper of the day",
    "embed_links": "show paper cards (embeds)",
    "create_public_threads": "open a discussion thread for each paper of the day",
    "send_messages_in_threads": "post in those discussion threads",
    "read_message_history": "find its own paper-of-the-day post after a restart, so that it "
                            "never posts twice",
    "manage_events": "create a Discord event for each reading-group session (`/session`)",
    "send_polls": "post a vote as a native Discord poll (`/vote start style:Discord poll`)",
}


def invite_permissions() -> discord.Permissions:
    """The permission set requested by the invite link."""
    return discord.Permissions(**dict.fromkeys(PERMISSIONS, True))


def invite_url(application_id: int) -> str:
    """The OAuth2 URL a server admin opens to add paperclub."""
    return discord.utils.oauth_url(application_id, permissions=invite_permissions(),
                                   scopes=SCOPES)
