"""Use cases that join the pure core to storage; no Discord here either."""
