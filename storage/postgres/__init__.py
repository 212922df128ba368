"""The PostgreSQL backend: its pool, transactions, migrations and errors (`storage.db` runs
the stores on it)."""
