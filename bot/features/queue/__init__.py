"""The queue feature."""
