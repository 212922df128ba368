"""Stores of subscriptions: SQLite and PostgreSQL side by side."""
