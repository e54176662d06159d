"""The table aggregate (pure): created, seats taken, match started. Streams ``table-<id>``."""
