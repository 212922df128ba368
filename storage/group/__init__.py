"""Stores of group: SQLite and PostgreSQL side by side."""
