"""Each server's read-only web page: reading list, sessions, paper of the day, search."""
