"""The ``tavola`` command: up, games, demo, play (and matches), replay, verify, export."""
