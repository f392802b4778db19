"""builders/sources."""
