"""The bot under test: a small real discord.py bot with one command per stand-in feature."""

from __future__ import annotations

import asyncio
import io
from datetime import timedelta

import discord
from discord import app_commands
from discord.ext import commands

TOPICS = ["grokking", "graph networks", "attention is all you need", "diffusion"]


class CounterView(discord.ui.View):
    """A button that counts clicks and a select menu, both editing the message."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.count = 0

    @discord.ui.button(label="+1", custom_id="counter:inc", style=discord.ButtonStyle.primary)
    async def increment(
        self, interaction: discord.Interaction, _: discord.ui.Button[CounterView]
    ) -> None:
        self.count += 1
        await interaction.response.edit_message(content=f"count: {self.count}", view=self)

    @discord.ui.select(
        custom_id="counter:pick",
        placeholder="pick one",
        options=[discord.SelectOption(label=x, value=x) for x in ("a", "b", "c")],
    )
    async def pick(
        self, interaction: discord.Interaction, select: discord.ui.Select[CounterView]
    ) -> None:
        await interaction.response.edit_message(content=f"picked: {select.values[0]}", view=self)


class Feedback(discord.ui.Modal, title="Feedback"):
    """A one-field modal."""

    text: discord.ui.TextInput[Feedback] = discord.ui.TextInput(
        label="Your feedback", custom_id="text"
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"thanks: {self.text.value}", ephemeral=True)


class TestBot(commands.Bot):
    """The bot under test: one command per stand-in capability."""

    __test__ = False

    def __init__(self, guild_id: int | None = None) -> None:
        super().__init__(
            command_prefix="!",
            intents=discord.Intents.default(),
            guild_ready_timeout=0.05,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.errors: list[BaseException] = []
        self.guild_id = guild_id

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Skip discord.py's 5 s pause before a re-IDENTIFY (Discord's identify limit)."""

    async def setup_hook(self) -> None:
        tree = self.tree

        @tree.error
        async def record_error(_: discord.Interaction, error: app_commands.AppCommandError) -> None:
            self.errors.append(error.__cause__ or error)

        @tree.command(description="Echo text back")
        async def echo(interaction: discord.Interaction, text: str) -> None:
            await interaction.response.send_message(f"echo: {text}")

        @echo.autocomplete("text")
        async def echo_complete(
            _: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=t, value=t) for t in TOPICS if t.startswith(current)]

        @tree.command(description="A counter with a button")
        async def counter(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("count: 0", view=CounterView())

        @tree.command(description="Post to the channel and open a thread")
        @app_commands.guild_only()
        async def announce(interaction: discord.Interaction, title: str) -> None:
            channel = interaction.channel
            assert isinstance(channel, discord.TextChannel)
            try:
                message = await channel.send(f"New paper: {title}")
                thread = await message.create_thread(name=title[:100])
                await thread.send("Discuss here")
            except discord.HTTPException as error:
                self.errors.append(error)
                await interaction.response.send_message(f"failed: {error.code}", ephemeral=True)
                return
            await interaction.response.send_message(f"posted {message.id}", ephemeral=True)

        @tree.command(description="Answer with a file of some bytes")
        async def upload(interaction: discord.Interaction, size: int, followup: bool = False,
                         ephemeral: bool = False) -> None:
            file = discord.File(io.BytesIO(b"x" * size), filename="export.md")
            try:
                if followup:
                    await interaction.response.defer(ephemeral=ephemeral)
                    await interaction.followup.send("here", file=file, ephemeral=ephemeral)
                else:
                    await interaction.response.send_message("here", file=file,
                                                            ephemeral=ephemeral)
            except discord.HTTPException as error:
                self.errors.append(error)

        @tree.command(description="Defer, then follow up with a poll")
        async def ask(interaction: discord.Interaction, private: bool = False,
                      remove_placeholder: bool = False) -> None:
            await interaction.response.defer(ephemeral=private, thinking=True)
            if remove_placeholder:
                await interaction.delete_original_response()
            poll = discord.Poll("Which paper?", timedelta(hours=1))
            poll.add_answer(text="this one").add_answer(text="that one")
            await interaction.followup.send("vote", poll=poll, ephemeral=not private)

        @tree.command(description="Defer, then follow up")
        async def slow(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await asyncio.sleep(0)
            await interaction.followup.send("done thinking")

        @tree.command(description="DM a member")
        async def poke(interaction: discord.Interaction, member: discord.User) -> None:
            try:
                await member.send("poke!")
            except discord.Forbidden as error:
                self.errors.append(error)
                await interaction.response.send_message(f"cannot DM {member.name}", ephemeral=True)
                return
            await interaction.response.send_message(f"poked {member.name}", ephemeral=True)

        @tree.command(description="Where am I?")
        async def whereami(interaction: discord.Interaction) -> None:
            where = "a DM" if interaction.guild is None else interaction.guild.name
            locale = interaction.locale.value
            await interaction.response.send_message(
                f"{interaction.user.name} is in {where} ({locale})"
            )

        @tree.command(description="Admins only")
        @app_commands.guild_only()
        @app_commands.default_permissions(manage_guild=True)
        async def settings(interaction: discord.Interaction) -> None:
            allowed = interaction.permissions.manage_guild
            await interaction.response.send_message(
                "settings" if allowed else "not allowed", ephemeral=True
            )

        @tree.command(description="Leave feedback")
        async def feedback(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(Feedback())

        paper = app_commands.Group(name="paper", description="Papers")

        @paper.command(description="Search papers")
        async def search(interaction: discord.Interaction, query: str, limit: int = 3) -> None:
            await interaction.response.send_message(f"searching {query!r} (limit {limit})")

        @tree.command(description="Reply, edit, follow up, edit and delete the followup")
        async def steps(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("step 1")
            await interaction.edit_original_response(content="step 2")
            extra = await interaction.followup.send("extra", wait=True)
            await extra.edit(content="extra edited")
            await extra.delete()

        tree.add_command(paper)
        await tree.sync()
        if self.guild_id is not None:
            club = discord.Object(self.guild_id)

            @tree.command(description="Only in the club guild", guild=club)
            async def club_only(interaction: discord.Interaction) -> None:
                await interaction.response.send_message("club business")

            await tree.sync(guild=club)
