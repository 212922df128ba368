"""The sessions store and its reminder ledger, written once for both backends."""
