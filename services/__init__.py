"""tavola services: one package per process (lobby, engine, bots, scoring)."""
