"""The adding feature."""
