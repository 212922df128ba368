"""The message catalogue's data, one module per feature; `bot.core.messages` merges them."""
