"""The reading feature."""
