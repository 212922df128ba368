"""Outside sources of papers (arXiv): clients the services reach through ports."""
