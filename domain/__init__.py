"""The shared domain below storage and the bot: paper and record types, the pure text
rules the index shares, reason codes."""
