"""Stores of sessions: SQLite and PostgreSQL side by side."""
