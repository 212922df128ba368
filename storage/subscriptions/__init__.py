"""The subscription and similar-paper stores, written once for both backends."""
