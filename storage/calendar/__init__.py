"""The calendar feed's links, per backend."""
