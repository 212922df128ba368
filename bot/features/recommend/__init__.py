"""Recommendations: what the group should read next, from its own signals (issue 22)."""
