"""The sessions feature."""
