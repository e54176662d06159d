"""tavola: an event-sourced platform for online card and tile games.

Layout: ``tavola.rules`` is the pure core (the game interface, kits, fair dealing);
``tavola.games`` holds one package per game; ``tavola.eventlog``, ``tavola.bus`` and
``tavola.protocol`` are adapters; ``tavola.infra`` starts local Postgres/NATS.
"""
