"""The object graphs of what runs without Discord (the command line's catalog, export, calendar
and corrections commands, and the web page's own process), one module per command family: each
opens the configured database and builds only what its command uses, so a command imports
neither discord.py nor another family's libraries (`bot.wiring` builds the bot, from the same
`open_configured`)."""
