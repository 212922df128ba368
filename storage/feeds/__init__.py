"""Stores of feeds: SQLite and PostgreSQL side by side."""
