"""Search by meaning: a bundled multilingual sentence encoder, its vectors kept with the
catalog, and the nearest papers to a description."""
