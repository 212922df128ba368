"""paperclub: a Discord bot for paper reading groups."""

__version__ = "0.1.0"
