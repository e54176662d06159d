"""The ``tavola`` command: up, demo, play, replay, verify."""
