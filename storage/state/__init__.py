"""Stores of state: SQLite and PostgreSQL side by side."""
