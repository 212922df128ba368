"""Secret per-server links (the calendar feed's, the web page's), written once for both backends."""
