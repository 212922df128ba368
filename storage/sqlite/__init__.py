"""The SQLite backend: connections, transactions, migrations and its errors."""
