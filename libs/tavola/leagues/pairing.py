"""Pairing teams (Spades, dominoes with fixed partners) and single players (dominoes one
against one): Swiss or a Berger round robin.

Swiss by score groups, found as a minimum-cost perfect matching (networkx): the cost of
a pairing is the squared gap of the two teams' standings points plus a penalty for a
rematch far above any sum of gaps, so no rematch happens that another pairing avoids and
teams meet within their score group where they can. An odd number of teams gives one
team a bye: the lowest in the standings without one (at most one each; a team keeps its
byes when it leaves and registers again, since a team is its two accounts). A bye scores
a win with balance 0. Node labels are positions in the round's seeded shuffle, so the
matching (and so the pairing) is a function of the seed and the league so far.

A table seats the pairing's two teams as (A first, B first, A second, B second), or two
single players as (A, B); which is A is drawn from the seed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import networkx as nx

from tavola.leagues.chance import Draw
from tavola.leagues.seating import Pair, Seating, pair
from tavola.leagues.state import members

REMATCH = 10**7


def bye_for(teams: Sequence[str], ranking: Sequence[str], byes: Mapping[str, int]) -> str:
    """The team that sits out: the lowest ranked of those with the fewest byes."""
    place = {team: i for i, team in enumerate(ranking)}
    fewest = min(byes.get(t, 0) for t in teams)
    candidates = [t for t in teams if byes.get(t, 0) == fewest]
    return max(candidates, key=lambda t: (place.get(t, len(place)), t))


def swiss(
    teams: Sequence[str],
    draw: Draw,
    points: Mapping[str, int],
    met: Mapping[Pair, int],
    ranking: Sequence[str],
    byes_so_far: Mapping[str, int],
) -> Seating:
    """A Swiss round for ``teams`` (``points``: standings points, in whole units)."""
    order = draw.shuffled(sorted(teams))
    byes: tuple[str, ...] = ()
    if len(order) % 2:
        bye = bye_for(order, ranking, byes_so_far)
        byes = (bye,)
        order = [t for t in order if t != bye]
    graph = nx.Graph()
    graph.add_nodes_from(range(len(order)))
    for i, a in enumerate(order):
        for j in range(i + 1, len(order)):
            b = order[j]
            gap = points.get(a, 0) - points.get(b, 0)
            graph.add_edge(i, j, weight=gap * gap + REMATCH * met.get(pair(a, b), 0))
    matched = sorted(tuple(sorted(edge)) for edge in nx.min_weight_matching(graph))
    cost = sum(graph.edges[i, j]["weight"] for i, j in matched)
    tables = tuple(table(order[i], order[j], draw) for i, j in matched)
    return Seating(tables, byes, cost)


def round_robin(teams: Sequence[str], order: Sequence[str], index: int, draw: Draw) -> Seating:
    """Round ``index`` (0-based) of a Berger round robin over ``order`` (the season's draw
    of the teams; teams not in it join at its end). An odd number adds a bye."""
    present = set(teams)
    ring: list[str | None] = [t for t in order if t in present]
    ring += sorted(present - set(ring))
    if len(ring) % 2:
        ring.append(None)
    n = len(ring)
    if n == 0:
        return Seating((), (), 0)
    fixed, rest = ring[-1], ring[:-1]
    shift = index % max(1, n - 1)
    rotated = rest[shift:] + rest[:shift]
    circle = [*rotated, fixed]
    tables, byes = [], []
    for i in range(n // 2):
        a, b = circle[i], circle[n - 1 - i]
        if a is None or b is None:
            byes.append(a or b or "")
            continue
        tables.append(table(a, b, draw))
    return Seating(tuple(tables), tuple(sorted(b for b in byes if b)), 0)


def table(a: str, b: str, draw: Draw) -> tuple[str, ...]:
    first, second = (a, b) if draw.uniform(2) == 0 else (b, a)
    x, y = members(first), members(second)
    if len(x) == 1:  # one against one
        return (x[0], y[0])
    return (x[0], y[0], x[1], y[1])
