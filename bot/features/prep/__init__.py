"""Prep sheets: discussion questions for a session's paper, posted once a day before (opt-in)."""
