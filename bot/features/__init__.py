"""One folder per feature: its pure rules, its service, the protocol of its store, its cog,
its views and its message keys."""
