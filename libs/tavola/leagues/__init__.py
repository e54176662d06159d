"""Leagues (pure): the league aggregate, seating, pairing, standings, ratings' inputs and
statistics. Streams ``league-<id>``; type names ``league.<Name>``.

Everything here is deterministic and free of I/O, clocks and global randomness: chance
enters only as a round's committed seed (``chance.RoundChance``), time only as numbers the
caller passes. The services (``services/lobby/league_*``, ``services/scoring``) are the
adapters; ``tavola.leagues.simulation`` is a test harness (a gRPC client), not part of it.
See ``docs/leagues.md``.
"""
