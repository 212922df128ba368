"""Discord presentation: the one paper-card formatter and the result views."""
