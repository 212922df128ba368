"""The web pages' links, per backend."""
