"""The scoring service: final standings per match and totals per player, kept in Postgres.

It consumes committed events from the bus (queue group ``scoring``) and applies each
``match.MatchEnded`` effectively once: the event id is recorded in the same transaction as
its effects. Everything it holds can be thrown away and rebuilt from the log (``rebuild``).
"""
