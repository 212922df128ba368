"""The feature cogs the bot loads, by module name (each module's `setup(bot)` adds its cog)."""

EXTENSIONS = (
    "bot.features.papers.cog",
    "bot.features.catalog.cog",
    "bot.features.digest.cog",
    "bot.features.subscriptions.cog",
    "bot.features.queue.cog",
    "bot.features.votes.cog",
    "bot.features.reading.bookmarks_cog",
    "bot.features.group.cog",
    "bot.features.sessions.cog",
    "bot.features.presenters.cog",
    "bot.features.reading.history_cog",
    "bot.features.feeds.cog",
    "bot.features.recommend.cog",
    "bot.features.calendar.cog",
    "bot.features.corrections.cog",
    "bot.features.web.cog",
)
"""In the order the commands were added before they were extensions (the sync payload's)."""
