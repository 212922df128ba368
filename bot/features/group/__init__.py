"""The group feature."""
