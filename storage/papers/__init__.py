"""Stores of papers: SQLite and PostgreSQL side by side."""
