"""The votes store, written once for both backends."""
