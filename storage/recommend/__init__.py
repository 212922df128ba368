"""Recommendation signals: the 👍 / 👎 table and a read across the other features' tables."""
