"""Stores of notifications: SQLite and PostgreSQL side by side."""
