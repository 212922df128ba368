"""Stores of digest: SQLite and PostgreSQL side by side."""
