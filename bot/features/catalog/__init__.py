"""The catalog feature."""
