"""The reading lists' and discussion history's stores, written once for both backends."""
