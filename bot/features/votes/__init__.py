"""The votes feature."""
