"""The papers feature."""
