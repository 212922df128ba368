"""The presenters feature."""
