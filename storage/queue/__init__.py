"""The suggestion queue's store, written once for both backends."""
