"""The sentence-encoder vectors kept with the catalog."""
