"""AI summaries of papers in the reader's language, made in the background (opt-in)."""
