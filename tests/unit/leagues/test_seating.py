"""Seating individual games: table sizes, the seeded draw, and the evenness measure."""

from __future__ import annotations

from tavola.leagues.chance import Draw
from tavola.leagues.formats import BOTS, BYES
from tavola.leagues.seating import BOT, evenness, meetings_of, plan_sizes, seat

PLAYERS = [f"p{i:03d}" for i in range(200)]


def season(players: list[str], rounds: int, sizes: tuple[int, ...] = (4,)) -> list:
    seated: list = []
    for number in range(1, rounds + 1):
        drawn = seat(
            players, Draw(bytes(32), f"seating/1/{number}/1"), sizes, BOTS, meetings_of(seated)
        )
        seated.append(drawn.tables)
    return seated


def test_two_hundred_players_over_six_rounds_meet_at_most_once_with_eighteen_opponents_each():
    measure = evenness(season(PLAYERS, 6), PLAYERS)
    assert measure.max_meetings == 1
    assert measure.repeated_pairs == 0
    assert measure.fewest_opponents == 18
    assert measure.passes


def test_a_plain_shuffle_fails_the_measure_the_swap_search_passes():
    plain = []
    for number in range(6):
        order = Draw(bytes(32), f"plain/{number}").shuffled(PLAYERS)
        plain.append([tuple(order[i : i + 4]) for i in range(0, 200, 4)])
    measure = evenness(plain, PLAYERS)
    assert measure.repeated_pairs > 20 and not measure.passes


def test_small_fields_are_as_even_as_the_measure_allows():
    for count, rounds in ((16, 3), (24, 5), (32, 6)):
        players = PLAYERS[:count]
        measure = evenness(season(players, rounds), players)
        assert measure.max_meetings == 1 and measure.passes, (count, rounds)


def test_the_measure_of_a_tight_field_names_what_a_round_by_round_draw_cannot_avoid():
    """16 players in fours over 5 rounds need a perfect resolution from the first round
    on; seating one round at a time (all a league can do) leaves a few repeats, and the
    measure says so."""
    players = PLAYERS[:16]
    measure = evenness(season(players, 5), players)
    assert measure.expected == 1.0 and not measure.passes and measure.max_meetings == 2


def test_doppelkopf_seats_the_remainder_at_five_tables():
    for n in range(12, 40):
        sizes, bots, byes = plan_sizes(n, (4, 5), BOTS)
        assert sum(sizes) == n and bots == byes == 0
        assert sizes.count(5) == n % 4


def test_fan_tan_splits_any_field_of_twelve_or_more_into_fours_and_fives():
    for n in range(12, 60):
        sizes, bots, _ = plan_sizes(n, (4, 5), BOTS)
        assert sum(sizes) == n and bots == 0 and set(sizes) <= {4, 5}


def test_barbu_fills_a_remainder_with_bots_one_a_table_or_gives_byes():
    sizes, bots, _ = plan_sizes(18, (4,), BOTS)
    assert sizes == [4] * 5 and bots == 2
    drawn = seat(PLAYERS[:18], Draw(bytes(32), "x"), (4,), BOTS, {})
    assert sorted(t.count(BOT) for t in drawn.tables) == [0, 0, 0, 1, 1]
    drawn = seat(PLAYERS[:18], Draw(bytes(32), "x"), (4,), BYES, {})
    assert len(drawn.byes) == 2 and all(BOT not in t for t in drawn.tables)


def test_byes_go_to_players_who_had_the_fewest():
    first = seat(PLAYERS[:18], Draw(bytes(32), "r1"), (4,), BYES, {})
    again = seat(PLAYERS[:18], Draw(bytes(32), "r2"), (4,), BYES, {}, {b: 1 for b in first.byes})
    assert not set(first.byes) & set(again.byes)


def test_the_same_seed_gives_the_same_seating_and_another_seed_another():
    one = seat(PLAYERS[:40], Draw(b"a" * 32, "p"), (4,), BOTS, {})
    assert one == seat(PLAYERS[:40], Draw(b"a" * 32, "p"), (4,), BOTS, {})
    assert one != seat(PLAYERS[:40], Draw(b"b" * 32, "p"), (4,), BOTS, {})


def test_rotating_partners_do_not_partner_twice_when_it_can_be_avoided():
    players = PLAYERS[:16]
    rounds: list = []
    partnered: dict = {}
    for number in range(1, 4):
        drawn = seat(
            players, Draw(bytes(32), f"r{number}"), (4,), BOTS, meetings_of(rounds), {}, partnered
        )
        rounds.append(drawn.tables)
        for table in drawn.tables:
            for a, b in ((table[0], table[2]), (table[1], table[3])):
                key = (min(a, b), max(a, b))
                partnered[key] = partnered.get(key, 0) + 1
    assert max(partnered.values()) == 1
