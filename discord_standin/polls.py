"""Native polls as Discord keeps them: created with a message, voted on by members, ended at
their expiry (the stand-in's clock) or early, finalised with exact counts and announced by a
poll-result system message (type 46)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from .model import JSONObject

QUESTION_LIMIT = 300
ANSWER_LIMIT = 55
MAX_ANSWERS = 10
MAX_HOURS = 768
EMOJI_NAME_LIMIT = 32
POLL_RESULT = 46
"""The message type of the system message that announces a poll's end."""


@dataclass(eq=False)
class Poll:
    """One message's poll: its answers (numbered from 1), who chose what, and its end."""

    question: str
    answers: list[JSONObject]
    expiry: datetime
    allow_multiselect: bool = False
    votes: dict[int, set[int]] = field(default_factory=dict)
    """Member id -> the answer ids they chose."""
    finalized: bool = False

    @classmethod
    def create(cls, body: JSONObject, now: datetime) -> Poll:
        """The poll of a (valid) create-message body, expiring ``duration`` hours from now."""
        hours = int(body.get("duration") or 24)
        answers = [{"answer_id": n, "poll_media": dict(a["poll_media"])}
                   for n, a in enumerate(body["answers"], start=1)]
        return cls(str(body["question"]["text"]), answers, now + timedelta(hours=hours),
                   bool(body.get("allow_multiselect")))

    @property
    def answer_ids(self) -> list[int]:
        """The answers' ids, in order."""
        return [int(a["answer_id"]) for a in self.answers]

    def expired(self, now: datetime) -> bool:
        """Whether voting has ended."""
        return self.finalized or now >= self.expiry

    def counts(self) -> dict[int, int]:
        """Votes per answer id (every answer, zeros included)."""
        counts = dict.fromkeys(self.answer_ids, 0)
        for chosen in self.votes.values():
            for answer_id in chosen:
                counts[answer_id] += 1
        return counts

    def voters(self, answer_id: int) -> list[int]:
        """Who chose ``answer_id``, by id."""
        return sorted(user for user, chosen in self.votes.items() if answer_id in chosen)

    def payload(self) -> JSONObject:
        """The message's ``poll``: answers with no votes are left out of ``answer_counts``, as
        Discord does (bots cannot vote: ``me_voted`` is false)."""
        counts = [{"id": answer_id, "count": n, "me_voted": False}
                  for answer_id, n in self.counts().items() if n]
        return {
            "question": {"text": self.question},
            "answers": self.answers,
            "expiry": self.expiry.isoformat(),
            "allow_multiselect": self.allow_multiselect,
            "layout_type": 1,
            "results": {"is_finalized": self.finalized, "answer_counts": counts},
        }

    def result_embed(self) -> JSONObject:
        """The poll-result message's embed, in Discord's field names; no victor on a tie or
        with no votes."""
        counts = self.counts()
        fields = [{"name": "poll_question_text", "value": self.question, "inline": False},
                  {"name": "total_votes", "value": str(len(self.votes)), "inline": False}]
        best = max(counts.values(), default=0)
        leaders = [a for a, n in counts.items() if n == best]
        if best and len(leaders) == 1:
            victor = next(a for a in self.answers if a["answer_id"] == leaders[0])
            fields += [
                {"name": "victor_answer_id", "value": str(leaders[0]), "inline": False},
                {"name": "victor_answer_text", "value": victor["poll_media"]["text"],
                 "inline": False},
                {"name": "victor_answer_votes", "value": str(best), "inline": False},
            ]
        return {"type": "poll_result", "fields": fields}
