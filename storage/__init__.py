"""Persistence: the only package with SQL. Nothing here imports discord or `bot`: the store
protocols live beside their features (`bot/features/<feature>/store.py`), and each
`storage/<feature>/store.py` implements one, once, over the one database API (`storage.db`);
only the search index (`storage/papers/`) keeps SQL of each backend's own."""
