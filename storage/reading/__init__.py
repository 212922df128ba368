"""Stores of reading: SQLite and PostgreSQL side by side."""
