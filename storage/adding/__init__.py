"""Stores of adding: SQLite and PostgreSQL side by side."""
