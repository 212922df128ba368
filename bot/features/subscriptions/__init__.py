"""The subscriptions feature."""
