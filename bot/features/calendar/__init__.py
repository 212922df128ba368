"""The calendar feature: a server's sessions as an iCalendar (RFC 5545) feed."""
