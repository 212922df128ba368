"""The add-policy store, written once for both backends."""
