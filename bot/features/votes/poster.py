"""The Discord side of a vote: its tally on the buttons, its poll found again, its counts and
end, the winner announced and found again."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

import discord

from bot.client.answers import title
from bot.client.own_posts import carries_marker, delivery_failure, find_own_post, send_own_post
from bot.features.notifications.notices import guild_lang
from bot.features.papers.card import DESCRIPTION_LIMIT, fit
from bot.features.papers.card_view import CARD_COLOUR
from bot.features.votes.delivery import PollCounts, VoteAnnouncement
from bot.features.votes.views import ballot_view
from bot.shared.messages import t, tn
from domain.polls import answer_positions
from domain.votes import Vote

POLL_EXPIRED = 520001


class DiscordVotePoster:
    """Implements `VotePoster` with a connected discord.py client."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def announce(self, announcement: VoteAnnouncement, nonce: str) -> int:
        """The winner in the content, every option's votes in the embed; pings no one."""
        vote = announcement.vote
        lang = guild_lang(self.client, vote.guild_id)
        best = announcement.winner
        name = title(best.paper, lang, best.paper_id)
        if announcement.ballots == 0:
            content = t(lang, "vote.no_votes", title=name)
        else:
            content = t(lang, "vote.winner", title=name, votes=tn(lang, "count.votes", best.votes))
            if announcement.tie:
                content += "\n" + t(lang, "vote.tie")
        content += "\n" + t(lang, "vote.next", paper=best.paper_id)
        lines = [f"{r.position}. {title(r.paper, lang, r.paper_id)} — "
                 + tn(lang, "count.votes", r.votes) for r in announcement.results]
        embed = discord.Embed(title=t(lang, "vote.results"),
                              description=fit("\n".join(lines), DESCRIPTION_LIMIT),
                              colour=CARD_COLOUR)
        embed.set_footer(text=announcement.marker)
        return await send_own_post(self.client, vote.guild_id, vote.channel_id, nonce, embed,
                                   content)

    async def find(self, channel_id: int, marker: str, nonce: str,
                   since: datetime) -> int | None:
        """Our announcement, if it is out already (see `find_own_post`)."""
        return await find_own_post(self.client, channel_id, marker, nonce, since)

    def _message(self, vote: Vote, message_id: int) -> discord.PartialMessage:
        channel = self.client.get_partial_messageable(vote.channel_id, guild_id=vote.guild_id)
        return channel.get_partial_message(message_id)

    async def show_tally(self, vote: Vote, counts: Mapping[int, int], *, closed: bool) -> None:
        """Edit the buttons only (the embed, in the organiser's language, stays)."""
        if vote.message_id is None:
            return
        try:
            await self._message(vote, vote.message_id).edit(
                view=ballot_view(vote, disabled=closed, counts=counts))
        except discord.HTTPException as exc:
            raise delivery_failure(exc) from exc

    async def find_poll(self, vote: Vote, marker: str, since: datetime,
                        until: datetime) -> int | None:
        """Our poll between `since` and `until` whose text ends with `marker` (as `poll_text`
        writes it): oldest first, 100 a page."""
        channel = self.client.get_partial_messageable(vote.channel_id, guild_id=vote.guild_id)
        me = self.client.user
        try:
            async for message in channel.history(limit=None, after=since, before=until,
                                                 oldest_first=True):
                if message.poll is not None and (me is None or message.author.id == me.id) \
                        and carries_marker(message.content, marker):
                    return message.id
        except discord.HTTPException as exc:
            raise delivery_failure(exc) from exc
        return None

    async def poll_counts(self, vote: Vote) -> PollCounts:
        """Read the poll's message: answer n is option n. With no message id recorded there is
        nothing to read yet: not finalised (never "over with no votes")."""
        if vote.message_id is None:
            return PollCounts(finalized=False)
        try:
            message = await self._message(vote, vote.message_id).fetch()
        except discord.NotFound:
            return PollCounts(finalized=True)  # the poll was deleted: no votes to count
        except discord.HTTPException as exc:
            raise delivery_failure(exc) from exc
        if message.poll is None:
            return PollCounts(finalized=True)
        positions = answer_positions([a.id for a in message.poll.answers])
        return PollCounts(message.poll.is_finalized(),
                          {positions[a.id]: a.vote_count for a in message.poll.answers})

    async def end_poll(self, vote: Vote) -> None:
        """`POST …/polls/{message}/expire`; a poll already over (520001) is fine."""
        if vote.message_id is None:
            return
        try:
            await self._message(vote, vote.message_id).end_poll()
        except discord.HTTPException as exc:
            if exc.code not in (POLL_EXPIRED, 10008):
                raise delivery_failure(exc) from exc
