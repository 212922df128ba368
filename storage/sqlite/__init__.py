"""The SQLite backend: connections, transactions, migrations and its errors (`storage.db`
runs the stores on it)."""
