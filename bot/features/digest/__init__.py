"""The digest feature."""
