"""Topic subscriptions: one meaning everywhere — a topic matches what `/paper <topic>` finds."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from bot.features.papers.query import QueryError, parse_query
from bot.features.papers.search import SearchService, Strategy
from bot.features.papers.store import PaperStore
from bot.features.subscriptions.similar import SimilarFollow, SimilarService
from bot.features.subscriptions.store import SubscriptionStore
from bot.features.subscriptions.topic_match import (
    CompiledTopic,
    PaperTerms,
    TopicIndex,
    normalise_topic,
)
from bot.shared.messages import Refusal
from domain.paper import Paper
from domain.reasons import Reason, ReasonCode
from domain.subscriptions import AddResult, Delivery, Forgotten, Subscription
from domain.text import tidy

MAX_TOPIC_CHARS = 100
COUNT_CAP = 1000
EXAMPLES = 3
SUGGESTIONS = 25
SUGGESTION_SOURCE_LIMIT = 10


class TopicError(Refusal):
    """A topic that cannot be subscribed to, said in the reader's language (`text(lang)`)."""


@dataclass(frozen=True, slots=True)
class Subscribed:
    """The outcome of `/subscribe`: what happened and what the topic currently matches."""

    result: AddResult
    topic: str
    matches: int
    examples: tuple[Paper, ...] = ()
    dms_paused: bool = False
    did_you_mean: str | None = None


@dataclass(frozen=True, slots=True)
class FollowedTopic:
    """One of a member's topics with how many papers it matches now."""

    topic: str
    delivery: Delivery
    matches: int


@dataclass(frozen=True, slots=True)
class MemberOverview:
    """What `/subscriptions` shows a member."""

    resumed: bool
    topics: tuple[FollowedTopic, ...]
    dm_pause: Reason | None
    similar: SimilarFollow | None = None
    """Their "papers like my bookmarks", when they follow it here."""


@dataclass(frozen=True, slots=True)
class AdminOverview:
    """What `/subscriptions-admin` shows: counts per topic, or who follows one topic."""

    topic_counts: tuple[tuple[str, int], ...] = ()
    followers: tuple[int, ...] | None = None


@dataclass(slots=True)
class Interested:
    """A member a paper concerns: which of their topics matched, and how they want to hear."""

    user_id: int
    topics: list[str] = field(default_factory=list)
    deliveries: set[Delivery] = field(default_factory=set)


def checked_topic(text: str) -> tuple[str, str]:
    """(display form, duplicate key) of a topic, or `TopicError` saying what is wrong."""
    topic = tidy(text)
    if not topic:
        raise TopicError("subs.topic_empty")
    if len(topic) > MAX_TOPIC_CHARS:
        raise TopicError("subs.topic_too_long", limit=MAX_TOPIC_CHARS)
    try:
        compiled = CompiledTopic.compile(topic)
    except QueryError as exc:
        raise TopicError(exc.key, **exc.fields) from None
    if compiled is None:
        raise TopicError("subs.topic_empty")
    return topic, normalise_topic(topic)


class SubscriptionService:
    """Subscribing, listing, and working out who a paper concerns."""

    def __init__(self, store: SubscriptionStore, papers: PaperStore,
                 search: SearchService, similar: SimilarService | None = None) -> None:
        self.store = store
        self.papers = papers
        self.search = search
        self.similar = similar
        """"Papers like my bookmarks" (None: not offered)."""

    async def count_matches(self, topic: str, guild_id: int | None = None
                            ) -> tuple[int, tuple[Paper, ...]]:
        """How many papers a topic matches now (capped at 1,000), with a few examples (as
        the server `guild_id` sees them: a corrected title counts)."""
        if guild_id is None:
            hits, _ = await self.search.exact(parse_query(topic), limit=COUNT_CAP)
        else:
            outcome = await self.search.search(parse_query(topic), limit=COUNT_CAP,
                                               guild_id=guild_id)
            exact = outcome.strategy in (Strategy.EXACT, Strategy.CROSS_LANGUAGE)
            hits = outcome.hits if exact else []
        return len(hits), tuple(hit.paper for hit in hits[:EXAMPLES])

    async def subscribe(self, guild_id: int, user_id: int, text: str,
                        delivery: Delivery) -> Subscribed:
        """Add a topic (a followed one takes the new delivery; the 26th is refused) and show
        what it matches, with `/paper`'s correction when it matches nothing."""
        topic, key = checked_topic(text)
        result = await self.store.add(Subscription(guild_id, user_id, topic, key, delivery))
        matches, examples = await self.count_matches(topic, guild_id)
        paused = delivery is Delivery.DM and await self.store.dm_pause(user_id) is not None
        return Subscribed(result, topic, matches, examples, dms_paused=paused,
                          did_you_mean=None if matches else await self._correction(topic))

    async def follow_similar(self, guild_id: int, user_id: int,
                             threshold: int | None) -> tuple[SimilarFollow, bool]:
        """Follow papers like the member's bookmarks (or change the threshold), and whether
        their DMs are paused (they hear by DM)."""
        if self.similar is None:
            raise TopicError("subs.similar_unavailable")
        follow = await self.similar.follow(guild_id, user_id, threshold)
        return follow, await self.store.dm_pause(user_id) is not None

    async def unfollow_similar(self, guild_id: int, user_id: int) -> bool:
        """Stop following papers like the member's bookmarks; False if they did not."""
        return self.similar is not None and await self.similar.unfollow(guild_id, user_id)

    async def _correction(self, topic: str) -> str | None:
        """The corrected topic `/paper` would search instead, when that finds papers."""
        outcome = await self.search.search(parse_query(topic), limit=1)
        return outcome.did_you_mean if outcome.strategy is Strategy.CORRECTED else None

    async def unsubscribe(self, guild_id: int, user_id: int, text: str) -> bool:
        """Remove a topic, matched the way duplicates are."""
        try:
            _, key = checked_topic(text)
        except TopicError:
            return False
        return await self.store.remove(guild_id, user_id, key)

    async def suggest_topics(self, typed: str) -> list[str]:
        """What is typed, then frequent catalog words, authors and workshops that start like
        its last word (for autocomplete)."""
        text = typed.strip()
        if not text or len(text) > MAX_TOPIC_CHARS:
            return []
        names: list[str] = [text]
        word = text.split()[-1].casefold()
        vocabulary = await self.search.vocabulary()
        names += vocabulary.completions(word, limit=SUGGESTION_SOURCE_LIMIT)
        try:
            hits = await self.papers.search(parse_query(f"author:{word}"),
                                            limit=SUGGESTION_SOURCE_LIMIT)
        except QueryError:
            hits = []
        for hit in hits:
            names += [f"author:{author.split()[-1]}" for author in hit.paper.authors
                      if word in author.casefold()]
        names += [f'venue:"{w}"' for w in await self.papers.workshop_names(word)]
        unique = dict.fromkeys(n for n in names if len(n) <= MAX_TOPIC_CHARS)
        return list(unique)[:SUGGESTIONS]

    async def own_topics(self, guild_id: int, user_id: int, typed: str) -> list[str]:
        """The member's topics in this server containing what is typed (for autocomplete)."""
        needle = typed.casefold()
        mine = await self.store.of_member(guild_id, user_id)
        return [s.topic for s in mine if needle in s.topic.casefold()][:SUGGESTIONS]

    async def member_overview(self, guild_id: int, user_id: int, *,
                              resume_dms: bool = False) -> MemberOverview:
        """The member's topics here with current match counts, and their DM status
        (resuming DMs first if asked)."""
        resumed = resume_dms and await self.store.resume_dms(user_id)
        topics = []
        for subscription in await self.store.of_member(guild_id, user_id):
            matches, _ = await self.count_matches(subscription.topic, guild_id)
            topics.append(FollowedTopic(subscription.topic, subscription.delivery, matches))
        similar = (await self.similar.status(guild_id, user_id)
                   if self.similar is not None else None)
        return MemberOverview(resumed, tuple(topics), await self.store.dm_pause(user_id),
                              similar)

    async def forget(self, user_id: int) -> Forgotten:
        """Delete everything about a member, in every server."""
        return await self.store.forget(user_id)

    async def admin_overview(self, guild_id: int, topic: str | None = None) -> AdminOverview:
        """Counts per topic; with `topic`, the members following it (`TopicError` if invalid)."""
        if topic is None:
            return AdminOverview(topic_counts=tuple(await self.store.topic_counts(guild_id)))
        _, key = checked_topic(topic)
        return AdminOverview(followers=tuple(await self.store.followers(guild_id, key)))

    async def dms_paused(self, user_id: int) -> bool:
        """True when Discord refused a DM to this member and they have not resumed."""
        return await self.store.dm_pause(user_id) is not None

    async def pause_dms(self, user_id: int) -> None:
        """Discord refused a DM: stop DMs to the member until they resume them."""
        await self.store.pause_dms(user_id, Reason(ReasonCode.DMS_CLOSED))

    async def guilds_with_subscriptions(self) -> list[int]:
        """Servers that have at least one subscription."""
        return await self.store.guilds_with_subscriptions()

    async def new_paper_matches(self, guild_id: int, papers: list[Paper]
                                ) -> dict[int, list[tuple[Paper, list[str]]]]:
        """Members of a server (DMs not paused) with the new papers matching their topics (the
        papers as the server sees them: a corrected title matches)."""
        papers = await self.search.seen(guild_id, papers)
        by_id = {paper.id: paper for paper in papers}
        per_member: dict[int, list[tuple[Paper, list[str]]]] = defaultdict(list)
        for paper_id, members in (await self.interested(guild_id, papers)).items():
            for user_id, member in members.items():
                per_member[user_id].append((by_id[paper_id], member.topics))
        paused = await self.store.paused_dm_users(per_member)
        return {u: m for u, m in sorted(per_member.items()) if u not in paused}

    async def digest_audience(self, guild_id: int, paper: Paper, *,
                              mention: bool) -> Audience:
        """Members to mention (mention delivery, if the server allows mentions) or DM (dm
        delivery, and mention delivery when the server turned mentions off), minus those already
        told about this paper here; a member is pinged or messaged, never both."""
        interested = (await self.interested(guild_id, [paper])).get(paper.id, {})
        if not interested:
            return Audience()
        told = await self.store.notified(guild_id, paper.id)
        paused = await self.store.paused_dm_users(interested)
        mention_ids: list[int] = []
        topics: list[str] = []
        dm: dict[int, list[str]] = {}
        for user_id, member in sorted(interested.items()):
            if user_id in told:
                continue
            if mention and Delivery.MENTION in member.deliveries:
                mention_ids.append(user_id)
                topics.extend(t for t in member.topics if t not in topics)
            elif (Delivery.DM in member.deliveries or not mention) and user_id not in paused:
                dm[user_id] = member.topics
        return Audience(tuple(mention_ids), tuple(topics), dm)

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
