"""The digest store, written once for both backends."""
