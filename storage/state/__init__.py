"""The state store, written once for both backends."""
