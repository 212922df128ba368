"""Local mode: the real bot against the local Discord stand-in, driven from the terminal.

Type slash commands as in Discord (`/paper grokking`, `/paper query:岭回归 private:true`,
`/digest set channel:#papers time:09:00 timezone:Europe/Berlin`, `/digest now`); values are
sent as typed, quotes and backslashes included (a parser of times or a zone reads a value in
quotes, `before:"24h 1h"`), and a choice can be typed as its name in any case, or the name's
head (`/group adding who:Everyone`, `who:Curators`); members and roles are typed as ids or
`<@id>` (`<@&id>` for a role); end a line with `?` to see autocomplete (`/paper gro?`,
`/session cancel session:?`). Buttons and menus: `controls` lists those of the last messages,
numbered; `press N` (or `press 👍`, the newest so labelled) clicks a button, `choose N OPTION`
picks in a menu (by the option's number or name; several with commas); a form the bot opens is
then filled one field a line (`-` leaves a field empty, `=` keeps its text, `cancel` closes
it); link buttons open in a browser, not here. `next`, `prev`, `open N` and `back` drive the
last result list; polls show their answers and counts. Times are shown in the server's time
zone (`/group timezone`'s, else the paper of the day's, else UTC), named; `locale zh-CN` (or
zh-TW, en-US) switches your Discord language; what the bot posts in channels by itself is shown
as `[#channel]` when it happens, and what it sends you privately as `[DM from paperclub]`;
`say TEXT` posts TEXT in #general as you, and `add` is Apps -> "Add paper to paperclub" on what
you said last (try
`say read https://arxiv.org/abs/2401.01234`, then `add`); `help` and `quit` do what they say.
You are the only member: an admin of a server with #general and #papers, and the bot's owner
(so `/catalog reload` works); there are no other people to vote, react or DM, and no voice,
reactions or scheduled events to see. arXiv is a local stand-in too, serving its fixtures:
nothing goes online. The server, channels and you keep their ids from run to run, so
subscriptions and the paper of the day carry over while the database is kept.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, tzinfo
from typing import TYPE_CHECKING

import discord
from pydantic import HttpUrl

from bot.cli.local_controls import KEPT_MESSAGES, ControlVerbs, FormFill, controls, listing
from bot.cli.local_terminal import list_numbers, quiet_logging, read_line, what_to_type
from bot.cli.local_web import local_web
from bot.client.bot import PaperclubBot
from bot.features.catalog.cog import ADD_MENU
from bot.settings import Settings
from bot.shared.lang import Lang
from bot.shared.messages import t
from bot.wiring import build_bot

if TYPE_CHECKING:  # the stand-in is imported only when local mode runs (see local_session)
    from discord_standin import (
        Channel,
        Guild,
        InteractionHandle,
        Message,
        SlashLine,
        StandIn,
        User,
    )

DEMO_SCRIPT = (
    "/paper grokking",
    "controls",
    "press 👍",
    "/paper 岭回归",
    "/paper 从数据中找出描述系统的方程",
    "/paper gro?",
    "/paper grokkng",
    "/paper venue:workshop",
    "next",
    "open 6",
    "back",
    "next",
    "/paper query:蒸馏 private:true",
    "/catalog stats",
    "/subscribe topic:differential equations delivery:mention",
    "/digest set channel:#papers time:09:00 timezone:europe/berlin",
    "/digest now",
    "/digest status",
    "/suggest paper:grokking note:read before the session",
    "/suggest paper:蒸馏",
    "/queue show",
    "/vote start from:2",
    "controls",
    "press 19",
    "/present volunteer",
    "/export what:queue format:markdown",
    "say Worth a read: https://arxiv.org/abs/2401.01234 (and arXiv:2401.1 is a typo)",
    "add",
    "/paper sparse circuits",
)
HELP = __doc__ or ""
LOCAL_GUILD_ID = 1_200_000_000_000_000_001
"""Fixed, so the local server's paper-of-the-day order (and so the demo script) is stable."""
LOCAL_CHANNEL_IDS = {"general": 1_200_000_000_000_000_002, "papers": 1_200_000_000_000_000_003}
LOCAL_ROLE_ID = 1_200_000_000_000_000_004
LOCAL_USER_ID = 1_200_000_000_000_000_010
"""Fixed like the server's, so the next run on the same database finds the same rows."""
ANSWER_TIMEOUT = 15.0
BACKGROUND_WAIT = 5.0
WATCH_EVERY = 0.25
MEANING_WAIT = 120.0
"""How long local mode waits at start for search by meaning (the bundled encoder loads in
~10 s, and the catalog is embedded in a worker process)."""
BUTTONS = {"next": frozenset({"▶"}), "prev": frozenset({"◀"}),
           "back": frozenset(t(lang, "results.back") for lang in Lang)}
"""The buttons `next`, `prev` and `back` click (a list's language is its searcher's)."""

Write = Callable[[str], None]


@dataclass
class LocalSession(ControlVerbs):
    """One person ("you") in a one-channel server, talking to paperclub."""

    standin: StandIn
    bot: PaperclubBot
    guild: Guild
    you: User
    write: Write
    locale: str = "en-US"
    echo: bool = True
    last: Message | None = field(default=None)
    said: Message | None = field(default=None)
    """What you last posted with `say` (what `add` acts on)."""
    shown: set[int] = field(default_factory=set)
    busy: asyncio.Lock = field(default_factory=asyncio.Lock)
    zone: tzinfo = UTC
    """The server's time zone (see `_follow_zone`): Discord timestamps are shown in it."""
    recent: list[int] = field(default_factory=list)
    """The last messages with buttons or menus (ids, oldest first): what `controls` lists."""
    form: FormFill | None = None
    """The form the bot opened, while its fields are being typed."""
    answered: tuple[int, int] | None = None
    """The last answer shown, and its edits then: edited after, it is shown again."""

    async def _follow_zone(self) -> None:
        """Show times as a member whose Discord runs in the server's zone sees them."""
        self.zone = await self.bot.services.group.zone(self.guild.id)

    def _new_posts(self) -> None:
        """Print what the bot posted by itself (the paper of the day, threads, DMs to you)."""
        for channel in [*self.guild.channels, *self.guild.threads]:
            for message in self._unseen(channel):
                self.write(f"[#{channel.name}] " + self._render(message))
                self._remember(message)
                if message.thread is not None:
                    self.write(f"[thread opened: #{message.thread.name}]")
        bot_name = self.standin.bot_user.name
        for message in self._unseen(self.standin.dm_channel(self.you)):
            head, _, body = self._render(message).partition("\n")
            self.write(f"[DM from {bot_name}] " + (body if head == bot_name else head))

    def _unseen(self, channel: Channel) -> list[Message]:
        fresh = [m for m in self.standin.messages(channel)
                 if m.id not in self.shown and m.webhook_id is None]
        self.shown.update(m.id for m in fresh)
        return fresh

    async def web_link(self) -> str:
        """The local server's page link (made on first use)."""
        return await self.bot.services.web.link(self.guild.id) or "(off: /group web)"

    async def watch(self) -> None:
        """Print the bot's own posts as they happen, between commands (runs until cancelled)."""
        while True:
            await asyncio.sleep(WATCH_EVERY)
            async with self.busy:
                await self._follow_zone()
                self._new_posts()

    def _render(self, message: Message) -> str:
        from discord_standin import render_message  # noqa: PLC0415 - local mode only

        return render_message(message, author=self.standin.bot_user.name,
                              names=self.standin.names(), zone=self.zone, locale=self.locale)

    def _parse(self, line: str, *, complete: bool = False) -> SlashLine:
        from discord_standin import parse_slash  # noqa: PLC0415 - local mode only

        return parse_slash(line, self.standin.commands(),
                           channels={c.name: c.id for c in self.guild.channels},
                           complete=complete)

    def _show(self, message: Message | None) -> None:
        if message is None:
            self.write("(no answer)")
            return
        self.write(self._render(message))
        self.answered = (message.id, message.edits)
        if any(c.get("type") in {2, 3} and c.get("custom_id") for c in message.walk_components()):
            self.last = message
        self._remember(message)

    def _remember(self, message: Message) -> None:
        """Keep `message` among the last ones `controls` lists, if it has any."""
        if controls([message]):
            self.recent = [i for i in self.recent if i != message.id][1 - KEPT_MESSAGES:]
            self.recent.append(message.id)

    async def _answer(self, handle: InteractionHandle) -> None:
        callback = await handle.response(timeout=ANSWER_TIMEOUT)
        await self._follow_zone()  # the command may have changed it
        if callback.type == 9 and handle.modal is not None:
            self.form = FormFill(handle, handle.modal)
            self.write(self.form.prompt())
        elif callback.type == 5:
            self._show(await handle.followup(timeout=ANSWER_TIMEOUT))
        elif callback.type in {6, 7}:
            await self.standin.settle()
            self._show(self.standin.message(handle.source.id) if handle.source else None)
        else:
            self._show(handle.message)

    async def command(self, line: str) -> bool:
        """Run one typed line; False when the person asked to quit."""
        line = line.strip()
        if not line:
            return True
        async with self.busy:
            return await self._command(line)

    async def _command(self, line: str) -> bool:
        if self.echo:
            self.write(f"\n> {line}")
        word, _, rest = line.partition(" ")
        try:
            if word in {"quit", "exit"}:
                return False
            if self.form is not None:
                await self._fill(line)
            elif word == "help":
                self.write(HELP)
            elif word == "locale":
                self.locale = rest.strip() or "en-US"
                self.write(f"Your Discord language is now {self.locale}.")
            elif word in {"next", "prev", "back"}:
                await self._click(word)
            elif word == "say":
                if not rest.strip():
                    raise ValueError("say what? such as: say https://arxiv.org/abs/2401.01234")
                self.said = await self.standin.say(self.guild.channel("general"), self.you,
                                                   rest.strip())
                self.shown.add(self.said.id)  # yours: not one of the bot's posts
                self.write(f"[#general] {self.you.name}: {rest.strip()}")
            elif word == "add":
                await self._add_paper()
            elif word in {"controls", "buttons"}:
                self.write(listing(self._controls()))
            elif word in {"press", "choose"}:
                await self._use(word, rest)
            elif word == "open":
                if not (rest.strip() or "1").isdigit():
                    raise ValueError("open takes a result number, such as open 2")
                await self._open(int(rest.strip() or "1"))
            elif line.startswith("/") and line.endswith("?"):
                await self._autocomplete(line[:-1])
            elif line.startswith("/"):
                parsed = self._parse(line)
                handle = await self.standin.slash(parsed.command, parsed.options,
                                                  guild=self.guild, user=self.you,
                                                  locale=self.locale)
                await self._answer(handle)
                await self._settle()  # DMs the command set off
            else:
                self.write("Type a slash command such as /paper grokking, or help.")
        except (LookupError, ValueError, TimeoutError) as exc:
            self.write(f"! {exc}")
        return True

    async def _settle(self) -> None:
        """Wait for what the last action set off, and print the bot's new posts."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.bot.background_done(), BACKGROUND_WAIT)
        self._updated()
        self._new_posts()

    def _updated(self) -> None:
        """The last answer again if the bot edited it since it was shown (`/paper` adds the
        papers close in meaning to its first answer in an edit), marked as updated."""
        if self.answered is None:
            return
        message = self.standin.message(self.answered[0])
        if message.edits > self.answered[1] and not message.deleted:
            self.write("(updated)")
            self._show(message)

    async def _add_paper(self) -> None:
        """Apps -> "Add paper to paperclub" on what you said last."""
        if self.said is None:
            raise LookupError("say something with an arXiv link first, then add")
        handle = await self.standin.message_command(ADD_MENU, self.said, user=self.you,
                                                    locale=self.locale)
        await self._answer(handle)
        await self._settle()  # subscribers' DMs about the new paper

    async def _autocomplete(self, line: str) -> None:
        """What Discord offers for the option the line ends in: its fixed choices, or the
        bot's autocomplete; options with neither get a hint (Discord would not ask the bot)."""
        parsed = self._parse(line, complete=True)
        option = parsed.option(parsed.last)
        if option is None:
            raise ValueError(f"/{parsed.command} has no option to complete; "
                             "end the line with name:value?")
        name = str(option["name"])
        typed = str(parsed.options.get(name, ""))
        if option.get("choices"):
            choices = [c for c in option["choices"]
                       if typed.casefold() in str(c["name"]).casefold()]
        elif option.get("autocomplete"):
            choices = await self.standin.autocomplete(
                parsed.command, {**parsed.options, name: typed}, focused=name,
                guild=self.guild, user=self.you, locale=self.locale)
        else:
            raise ValueError(f"/{parsed.command} {name}: no suggestions, type "
                             + what_to_type(option))
        self.write("\n".join(f"  {c['name']}   [{c['value']}]" for c in choices) or "  (none)")

    async def _click(self, word: str) -> None:
        """Click the button `next`, `prev` or `back` stands for on the last result list."""
        if self.last is None:
            raise LookupError("no result list to page; search with /paper first")
        message = self.standin.message(self.last.id)
        labels = {str(c.get("label")) for c in message.walk_components() if c.get("type") == 2}
        if not labels & (BUTTONS["next"] | BUTTONS["prev"] | BUTTONS["back"]):  # a lone card
            raise LookupError("no result list to page; search with /paper first")
        button = next((c for c in message.walk_components()
                       if c.get("type") == 2 and c.get("label") in BUTTONS[word]), None)
        if button is None or button.get("disabled"):
            raise LookupError(f"no active {word} button on the last result list")
        await self._answer(await self.standin.click(message, str(button["custom_id"]),
                                                    user=self.you, locale=self.locale))

    async def _open(self, number: int) -> None:
        """Pick result `number` (as the list numbers it) in the last list's menu."""
        if self.last is None:
            raise LookupError("no result list; search with /paper first")
        message = self.standin.message(self.last.id)
        menu = next((c for c in message.walk_components() if c.get("type") == 3), None)
        if menu is None:
            raise LookupError("the last message has no list to open from")
        values = [str(o["value"]) for o in menu["options"]]
        by_number = dict(zip(list_numbers(message, len(values)), values, strict=True))
        if number not in by_number:
            raise LookupError(f"open one of {', '.join(map(str, by_number))}")
        await self._answer(await self.standin.select(message, str(menu["custom_id"]),
                                                     [by_number[number]], user=self.you))


async def meaning_ready(bot: PaperclubBot, write: Write) -> None:
    """Wait (a bounded while) for search by meaning, when it is on, to answer queries."""
    keeper = bot.services.search.meaning
    if keeper is None or keeper.answers():
        return
    write("Search by meaning is getting ready…")
    try:
        ready = await asyncio.wait_for(keeper.ready(), MEANING_WAIT)
    except TimeoutError:
        write(f"Search by meaning is not ready after {MEANING_WAIT:.0f} s: /paper answers by "
              "words until it is.")
        return
    if not ready:
        write("Search by meaning could not start: /paper answers by words.")


@asynccontextmanager
async def local_session(settings: Settings, write: Write, *, meaning: bool | None = None
                        ) -> AsyncIterator[LocalSession]:
    """Start the stand-in and the real bot (syncing its commands there); stop both after.
    `meaning`: search by meaning on or off whatever the settings say (None: as they say)."""
    from arxiv_standin import ArxivStandIn  # noqa: PLC0415 - local mode only
    from discord_standin import (  # noqa: PLC0415 - local mode only
        Channel,
        Guild,
        Member,
        Role,
        StandIn,
        User,
    )

    quiet_logging()
    you = User("you", id=LOCAL_USER_ID)
    admins = Role("admins", permissions=discord.Permissions(manage_guild=True).value,
                  id=LOCAL_ROLE_ID)
    guild = Guild("Reading Group",
                  channels=[Channel(name, id=i) for name, i in LOCAL_CHANNEL_IDS.items()],
                  members=[Member(you, roles=[admins])], roles=[admins], id=LOCAL_GUILD_ID)
    async with ArxivStandIn() as arxiv, StandIn(guilds=[guild]) as standin:
        local_settings = settings.model_copy(update={
            "discord": settings.discord.model_copy(
                update={"sync": "global", "owner_ids": (*settings.discord.owner_ids, you.id)}),
            "arxiv": settings.arxiv.model_copy(update={"api_base": HttpUrl(arxiv.api_base)}),
            "web": local_web(settings),
            "search": settings.search.model_copy(update={} if meaning is None
                                                 else {"by_meaning": meaning})})
        # A new stand-in knows no commands: sync even if the database says nothing changed.
        bot = await build_bot(local_settings, guild_ready_timeout=0.05, force_sync=True,
                              verify=True)
        await standin.start_bot(bot)
        session = LocalSession(standin, bot, guild, you, write)
        watcher = asyncio.create_task(session.watch(), name="local-mode watcher")
        try:
            yield session
        finally:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher
            await standin.stop_bot(bot)


async def run_script(settings: Settings, lines: Iterable[str], write: Write, *,
                     meaning: bool | None = None) -> None:
    """Run lines as if typed, printing a transcript (`meaning`: as `local_session`'s)."""
    async with local_session(settings, write, meaning=meaning) as session:
        write(f"paperclub is connected to the local Discord stand-in at {session.standin.url}; "
              f"{await session.bot.services.catalog.count()} papers in the catalog.")
        write(f"The group's web page: {await session.web_link()}")
        await meaning_ready(session.bot, write)
        for line in lines:
            if not await session.command(line):
                break


async def run_interactive(settings: Settings, write: Write, *,
                          meaning: bool | None = None) -> None:
    """A prompt loop until `quit` or end of input (`meaning`: as `local_session`'s)."""
    async with local_session(settings, write, meaning=meaning) as session:
        session.echo = False
        write(f"paperclub (local mode) — {await session.bot.services.catalog.count()} papers. "
              "Try /paper grokking, controls, press 👍, /paper gro?, help, quit.")
        write(f"The group's web page (open it in a browser): {await session.web_link()}")
        await meaning_ready(session.bot, write)
        while True:
            try:
                line = await read_line("paperclub> ")
            except EOFError:
                break
            if not await session.command(line):
                break
