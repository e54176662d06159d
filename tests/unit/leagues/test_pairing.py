"""Pairing teams: Swiss without avoidable rematches, one bye at most, Berger round robins."""

from __future__ import annotations

import itertools
import random

from tavola.leagues.chance import Draw
from tavola.leagues.pairing import round_robin, swiss
from tavola.leagues.seating import pair
from tavola.leagues.state import team_key

TEAMS = [team_key(f"a{i:02d}", f"b{i:02d}") for i in range(11)]


def opponents(table: tuple[str, ...]) -> tuple[str, str]:
    return team_key(table[0], table[2]), team_key(table[1], table[3])


def test_swiss_rounds_have_no_rematch_one_bye_at_most_and_pair_within_score_groups():
    rng = random.Random(7)
    points = dict.fromkeys(TEAMS, 0)
    met: dict = {}
    byes: dict = {}
    gaps = []
    for number in range(1, 6):
        ranking = sorted(TEAMS, key=lambda t: (-points[t], t))
        drawn = swiss(TEAMS, Draw(bytes(32), f"r{number}"), points, met, ranking, byes)
        assert len(drawn.byes) == 1
        for bye in drawn.byes:
            byes[bye] = byes.get(bye, 0) + 1
            points[bye] += 1
        for table in drawn.tables:
            a, b = opponents(table)
            assert met.get(pair(a, b), 0) == 0  # never a rematch that could be avoided
            met[pair(a, b)] = 1
            gaps.append(abs(points[a] - points[b]))
            points[a if rng.random() < 0.5 else b] += 1
    assert max(byes.values()) == 1
    assert sum(1 for g in gaps if g <= 1) >= len(gaps) * 0.8


def test_the_bye_goes_to_the_lowest_team_without_one():
    points = {t: i for i, t in enumerate(TEAMS)}
    ranking = sorted(TEAMS, key=lambda t: -points[t])
    drawn = swiss(TEAMS, Draw(bytes(32), "r"), points, {}, ranking, {ranking[-1]: 1})
    assert drawn.byes == (ranking[-2],)


def test_a_berger_round_robin_meets_every_pair_once():
    teams = TEAMS[:7]
    order = Draw(bytes(32), "order").shuffled(teams)
    seen = set()
    byes = []
    for index in range(7):
        drawn = round_robin(teams, order, index, Draw(bytes(32), f"r{index}"))
        byes += drawn.byes
        for table in drawn.tables:
            seen.add(pair(*opponents(table)))
    assert seen == {pair(a, b) for a, b in itertools.combinations(teams, 2)}
    assert sorted(byes) == sorted(teams)
