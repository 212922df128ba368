"""The export feature."""
