"""A simulated league season over the public gRPC API (not part of the pure library).

Bot accounts stand in for players: each is a third-party client with its own token that
registers itself, checks in by ``SitDown`` when its table opens and plays its seat with a
simple legal-move policy (a seeded random legal action, on the events its stream shows).
Used by the end-to-end test, ``make season`` and ``make bench``.
"""
