"""The reading group's settings and rotation store, written once for both backends."""
