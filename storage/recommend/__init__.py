"""Recommendation signals and features: one store each, written once for both backends."""
