"""The Discord side of sessions: scheduled events, the announcement and its thread, notices in
the thread, and reminders. Only the presenter can be pinged; everything else is escaped."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import discord

from bot.client.own_posts import delivery_failure, find_own_post
from bot.features.notifications.notices import guild_lang
from bot.features.papers.card import fit
from bot.features.papers.card_view import CARD_COLOUR, card_for, escape
from bot.features.sessions.delivery import (
    Announced,
    DeliveryFailed,
    EventGone,
    NoticeKind,
    Reminder,
)
from bot.features.sessions.plan import unix
from bot.shared.lang import Lang
from bot.shared.messages import duration, t
from domain.paper import Paper
from domain.reasons import Reason, ReasonCode, from_discord
from domain.sessions import SESSION_MINUTES, Session

NAME_LIMIT = 100
DESCRIPTION_LIMIT = 1000
LOCATION_LIMIT = 100
EMBED_DESCRIPTION_LIMIT = 4096
UNKNOWN_EVENT = 10070
FINISHED_EVENT = 180000
"""Discord's codes for an event deleted, and for one ended or cancelled, in Discord."""
MISSING_PERMISSIONS = 50013
NOTICE_KEYS = {NoticeKind.MOVED: "session.notice.moved",
               NoticeKind.CANCELLED: "session.notice.cancelled",
               NoticeKind.DONE: "session.notice.done"}


def event_failure(exc: discord.HTTPException) -> DeliveryFailed:
    """Discord's refusal of an event: without Create Events the way forward names it."""
    if exc.code == MISSING_PERMISSIONS:
        return DeliveryFailed(Reason(ReasonCode.NO_EVENT_PERMISSION), exc.code)
    return delivery_failure(exc)


def event_link(session: Session) -> str:
    """The scheduled event's address in Discord."""
    return f"https://discord.com/events/{session.guild_id}/{session.event_id}"


def when_text(session: Session, lang: Lang) -> str:
    """`<t:…:F> (<t:…:R>)`: every reader sees their own local time."""
    stamp = unix(session.starts_at)
    return t(lang, "session.when", full=f"<t:{stamp}:F>", relative=f"<t:{stamp}:R>")


def where_text(session: Session, lang: Lang) -> str:
    """A voice channel mention, the link, or the announcement's channel."""
    if session.place.voice_channel_id is not None:
        return f"<#{session.place.voice_channel_id}>"
    if session.place.link:
        return escape(session.place.link)
    return t(lang, "session.where.here", channel=f"<#{session.channel_id}>")


def presenter_text(session: Session, lang: Lang) -> str:
    """The presenter's mention, or that nobody presents yet."""
    if session.presenter_id is None:
        return t(lang, "session.presenter.none")
    return f"<@{session.presenter_id}>"


def only_presenter(session: Session) -> discord.AllowedMentions:
    """Pings allowed in a session's posts: the presenter, nobody else."""
    users = [discord.Object(id=session.presenter_id)] if session.presenter_id else []
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False, users=users)


class DiscordSessionPoster:
    """Implements `SessionPoster` with a connected discord.py client."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    def _guild(self, guild_id: int) -> discord.Guild:
        guild = self.client.get_guild(guild_id)
        if guild is None:
            raise DeliveryFailed(from_discord(404, 10004))
        return guild

    async def create_event(self, session: Session, paper: Paper) -> int:
        """A guild-only scheduled event: in the voice channel, or external at the link."""
        guild = self._guild(session.guild_id)
        lang = guild_lang(self.client, session.guild_id)
        card = card_for(paper, lang)
        end = session.starts_at + timedelta(minutes=SESSION_MINUTES)
        description = fit(f"{paper.title_en}\n{card.url}", DESCRIPTION_LIMIT)
        name = fit(paper.title_en, NAME_LIMIT)
        try:
            if session.place.voice_channel_id is not None:
                event = await guild.create_scheduled_event(
                    name=name, start_time=session.starts_at, end_time=end,
                    entity_type=discord.EntityType.voice,
                    channel=discord.Object(id=session.place.voice_channel_id),
                    privacy_level=discord.PrivacyLevel.guild_only, description=description)
            else:
                location = session.place.link or (
                    f"https://discord.com/channels/{session.guild_id}/{session.channel_id}")
                event = await guild.create_scheduled_event(
                    name=name, start_time=session.starts_at, end_time=end,
                    entity_type=discord.EntityType.external, location=fit(location,
                                                                          LOCATION_LIMIT),
                    privacy_level=discord.PrivacyLevel.guild_only, description=description)
        except discord.HTTPException as exc:
            raise event_failure(exc) from exc
        return event.id

    async def update_event(self, session: Session, paper: Paper) -> None:
        """New start and end times."""
        end = session.starts_at + timedelta(minutes=SESSION_MINUTES)
        try:
            await self.client.http.edit_scheduled_event(
                session.guild_id, session.event_id or 0,
                scheduled_start_time=session.starts_at.isoformat(),
                scheduled_end_time=end.isoformat())
        except discord.HTTPException as exc:
            if exc.code in (UNKNOWN_EVENT, FINISHED_EVENT):
                raise EventGone(Reason(ReasonCode.EVENT_GONE), exc.code) from exc
            raise event_failure(exc) from exc

    async def delete_event(self, session: Session) -> None:
        """Remove the event; one already gone is fine."""
        try:
            await self.client.http.delete_scheduled_event(session.guild_id,
                                                          session.event_id or 0)
        except discord.NotFound:
            return
        except discord.HTTPException as exc:
            raise delivery_failure(exc) from exc

    async def announce(self, session: Session, paper: Paper) -> Announced:
        """The announcement (the presenter is the only ping) and a thread on it."""
        lang = guild_lang(self.client, session.guild_id)
        card = card_for(paper, lang)
        embed = discord.Embed(title=card.title, url=card.url, colour=CARD_COLOUR,
                              description=t(lang, "session.announce.body",
                                            when=when_text(session, lang),
                                            presenter=presenter_text(session, lang),
                                            where=where_text(session, lang),
                                            event=event_link(session)))
        embed.set_footer(text=t(lang, "session.footer", id=session.id))
        content = (t(lang, "session.announce.presenter", presenter=f"<@{session.presenter_id}>")
                   if session.presenter_id else None)
        channel = self.client.get_partial_messageable(session.channel_id,
                                                      guild_id=session.guild_id)
        try:
            message = await channel.send(content, embed=embed,
                                         allowed_mentions=only_presenter(session))
        except discord.HTTPException as exc:
            raise delivery_failure(exc) from exc
        try:
            thread = await message.create_thread(name=fit(paper.title_en, NAME_LIMIT))
        except discord.HTTPException:
            return Announced(message.id, None)
        return Announced(message.id, thread.id)

    async def notice(self, session: Session, paper: Paper, kind: NoticeKind) -> None:
        """Moved, cancelled or done (with the notes, escaped) in the thread or channel."""
        lang = guild_lang(self.client, session.guild_id)
        text = t(lang, NOTICE_KEYS[kind], title=escape(paper.title_en),
                 when=when_text(session, lang))
        embed = None
        if kind is NoticeKind.DONE and session.notes:
            embed = discord.Embed(title=t(lang, "session.notes"), colour=CARD_COLOUR,
                                  description=fit(escape(session.notes),
                                                  EMBED_DESCRIPTION_LIMIT))
        await self._send(session, text, embed, discord.AllowedMentions.none())

    async def remind(self, reminder: Reminder, nonce: str) -> int:
        """The reminder, with its marker in the footer; the presenter is pinged."""
        session = reminder.session
        lang = guild_lang(self.client, session.guild_id)
        body = t(lang, "session.reminder.body", title=escape(reminder.paper.title_en),
                 before=duration(lang, reminder.offset_minutes),
                 when=when_text(session, lang), presenter=presenter_text(session, lang),
                 where=where_text(session, lang))
        if reminder.late:
            body += "\n" + t(lang, "session.reminder.late")
        embed = discord.Embed(title=t(lang, "session.reminder.title"), description=body,
                              colour=CARD_COLOUR)
        embed.set_footer(text=reminder.marker)
        content = f"<@{session.presenter_id}>" if session.presenter_id else None
        return await self._send(session, content, embed, only_presenter(session), nonce=nonce)

    async def _send(self, session: Session, content: str | None, embed: discord.Embed | None,
                    pings: discord.AllowedMentions, nonce: str | None = None) -> int:
        channel = self.client.get_partial_messageable(session.thread_id or session.channel_id,
                                                      guild_id=session.guild_id)
        extra: dict[str, Any] = {"nonce": nonce} if nonce else {}
        if embed is not None:
            extra["embed"] = embed
        try:
            message = await channel.send(content, allowed_mentions=pings, **extra)
        except discord.HTTPException as exc:
            raise delivery_failure(exc) from exc
        return message.id

    async def find(self, channel_id: int, marker: str, nonce: str,
                   since: datetime) -> int | None:
        """Our post after `since` with the nonce or the marker in its footer (the digest's
        search)."""
        return await find_own_post(self.client, channel_id, marker, nonce, since)
