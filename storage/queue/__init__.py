"""Stores of queue: SQLite and PostgreSQL side by side."""
