"""Polls: who chose an answer, ending a poll early, and every poll's end at its expiry (with
finalised counts, a MESSAGE_UPDATE and the poll-result system message)."""

from __future__ import annotations

from ..gateway import Intent
from ..messages import Message
from ..model import Permission
from ..polls import POLL_RESULT
from ..validation import FormError
from .resource import Resource
from .routing import ApiError, Call, Result, Route, form_error

VOTERS_DEFAULT = 25
VOTERS_MAX = 100


class Polls(Resource):
    """``/channels/{channel_id}/polls/{message_id}/...``."""

    def routes(self) -> list[Route]:
        """The voters of one answer, and the early end."""
        poll = "/channels/{channel_id}/polls/{message_id}"
        return [
            Route("GET", poll + "/answers/{answer_id}", self.answer_voters),
            Route("POST", poll + "/expire", self.expire),
        ]

    def _poll_message(self, call: Call, *, need: int = 0) -> Message:
        channel = self._channel(call, need=need)
        message = self._message(channel, call.snowflake("message_id"))
        if message.poll is None:
            raise ApiError(400, 520006, "Cannot expire a non-poll message")
        return message

    async def answer_voters(self, call: Call) -> Result:
        """GET …/answers/{answer_id}: the users who chose it, by id, after ``after``, at most
        ``limit`` (1-100, default 25)."""
        message = self._poll_message(call, need=Permission.READ_MESSAGE_HISTORY)
        assert message.poll is not None
        answer_id = call.params["answer_id"]
        if not answer_id.isdigit() or int(answer_id) not in message.poll.answer_ids:
            raise ApiError(404, 10008, "Unknown Message")  # Discord: unknown answer is a 404
        raw = call.query.get("limit", str(VOTERS_DEFAULT))
        limit = int(raw) if raw.isdigit() else 0
        if not 1 <= limit <= VOTERS_MAX:
            raise form_error([FormError(("limit",), "NUMBER_TYPE_MAX",
                                        "int value should be between 1 and 100.")])
        after = call.query_snowflake("after") if "after" in call.query else 0
        voters = [u for u in message.poll.voters(int(answer_id)) if u > after][:limit]
        return {"users": [self.world.users[u].payload() for u in voters if u in self.world.users]}

    async def expire(self, call: Call) -> Result:
        """POST …/expire: only the poll's author ends it; a poll already over is 520001."""
        message = self._poll_message(call)
        assert message.poll is not None
        if message.author is not self.world.bot_user:
            raise ApiError(403, 50013, "Missing Permissions")
        if message.poll.expired(self.world.now()):
            raise ApiError(400, 520001, "Poll expired")
        message.poll.expiry = self.world.now()
        await self.finish(message)
        return message.payload()

    async def finish_due(self) -> None:
        """End every poll whose expiry has come (the stand-in's clock)."""
        now = self.world.now()
        for message in list(self.world.messages.values()):
            poll = message.poll
            if poll is not None and not poll.finalized and not message.deleted and \
                    now >= poll.expiry:
                await self.finish(message)

    async def finish(self, message: Message) -> None:
        """Finalise the counts, announce the update and post the poll-result message."""
        assert message.poll is not None
        message.poll.finalized = True
        await self._announce("MESSAGE_UPDATE", message)
        channel = self.world.channels.get(message.channel_id)
        if channel is None:
            return
        result = self.world.create_message(channel, message.author, {
            "embeds": [message.poll.result_embed()],
            "message_reference": {"message_id": str(message.id)},
        })
        result.type = POLL_RESULT
        await self._announce("MESSAGE_CREATE", result)

    async def vote(self, message: Message, user_id: int, answer_ids: list[int]) -> None:
        """A member's choice (replacing their earlier one): one gateway event per answer
        added or removed, to sessions with the message-polls intent."""
        poll = message.poll
        if poll is None:
            raise ValueError(f"message {message.id} has no poll")
        if poll.expired(self.world.now()):
            raise ValueError("the poll has ended: Discord refuses the vote")
        if len(answer_ids) > 1 and not poll.allow_multiselect:
            raise ValueError("this poll takes one answer per member")
        if any(a not in poll.answer_ids for a in answer_ids):
            raise ValueError(f"unknown answer in {answer_ids}")
        before = poll.votes.get(user_id, set())
        after = set(answer_ids)
        if after:
            poll.votes[user_id] = after
        else:
            poll.votes.pop(user_id, None)
        intent = int(Intent.GUILD_MESSAGE_POLLS if message.guild_id is not None
                     else Intent.DIRECT_MESSAGE_POLLS)
        for event, changed in (("MESSAGE_POLL_VOTE_REMOVE", before - after),
                               ("MESSAGE_POLL_VOTE_ADD", after - before)):
            for answer_id in sorted(changed):
                data = {"user_id": str(user_id), "channel_id": str(message.channel_id),
                        "message_id": str(message.id), "answer_id": answer_id}
                if message.guild_id is not None:
                    data["guild_id"] = str(message.guild_id)
                await self.dispatch(event, data, intent=intent)
