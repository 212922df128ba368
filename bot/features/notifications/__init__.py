"""The notifications feature."""
