"""Topic subscriptions: one meaning everywhere — a topic matches what `/paper <topic>` finds."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from bot.core.models import Paper
from bot.core.query import QueryError, parse_query
from bot.core.text import tidy
from bot.core.topic_match import CompiledTopic, PaperTerms, TopicIndex, normalise_topic
from storage.interfaces import PaperStore
from storage.subscriptions import (
    AddResult,
    SqliteSubscriptionStore,
    Subscription,
)

MAX_TOPIC_CHARS = 100
COUNT_CAP = 1000
EXAMPLES = 3


class TopicError(ValueError):
    """A topic that cannot be subscribed to; the message is safe to show."""


@dataclass(frozen=True, slots=True)
class Subscribed:
    """The outcome of `/subscribe`: what happened and what the topic currently matches."""

    result: AddResult
    topic: str
    matches: int
    examples: tuple[Paper, ...] = ()


@dataclass(slots=True)
class Interested:
    """A member a paper concerns: which of their topics matched, and how they want to hear."""

    user_id: int
    topics: list[str] = field(default_factory=list)
    deliveries: set[str] = field(default_factory=set)


def checked_topic(text: str) -> tuple[str, str]:
    """(display form, duplicate key) of a topic, or `TopicError` saying what is wrong."""
    topic = tidy(text)
    if not topic:
        raise TopicError("A topic needs at least one word, an author or a venue.")
    if len(topic) > MAX_TOPIC_CHARS:
        raise TopicError(f"A topic can be at most {MAX_TOPIC_CHARS} characters.")
    try:
        compiled = CompiledTopic.compile(topic)
    except QueryError as exc:
        raise TopicError(str(exc)) from None
    if compiled is None:
        raise TopicError("A topic needs at least one word, an author or a venue.")
    return topic, normalise_topic(topic)


class SubscriptionService:
    """Subscribing, listing, and working out who a paper concerns."""

    def __init__(self, store: SqliteSubscriptionStore, papers: PaperStore) -> None:
        self.store = store
        self.papers = papers

    async def count_matches(self, topic: str) -> tuple[int, tuple[Paper, ...]]:
        """How many papers a topic matches now (capped at 1,000), with a few examples."""
        hits = await self.papers.search(parse_query(topic), limit=COUNT_CAP)
        return len(hits), tuple(hit.paper for hit in hits[:EXAMPLES])

    async def subscribe(self, guild_id: int, user_id: int, text: str,
                        delivery: str) -> Subscribed:
        """Add a topic (refusing duplicates and the 26th) and show what it matches."""
        topic, key = checked_topic(text)
        result = await self.store.add(Subscription(guild_id, user_id, topic, key, delivery))
        matches, examples = await self.count_matches(topic)
        return Subscribed(result, topic, matches, examples)

    async def unsubscribe(self, guild_id: int, user_id: int, text: str) -> bool:
        """Remove a topic, matched the way duplicates are."""
        try:
            _, key = checked_topic(text)
        except TopicError:
            return False
        return await self.store.remove(guild_id, user_id, key)

    async def interested(self, guild_id: int, papers: Iterable[Paper]
                         ) -> dict[str, dict[int, Interested]]:
        """For each paper, the members of this server whose topics match it."""
        subscriptions = await self.store.in_guild(guild_id)
        if not subscriptions:
            return {}
        index = TopicIndex(s.topic for s in subscriptions)
        by_key: dict[str, list[Subscription]] = defaultdict(list)
        for subscription in subscriptions:
            by_key[subscription.topic_key].append(subscription)
        found: dict[str, dict[int, Interested]] = {}
        for paper in papers:
            matched = index.matching(PaperTerms.of(paper))
            if not matched:
                continue
            members: dict[int, Interested] = {}
            for topic in matched:
                for subscription in by_key.get(normalise_topic(topic), ()):
                    member = members.setdefault(subscription.user_id,
                                                Interested(subscription.user_id))
                    member.deliveries.add(subscription.delivery)
                    if subscription.topic not in member.topics:
                        member.topics.append(subscription.topic)
            found[paper.id] = members
        return found


@dataclass(frozen=True, slots=True)
class Audience:
    """Who hears about a paper of the day: pinged in the post, or sent a DM."""

    mention_ids: tuple[int, ...] = ()
    mention_topics: tuple[str, ...] = ()
    dm: dict[int, list[str]] = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        """Nobody to tell."""
        return not self.mention_ids and not self.dm


async def digest_audience(service: SubscriptionService, guild_id: int, paper: Paper, *,
                          mention: bool) -> Audience:
    """Members to mention (mention delivery, if the server allows mentions) or DM (dm
    delivery, and mention delivery when the server turned mentions off), minus those already
    told about this paper here; a member is pinged or messaged, never both."""
    interested = (await service.interested(guild_id, [paper])).get(paper.id, {})
    if not interested:
        return Audience()
    told = await service.store.notified(guild_id, paper.id)
    paused = await service.store.paused_dm_users(interested)
    mention_ids: list[int] = []
    topics: list[str] = []
    dm: dict[int, list[str]] = {}
    for user_id, member in sorted(interested.items()):
        if user_id in told:
            continue
        if mention and "mention" in member.deliveries:
            mention_ids.append(user_id)
            topics.extend(t for t in member.topics if t not in topics)
        elif ("dm" in member.deliveries or not mention) and user_id not in paused:
            dm[user_id] = member.topics
    return Audience(tuple(mention_ids), tuple(topics), dm)
