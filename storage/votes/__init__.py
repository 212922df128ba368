"""Stores of votes: SQLite and PostgreSQL side by side."""
