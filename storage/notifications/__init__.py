"""The notifications' store, written once over `storage.db` (`store`), and their tables."""
