"""The feeds store, written once for both backends."""
