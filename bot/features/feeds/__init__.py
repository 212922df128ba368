"""The feeds feature."""
