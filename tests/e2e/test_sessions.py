"""`/session`, `/group` and `/present` end to end: events, announcements, threads, reminders."""

from __future__ import annotations

from datetime import datetime

import pytest

from bot.client.bot import PaperclubBot
from bot.features.sessions.reminders import ReminderOutcome
from bot.settings import Settings
from discord_standin import Channel, ChannelType, Guild, Member, Message, Role, StandIn
from domain.paper import Paper
from tests.clocks import FakeClock
from tests.e2e.group_steps import suggest
from tests.e2e.harness import start_paperclub
from tests.group import People

VOICE, EXTERNAL = 2, 3


@pytest.fixture
def organisers() -> Role:
    return Role("organisers")


@pytest.fixture
def guild(people: People, organisers: Role) -> Guild:
    """The reading group with a voice channel; alice holds the (not yet configured) role."""
    return Guild("Reading Group", roles=[people.admin_role, organisers],
                 channels=["general", "papers", Channel("lounge", ChannelType.VOICE)],
                 members=[Member(people.alice, roles=[organisers]),
                          Member(people.bob, roles=[people.admin_role]), people.carol])


@pytest.fixture
def paper(bundled_papers: list[Paper]) -> Paper:
    return bundled_papers[0]


@pytest.fixture(autouse=True)
def same_clock(standin: StandIn, clock: FakeClock) -> None:
    """Discord checks event times against the same (fake) clock as the bot."""
    standin.set_clock(clock)


async def _schedule(standin: StandIn, guild: Guild, people: People, paper: Paper,
                    when: str = "2026-12-03 18:00", **options: object) -> str:
    handle = await standin.slash("session schedule", {"paper": paper.id, "when": when,
                                                      **options},  # type: ignore[dict-item]
                                 guild=guild, user=people.bob)
    return (await handle.followup()).content


def _posts(standin: StandIn, channel: Channel) -> list[Message]:
    return standin.messages(channel)


def _thread(standin: StandIn, guild: Guild) -> Channel:
    (announcement,) = [m for m in _posts(standin, guild.channel("general")) if m.embeds]
    assert announcement.thread is not None
    return announcement.thread


async def test_schedule_in_a_voice_channel_makes_event_announcement_and_thread(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People, paper: Paper) -> None:
    lounge = guild.channel("lounge")
    reply = await _schedule(standin, guild, people, paper, voice=lounge.id)
    assert "Scheduled session #1" in reply and "2026-12-03 18:00 UTC" in reply
    (event,) = standin.scheduled_events(guild)
    assert event["entity_type"] == VOICE and event["channel_id"] == str(lounge.id)
    assert event["privacy_level"] == 2 and event["name"] == paper.title_en[:100]
    assert datetime.fromisoformat(event["scheduled_start_time"]) == datetime.fromisoformat(
        "2026-12-03T18:00:00+00:00")
    (announcement,) = [m for m in _posts(standin, guild.channel("general")) if m.embeds]
    description = announcement.embeds[0]["description"]
    stamp = int(datetime.fromisoformat("2026-12-03T18:00:00+00:00").timestamp())
    assert f"<t:{stamp}:F>" in description and lounge.mention in description
    assert f"https://discord.com/events/{guild.id}/{event['id']}" in description
    assert announcement.thread is not None
    assert not announcement.pings.users and not announcement.pings.everyone


async def test_words_instead_of_an_id_schedule_the_best_match(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    """As `/suggest` does: a member who types words rather than picking a suggestion."""
    handle = await standin.slash("session schedule", {"paper": "ridge regression grokking",
                                                      "when": "2026-12-03 18:00"},
                                 guild=guild, user=people.bob)
    assert "Scheduled session #1" in (await handle.followup()).content
    (event,) = standin.scheduled_events(guild)
    assert "Grokking" in event["name"]


async def test_an_arxiv_id_schedules_that_paper_and_ambiguous_words_schedule_nothing(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    """Issue 21: `math/0309136` once scheduled a public event for the top search hit (another
    paper); words that match several papers must ask which, and create nothing."""
    added = await standin.slash("catalog add", {"link": "math/0309136"}, guild=guild,
                                user=people.bob)
    assert (await added.reply()).content.startswith("Added `math/0309136")
    posted = len(_posts(standin, guild.channel("general")))
    vague = await standin.slash("session schedule", {"paper": "learning",
                                                     "when": "2026-12-03 18:00"},
                                guild=guild, user=people.bob)
    asked = (await vague.followup()).content
    assert asked.startswith("Which paper do you mean by **learning**?")
    assert asked.count("\n• `") >= 2
    assert standin.scheduled_events(guild) == []
    assert len(_posts(standin, guild.channel("general"))) == posted  # no announcement
    for reference in ("math/0309136", "arXiv:math.GT/0309136v2",
                      "https://arxiv.org/abs/math/0309136v1"):
        handle = await standin.slash("session schedule", {"paper": reference,
                                                          "when": "2026-12-03 18:00"},
                                     guild=guild, user=people.bob)
        assert "Scheduled session" in (await handle.followup()).content
    events = standin.scheduled_events(guild)
    assert len(events) == 3 and all("Knot Floer Homology" in e["name"] for e in events)


async def test_an_arxiv_id_not_in_the_catalog_is_not_searched_for(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People) -> None:
    handle = await standin.slash("session schedule", {"paper": "2401.01234",
                                                      "when": "2026-12-03 18:00"},
                                 guild=guild, user=people.bob)
    assert (await handle.followup()).content.startswith("`2401.01234` is not in the catalog")
    assert standin.scheduled_events(guild) == []


async def test_a_link_makes_an_external_event_and_move_and_cancel_follow(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People, paper: Paper) -> None:
    await _schedule(standin, guild, people, paper, link="https://meet.example.org/rg")
    (event,) = standin.scheduled_events(guild)
    assert event["entity_type"] == EXTERNAL
    assert event["entity_metadata"]["location"] == "https://meet.example.org/rg"
    assert event["scheduled_end_time"] > event["scheduled_start_time"]
    moved = await standin.slash("session move", {"session": 1, "when": "2026-12-04 19:30"},
                                guild=guild, user=people.bob)
    assert "Session #1 now starts" in (await moved.reply()).content
    (event,) = standin.scheduled_events(guild)
    assert datetime.fromisoformat(event["scheduled_start_time"]) == datetime.fromisoformat(
        "2026-12-04T19:30:00+00:00")
    thread = _thread(standin, guild)
    assert "moved to" in _posts(standin, thread)[-1].content
    listed = await standin.slash("session list", guild=guild, user=people.carol)
    assert "#1" in (await listed.reply()).embeds[0]["fields"][0]["name"]
    cancelled = await standin.slash("session cancel", {"session": 1}, guild=guild,
                                    user=people.bob)
    assert "is cancelled" in (await cancelled.reply()).content
    assert standin.scheduled_events(guild) == []
    assert "cancelled" in _posts(standin, thread)[-1].content
    empty = await standin.slash("session list", guild=guild, user=people.bob)
    assert "No sessions are scheduled" in (await empty.reply()).content


async def test_a_time_in_the_past_or_malformed_is_refused_and_nothing_is_kept(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People, paper: Paper) -> None:
    handle = await standin.slash("session schedule",
                                 {"paper": paper.id, "when": "2026-11-29 10:00"},
                                 guild=guild, user=people.bob)
    assert "already passed" in (await handle.followup()).content
    handle = await standin.slash("session schedule", {"paper": paper.id, "when": "tomorrow"},
                                 guild=guild, user=people.bob)
    assert "YYYY-MM-DD HH:MM" in (await handle.followup()).content
    assert standin.scheduled_events(guild) == []
    assert await bot.services.sessions.upcoming(guild.id) == []


async def test_members_without_the_organiser_role_are_told_who_can(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People, paper: Paper,
        organisers: Role) -> None:
    refused = await standin.slash("session schedule", {"paper": paper.id,
                                                       "when": "2026-12-03 18:00"},
                                  guild=guild, user=people.alice)
    assert (await refused.reply()).content == (
        "Only organisers (Manage Server) can schedule sessions.")
    setting = await standin.slash("group organiser-role", {"role": organisers.id}, guild=guild,
                                  user=people.bob)
    assert f"<@&{organisers.id}>" in (await setting.reply()).content
    refused = await standin.slash("session cancel", {"session": 1}, guild=guild,
                                  user=people.carol)
    assert (await refused.reply()).content == (
        f"Only organisers (Manage Server or <@&{organisers.id}>) can cancel sessions.")
    not_admin = await standin.slash("group organiser-role", guild=guild, user=people.alice)
    assert "Manage Server" in (await not_admin.reply()).content
    reply = await _schedule(standin, guild, people, paper)  # bob still can
    assert "Scheduled session #1" in reply
    handle = await standin.slash("session move", {"session": 1, "when": "2026-12-05 18:00"},
                                 guild=guild, user=people.alice)
    assert "now starts" in (await handle.reply()).content


async def test_a_dm_gets_an_explanation(bot: PaperclubBot, standin: StandIn,
                                        people: People) -> None:
    for command in ("session list", "present volunteer"):
        handle = await standin.slash(command, user=people.alice)
        assert (await handle.reply()).content == "This command works only in a server."


async def test_reminders_post_exactly_once_each_across_ticks_and_a_restart(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People, paper: Paper,
        clock: FakeClock, settings: Settings) -> None:
    await _schedule(standin, guild, people, paper, when="2026-12-01 10:00")  # 26 h ahead
    thread = _thread(standin, guild)
    assert await bot.services.reminders.tick() == []
    clock.advance(hours=2)  # 24 h before
    sent = await bot.services.reminders.tick()
    assert [(s.offset_minutes, s.outcome) for s in sent] == [(1440, ReminderOutcome.POSTED)]
    assert await bot.services.reminders.tick() == []
    await standin.stop_bot(bot)
    clock.advance(minutes=1)
    again = await start_paperclub(standin, settings, clock)
    try:
        assert await again.services.reminders.tick() == []
        clock.advance(hours=23)  # 1 h before
        await again.services.reminders.tick()
        await again.services.reminders.tick()
    finally:
        await standin.stop_bot(again)
    reminders = [m for m in _posts(standin, thread) if m.embeds]
    assert len(reminders) == 2
    assert "starts in 24 hours" in reminders[0].embeds[0]["description"]
    assert "starts in 1 hour" in reminders[1].embeds[0]["description"]
    assert all(not m.pings.everyone and not m.pings.roles for m in reminders)


async def test_a_reminder_missed_past_the_grace_is_skipped_with_a_reason(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People, paper: Paper,
        clock: FakeClock) -> None:
    await _schedule(standin, guild, people, paper, when="2026-12-01 10:00")
    clock.advance(hours=5)  # 24 h reminder due 3 h ago: past the 2 h grace
    sent = await bot.services.reminders.tick()
    assert [(s.outcome, s.reason.code if s.reason else None) for s in sent] == [
        (ReminderOutcome.SKIPPED, "offline_past_grace")]
    clock.advance(hours=20, minutes=30)  # 30 min late for the 1 h one: posted, marked late
    (late,) = await bot.services.reminders.tick()
    assert late.outcome is ReminderOutcome.POSTED
    (post,) = [m for m in _posts(standin, _thread(standin, guild)) if m.embeds]
    assert "Sent late" in post.embeds[0]["description"]


async def test_a_deleted_thread_is_reported_once_and_not_retried(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People, paper: Paper,
        clock: FakeClock) -> None:
    await _schedule(standin, guild, people, paper, when="2026-12-01 10:00")
    thread = _thread(standin, guild)
    await standin.delete_channel(thread)
    clock.advance(hours=2)
    (failed,) = await bot.services.reminders.tick()
    assert failed.outcome is ReminderOutcome.FAILED
    assert failed.reason is not None and failed.reason.code == "channel_missing"
    posts_before = len(standin.requests("POST", f"/channels/{thread.id}/messages"))
    clock.advance(hours=23)
    assert await bot.services.reminders.tick() == []
    assert len(standin.requests("POST", f"/channels/{thread.id}/messages")) == posts_before
    first = await standin.slash("session list", guild=guild, user=people.bob)
    assert "Reminders for session #1 stopped: the channel no longer exists" in (
        await first.reply()).content
    second = await standin.slash("session list", guild=guild, user=people.bob)
    assert "stopped" not in ((await second.reply()).content or "")


async def test_done_stores_hostile_notes_without_pinging_anyone(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People, paper: Paper,
        organisers: Role) -> None:
    await _schedule(standin, guild, people, paper, presenter=people.carol.id)
    hostile = f"@everyone <@&{organisers.id}> <@{people.alice.id}> **loud** [x](https://e.vil)"
    refused = await standin.slash("session done", {"session": 1, "notes": "hi"}, guild=guild,
                                  user=people.alice)
    assert "organiser or the session's presenter" in (await refused.reply()).content
    handle = await standin.slash("session done", {"session": 1, "notes": hostile}, guild=guild,
                                 user=people.carol)
    assert "recorded as discussed" in (await handle.reply()).content
    notice = _posts(standin, _thread(standin, guild))[-1]
    assert notice.pings.everyone is False and not notice.pings.users and not notice.pings.roles
    notes = notice.embeds[0]["description"]
    assert "\\*\\*loud\\*\\*" in notes and "<@&" not in notes.replace("<@\u200b&", "")
    (discussed,) = await bot.services.sessions.history.history(guild.id)
    assert discussed.paper_id == paper.id and discussed.notes == hostile
    assert discussed.presenter_id == people.carol.id and discussed.thread_id is not None
    assert await bot.services.sessions.upcoming(guild.id) == []


async def test_done_without_notes_opens_a_form_for_long_notes(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People, paper: Paper) -> None:
    await _schedule(standin, guild, people, paper)
    opened = await standin.slash("session done", {"session": 1}, guild=guild, user=people.bob)
    await opened.response()
    long_notes = "We read it closely. " * 150
    submitted = await standin.submit_modal(opened, {"notes": long_notes})
    assert "recorded as discussed" in (await submitted.reply()).content
    (discussed,) = await bot.services.sessions.history.history(guild.id)
    assert discussed.notes == long_notes.strip()


async def test_the_rotation_proposes_fairly_and_explains(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        bundled_papers: list[Paper]) -> None:
    for user in (people.alice, people.carol):
        joined = await standin.slash("present volunteer", guild=guild, user=user)
        assert "You're in the presenter rotation" in (await joined.reply()).content
    again = await standin.slash("present volunteer", guild=guild, user=people.alice)
    assert "already" in (await again.reply()).content
    replies = [await _schedule(standin, guild, people, bundled_papers[i],
                               when=f"2026-12-0{i + 2} 18:00") for i in range(3)]
    assert f"<@{people.alice.id}> — has not presented yet" in replies[0]
    assert f"<@{people.carol.id}> — has not presented yet" in replies[1]
    # alice's session is not held yet: a turn, not a presentation
    assert f"<@{people.alice.id}> — had a turn 2 turns ago" in replies[2]
    assert "presented" not in replies[2]
    skipped = await standin.slash("present skip", guild=guild, user=people.carol)
    assert "after everyone else" in (await skipped.reply()).content
    swapped = await standin.slash("present swap", {"member": people.carol.id}, guild=guild,
                                  user=people.alice)
    assert "swapped places" in (await swapped.reply()).content
    refused = await standin.slash("present swap", {"member": people.bob.id}, guild=guild,
                                  user=people.alice)
    assert "must be in the rotation" in (await refused.reply()).content
    left = await standin.slash("present leave", guild=guild, user=people.carol)
    assert "left" in (await left.reply()).content
    (announcement, *_) = [m for m in _posts(standin, guild.channel("general")) if m.embeds]
    assert announcement.pings.users == frozenset({people.alice.id})


async def test_group_timezone_and_reminders_settings(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People, paper: Paper) -> None:
    zone = await standin.slash("group timezone", {"timezone": "Europe/Berlin"}, guild=guild,
                               user=people.bob)
    assert "Europe/Berlin" in (await zone.reply()).content
    reminders = await standin.slash("group reminders", {"before": "2h, 15m"}, guild=guild,
                                    user=people.bob)
    assert "go out 2 hours and 15 minutes before" in (await reminders.reply()).content
    several = await standin.slash("group reminders", {"before": "24h 1h 90 1d"}, guild=guild,
                                  user=people.bob)
    assert ((await several.reply()).content
            == "Reminders go out 1 day, 90 minutes and 1 hour before each session.")
    bad = await standin.slash("group reminders", {"before": "soon"}, guild=guild,
                              user=people.bob)
    assert "such as 24h 1h" in (await bad.reply()).content
    reply = await _schedule(standin, guild, people, paper, when="2026-12-03 18:00")
    assert "2026-12-03 18:00 Europe/Berlin" in reply
    (event,) = standin.scheduled_events(guild)
    assert datetime.fromisoformat(event["scheduled_start_time"]) == datetime.fromisoformat(
        "2026-12-03T17:00:00+00:00")
    choices = await standin.autocomplete("session cancel", {"session": ""}, focused="session",
                                         guild=guild, user=people.bob)
    assert choices[0]["value"] == 1 and "2026-12-03 18:00" in choices[0]["name"]
    papers = await standin.autocomplete("session schedule", {"paper": "grokking",
                                                             "when": "2"}, focused="paper",
                                        guild=guild, user=people.bob)
    assert papers


async def test_a_discussed_paper_leaves_the_queue(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People, paper: Paper) -> None:
    await suggest(standin, guild, people.alice, paper.id)
    assert [item.paper_id for item in await bot.services.queue.items(guild.id)] == [paper.id]
    await _schedule(standin, guild, people, paper)
    done = await standin.slash("session done", {"session": 1, "notes": "good"}, guild=guild,
                               user=people.bob)
    assert "recorded as discussed" in (await done.reply()).content
    assert await bot.services.queue.items(guild.id) == []


async def test_organiser_role_without_a_role_shows_it_and_clears_only_when_asked(
        bot: PaperclubBot, standin: StandIn, guild: Guild, people: People,
        organisers: Role) -> None:
    async def say(values: dict[str, object]) -> str:
        handle = await standin.slash("group organiser-role", values,  # type: ignore[arg-type]
                                     guild=guild, user=people.bob)
        return (await handle.reply()).content

    await say({"role": organisers.id})
    shown = await say({})
    assert f"<@&{organisers.id}>" in shown and "clear:true" in shown
    assert (await bot.services.group.organisers(guild.id)).role_id == organisers.id
    assert "not both" in await say({"role": organisers.id, "clear": True})
    assert "Manage Server only" in await say({"clear": True})
    assert (await bot.services.group.organisers(guild.id)).role_id is None
