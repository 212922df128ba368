"""`/session`: schedule, list, move, cancel and finish the reading group's sessions."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.client.answers import paper_choices
from bot.client.checks import in_guild, is_organiser
from bot.client.cog_base import ServiceGroupCog
from bot.client.cog_host import host_of
from bot.client.respond import defer, respond, safe_send
from bot.client.tree import UserFacingError, lang_of, refusal_reply
from bot.features.papers.card import fit
from bot.features.papers.card_view import CARD_COLOUR, escape
from bot.features.sessions.delivery import DeliveryFailed
from bot.features.sessions.plan import local_text
from bot.features.sessions.poster import event_link, when_text
from bot.features.sessions.service import NOTES_LIMIT
from bot.shared.lang import Lang
from bot.shared.messages import Refusal, render_reason, t, tn
from domain.reasons import ReasonCode
from domain.sessions import Place, Session

if TYPE_CHECKING:
    pass

LINK_LIMIT = 100
CHOICE_LIMIT = 25
FIELD_LIMIT = 1024


def _link(session: Session) -> str:
    return (f"https://discord.com/channels/{session.guild_id}/{session.channel_id}/"
            f"{session.message_id}")


class NotesModal(discord.ui.Modal):
    """Long notes for `/session done`, typed in a modal."""

    def __init__(self, cog: SessionCog, session_id: int, lang: Lang) -> None:
        super().__init__(title=fit(t(lang, "session.notes.modal"), 45), timeout=600)
        self.cog = cog
        self.session_id = session_id
        self.notes: discord.ui.TextInput[NotesModal] = discord.ui.TextInput(
            label=fit(t(lang, "session.notes"), 45), style=discord.TextStyle.long,
            custom_id="notes", required=False, max_length=NOTES_LIMIT)
        self.add_item(self.notes)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Finish the session with what was typed (refusals answered as commands do)."""
        try:
            await self.cog.finish(interaction, self.session_id, self.notes.value)
        except UserFacingError as exc:
            await safe_send(interaction, str(exc), ephemeral=True)


class SessionCog(ServiceGroupCog, group_name="session",
                 group_description="The reading group's sessions"):
    """Sessions: a scheduled event, an announcement with a thread, reminders, notes."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Guild only."""
        return in_guild(interaction)

    @staticmethod
    def _problems(lang: Lang, stopped: tuple[Session, ...]) -> str:
        """Stopped reminders the organisers have not heard about, as lines to put first."""
        return "".join(t(lang, "session.problem", id=s.id,
                         reason=escape(render_reason(lang, s.problem))) + "\n"
                       for s in stopped if s.problem is not None)

    def _refused(self, exc: Exception, lang: Lang) -> UserFacingError:
        if isinstance(exc, DeliveryFailed):
            text = t(lang, "session.discord_refused",
                     reason=escape(render_reason(lang, exc.reason)))
            if exc.reason.code is ReasonCode.DISCORD_ERROR:  # no way forward of its own
                text += " " + t(lang, "session.discord_retry")
            return UserFacingError(text)
        assert isinstance(exc, Refusal)
        return UserFacingError(refusal_reply(exc, lang))

    @app_commands.command(name="schedule", description="Schedule a session about a paper")
    @app_commands.describe(paper="Title words or the paper's id",
                           when="Local date and time, YYYY-MM-DD HH:MM",
                           presenter="Who presents (default: the rotation's proposal)",
                           voice="Meet in this voice channel",
                           link="Or meet at this link")
    async def schedule(self, interaction: discord.Interaction,
                       paper: app_commands.Range[str, 1, 300],
                       when: app_commands.Range[str, 1, 40],
                       presenter: discord.Member | None = None,
                       voice: discord.VoiceChannel | None = None,
                       link: app_commands.Range[str, 1, LINK_LIMIT] | None = None) -> None:
        """Organisers only: event, announcement, thread; the rotation proposes a presenter."""
        await is_organiser(interaction, self.services, "organiser.action.schedule")
        lang = lang_of(interaction)
        if link is not None and not link.startswith(("https://", "http://")):
            raise UserFacingError(t(lang, "session.link_format"))
        await defer(interaction, ephemeral=True)
        try:
            noticed = await self.services.sessions.schedule(
                interaction.guild_id or 0, paper, when,
                presenter_id=presenter.id if presenter else None,
                place=Place(voice.id if voice else None, None if voice else link),
                channel_id=interaction.channel_id or 0)
        except (Refusal, DeliveryFailed) as exc:
            raise self._refused(exc, lang) from None
        scheduled, notice = noticed.result, self._problems(lang, noticed.notices)
        session, zone = scheduled.session, scheduled.zone
        text = t(lang, "session.scheduled", id=session.id, title=escape(scheduled.paper.title_en),
                 when=when_text(session, lang), local=local_text(session.starts_at, zone),
                 zone=zone.key, link=_link(session), event=event_link(session))
        proposal = scheduled.proposal
        if proposal is not None:
            ago = (t(lang, "rotation.never") if proposal.turns_ago is None
                   else tn(lang, "rotation.ago", proposal.turns_ago))
            text += "\n" + t(lang, "rotation.proposed", presenter=f"<@{proposal.user_id}>",
                             ago=ago)
        elif session.presenter_id is None:
            text += "\n" + t(lang, "rotation.nobody")
        await respond(interaction, notice + text, ephemeral=True)

    @schedule.autocomplete("paper")
    async def paper_autocomplete(self, interaction: discord.Interaction,
                                 current: str) -> list[app_commands.Choice[str]]:
        """Titles matching what is typed; the value is the paper's id."""
        return await paper_choices(self.services.search, interaction, current)

    @app_commands.command(name="list", description="Upcoming sessions")
    async def list_sessions(self, interaction: discord.Interaction) -> None:
        """The server's scheduled sessions, soonest first."""
        lang = lang_of(interaction)
        noticed = await self.services.sessions.listing(
            interaction.guild_id or 0, organiser=await is_organiser(interaction, self.services))
        found, notice = noticed.result, self._problems(lang, noticed.notices)
        if not found:
            await respond(interaction, notice + t(lang, "session.list.empty"), ephemeral=True)
            return
        embed = discord.Embed(title=t(lang, "session.list.title"), colour=CARD_COLOUR)
        for session, paper in found[:CHOICE_LIMIT]:
            title = escape(paper.title_en) if paper else session.paper_id
            presenter = (f"<@{session.presenter_id}>" if session.presenter_id
                         else t(lang, "session.presenter.none"))
            embed.add_field(name=fit(f"#{session.id} · {paper.title_en if paper else ''}", 256),
                            value=fit(t(lang, "session.list.line", when=when_text(session, lang),
                                        presenter=presenter, link=_link(session), title=title),
                                      FIELD_LIMIT), inline=False)
        await respond(interaction, notice or None, embed=embed, ephemeral=True)

    @app_commands.command(name="move", description="Move a session to another time")
    @app_commands.describe(session="The session", when="Local date and time, YYYY-MM-DD HH:MM")
    async def move(self, interaction: discord.Interaction, session: int,
                   when: app_commands.Range[str, 1, 40]) -> None:
        """Organisers only: the event moves, the thread is told, reminders start over."""
        await is_organiser(interaction, self.services, "organiser.action.move")
        lang = lang_of(interaction)
        try:
            noticed = await self.services.sessions.move(interaction.guild_id or 0, session, when)
        except (Refusal, DeliveryFailed) as exc:
            raise self._refused(exc, lang) from None
        moved, notice = noticed.result, self._problems(lang, noticed.notices)
        await respond(interaction, notice + t(lang, "session.moved", id=moved.id,
                                              when=when_text(moved, lang)), ephemeral=True)

    @app_commands.command(name="cancel", description="Cancel a session")
    @app_commands.describe(session="The session")
    async def cancel(self, interaction: discord.Interaction, session: int) -> None:
        """Organisers only: the event is removed, the thread told, the reminders stop."""
        await is_organiser(interaction, self.services, "organiser.action.cancel")
        lang = lang_of(interaction)
        try:
            noticed = await self.services.sessions.cancel(interaction.guild_id or 0, session)
        except (Refusal, DeliveryFailed) as exc:
            raise self._refused(exc, lang) from None
        cancelled, notice = noticed.result, self._problems(lang, noticed.notices)
        await respond(interaction, notice + t(lang, "session.cancelled", id=cancelled.id),
                      ephemeral=True)

    @app_commands.command(name="done", description="Mark a session's paper discussed")
    @app_commands.describe(session="The session",
                           notes="Notes (leave empty to write long notes in a form)")
    async def done(self, interaction: discord.Interaction, session: int,
                   notes: app_commands.Range[str, 1, 1000] | None = None) -> None:
        """Organisers or the presenter: notes stored and posted, the paper recorded as read."""
        if notes is not None:
            await self.finish(interaction, session, notes)
            return
        lang = lang_of(interaction)
        # checked before the form opens, so nobody writes notes that would be refused
        await self.services.sessions.may_finish(
            interaction.guild_id or 0, session, user_id=interaction.user.id,
            organiser=await is_organiser(interaction, self.services))
        await interaction.response.send_modal(NotesModal(self, session, lang))

    async def finish(self, interaction: discord.Interaction, session_id: int,
                     notes: str | None) -> None:
        """Mark done (from the command or the notes form) and answer."""
        lang = lang_of(interaction)
        organiser = await is_organiser(interaction, self.services)
        try:
            finished = await self.services.sessions.done(
                interaction.guild_id or 0, session_id, user_id=interaction.user.id,
                organiser=organiser, notes=notes)
        except Refusal as exc:
            raise self._refused(exc, lang) from None
        where = (f"<#{finished.thread_id}>" if finished.thread_id
                 else f"<#{finished.channel_id}>")
        await respond(interaction, t(lang, "session.done", id=finished.id, where=where),
                      ephemeral=True)

    @move.autocomplete("session")
    @cancel.autocomplete("session")
    @done.autocomplete("session")
    async def session_autocomplete(self, interaction: discord.Interaction,
                                   current: str) -> list[app_commands.Choice[int]]:
        """Upcoming sessions whose number or title matches what is typed."""
        agenda = await self.services.sessions.agenda(interaction.guild_id or 0)
        zone = agenda.zone
        typed = current.strip().lstrip("#").lower()
        choices = []
        for session, paper in agenda.sessions:
            title = paper.title_en if paper else session.paper_id
            name = f"#{session.id} · {local_text(session.starts_at, zone)} · {title}"
            if typed and typed not in name.lower():
                continue
            choices.append(app_commands.Choice(name=fit(name, 100), value=session.id))
        return choices[:CHOICE_LIMIT]


async def setup(bot: commands.Bot) -> None:
    """The extension's entry point: add the cog to the paperclub bot."""
    host = host_of(bot)
    await bot.add_cog(SessionCog(host, host.services))
