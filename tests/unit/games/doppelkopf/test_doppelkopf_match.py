"""The match: first dealer, rotation, five players, lengths, Bock rounds, presets and
players leaving."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tavola.games.doppelkopf import GAME
from tavola.games.doppelkopf import events as ev
from tavola.games.doppelkopf.match import bock_reasons
from tavola.games.doppelkopf.model import Party, TrickRecord
from tavola.games.doppelkopf.scoring import Settlement, Tally
from tavola.rules.cards import PlayedCard, cards
from tavola.rules.driver import play_match, resolve_all_chance
from tavola.rules.errors import IllegalAction


def scored(out):
    return [e for e in out.events if isinstance(e, ev.GameScored)]


def started(out):
    return [e for e in out.events if isinstance(e, ev.GameStarted)]


def test_the_first_dealer_is_drawn_and_each_game_is_a_shuffle_of_the_deck():
    state = GAME.initial_state(4, {})
    request = GAME.chance(state)
    assert (request.purpose, request.kind, request.size) == ("first-dealer", "draw", 4)
    state = GAME.fold(state, GAME.resolve_chance(state, request, (2,)))
    request = GAME.chance(state)
    assert (request.purpose, request.kind, request.size) == ("deal/1", "shuffle", 48)
    events = GAME.resolve_chance(state, request, tuple(range(48)))
    assert events[0] == ev.GameStarted(1, 2, (3, 0, 1, 2), False, None)
    assert all(len(e.cards) == 12 for e in events[1:])
    assert all(e.audience() == frozenset({e.seat}) for e in events[1:])


def test_without_nines_the_shuffle_has_40_cards_and_hands_have_ten():
    state = GAME.initial_state(4, {"without_nines": True})
    state = GAME.fold(state, GAME.resolve_chance(state, GAME.chance(state), (0,)))
    assert GAME.chance(state).size == 40
    state, _ = resolve_all_chance(GAME, state, b"\x05" * 32)
    assert all(len(state.deal.hands[s]) == 10 for s in range(4))


def test_the_deal_passes_one_seat_each_game():
    out = play_match(GAME, 4, {"match": "1_round"}, seed=b"\x11" * 32, rng=random.Random(1))
    dealers = [e.dealer for e in started(out)]
    first = dealers[0]
    assert dealers == [(first + k) % 4 for k in range(4)]
    assert len(scored(out)) == 4


def test_with_five_players_the_dealer_sits_out_and_scores_nothing():
    out = play_match(GAME, 5, {"match": "1_round"}, seed=b"\x12" * 32, rng=random.Random(2))
    games = list(zip(started(out), scored(out), strict=True))
    assert len(games) == 5
    for start, score in games:
        assert start.dealer not in start.seats and len(start.seats) == 4
        assert score.scores[start.dealer] == 0 and sum(score.scores) == 0


@pytest.mark.parametrize(("match", "games"), [("one_game", 1), ("2_rounds", 8), ("3_rounds", 12)])
def test_a_match_by_games_or_rounds_has_its_number_of_games(match, games):
    out = play_match(GAME, 4, {"match": match}, seed=b"\x13" * 32, rng=random.Random(3))
    assert len(scored(out)) == games and GAME.is_over(out.state)
    assert isinstance(out.events[-1], ev.MatchEnded)


@pytest.mark.parametrize("seed", range(4))
def test_a_match_to_a_target_finishes_the_round_in_which_it_was_reached(seed):
    out = play_match(GAME, 4, {"match": "to_10"}, seed=bytes([seed]) * 32, rng=random.Random(seed))
    games = scored(out)
    first = next(i for i, g in enumerate(games) if max(g.totals) >= 10)
    assert len(games) == (first // 4 + 1) * 4


def test_after_the_match_nobody_acts_and_there_is_no_chance():
    out = play_match(GAME, 4, {"match": "one_game"}, seed=b"\x14" * 32)
    assert GAME.to_act(out.state) == frozenset() and GAME.chance(out.state) is None
    assert [s.score for s in GAME.standings(out.state)] == list(out.state.totals)


def test_the_presets_set_the_house_rules():
    tavern = GAME.parse_options({"preset": "tavern"})
    assert tavern["second_dulle"] and tavern["schweinchen"] and tavern["schmeissen"]
    assert tavern["bockrunde"] and tavern["match"] == "to_20"
    assert not tavern["armut"] and not tavern["pflichtsolo"]
    assert GAME.house_rules(tavern) == ("second_dulle", "schweinchen", "schmeissen", "bockrunde")
    official = GAME.parse_options({"preset": "official"})
    assert GAME.house_rules(official) == ()
    assert GAME.parse_options({"preset": "tavern", "bockrunde": False})["bockrunde"] is False


def test_an_unknown_preset_or_player_count_is_refused():
    with pytest.raises(IllegalAction):
        GAME.initial_state(4, {"preset": "casino"})
    with pytest.raises(IllegalAction) as err:
        GAME.initial_state(3, {})
    assert err.value.reason.code == "doppelkopf.players"


def test_every_house_rule_is_a_flagged_option():
    names = {spec.name for spec in GAME.info.options if spec.house_rule}
    assert names == {
        "second_dulle",
        "schweinchen",
        "armut",
        "schmeissen",
        "fuchs_am_end",
        "karlchen_fangen",
        "bockrunde",
        "pflichtsolo",
        "without_nines",
    }


# --- Bock rounds -----------------------------------------------------------------------------
def _deal_with(doko, tricks, levels=(0, 0), **options):
    state = doko.normal_game(bockrunde=True, **options)
    return state, replace(state.deal, tricks=tuple(tricks), levels=levels)


def test_a_trick_of_four_hearts_earns_a_bock_round(doko):
    hearts = TrickRecord(1, tuple(PlayedCard(i, c) for i, c in enumerate(cards("AH KH 9H AH"))), 0)
    state, deal = _deal_with(doko, [hearts])
    result = Settlement(Party.RE, Tally((130, 110), (6, 6)), (), 1)
    assert bock_reasons(state, deal, result) == ("doppelkopf.bock.heart_trick",)


def test_a_120_all_game_earns_a_bock_round(doko):
    state, deal = _deal_with(doko, [])
    result = Settlement(Party.KONTRA, Tally((120, 120), (6, 6)), (), -1)
    assert bock_reasons(state, deal, result) == ("doppelkopf.bock.tie",)


def test_a_game_lost_by_a_party_that_announced_earns_a_bock_round(doko):
    state, deal = _deal_with(doko, [], levels=(1, 0))
    result = Settlement(Party.KONTRA, Tally((100, 140), (6, 6)), (), -3)
    assert bock_reasons(state, deal, result) == ("doppelkopf.bock.lost_announcement",)
    won = Settlement(Party.RE, Tally((140, 100), (6, 6)), (), 3)
    assert bock_reasons(state, deal, won) == ()


def test_without_the_house_rule_there_are_no_bock_rounds(doko):
    state = doko.normal_game()
    result = Settlement(Party.KONTRA, Tally((120, 120), (6, 6)), (), -1)
    assert bock_reasons(state, state.deal, result) == ()


def test_the_next_full_round_after_a_bock_game_counts_double(doko):
    state = doko.normal_game(bockrunde=True, match="3_rounds")
    state = GAME.evolve(state, ev.BockRoundEarned(("doppelkopf.bock.tie",)))
    state = doko.finish(state)
    assert state.bock_pending == 1
    flags = []
    for _ in range(4):
        state, events = resolve_all_chance(GAME, state, bytes([state.deals]) * 32)
        flags.append(events[0].bock)
        state = doko.finish(doko.healthy(state))
        assert sum(state.last_scores) == 0
    assert flags == [True] * 4 and state.bock_left == 0
    state, events = resolve_all_chance(GAME, state, bytes([state.deals]) * 32)
    assert events[0].bock == (state.bock_left > 0)  # only if one of them earned another


def test_a_bock_game_doubles_the_value(doko):
    plain = doko.finish(doko.normal_game())
    bock = doko.finish(doko.healthy(doko.start(bock=True)))
    assert bock.last_scores == tuple(2 * s for s in plain.last_scores)


# --- players leaving -----------------------------------------------------------------------
def test_a_player_leaving_ends_the_game_unscored_and_stops_a_four_player_match(doko):
    state = doko.tricks(doko.normal_game(match="2_rounds"), 3)
    events = GAME.seat_left(state, 2)
    assert events == [ev.PlayerLeft(2), ev.GameAbandoned(1, 2), ev.MatchEnded(True)]
    state = GAME.fold(state, events)
    assert GAME.is_over(state) and state.interrupted and state.totals == (0, 0, 0, 0)


def test_a_player_leaving_a_single_game_goes_to_the_final_standings(doko):
    state = doko.normal_game(match="one_game")
    events = GAME.seat_left(state, 1)
    assert events[-1] == ev.MatchEnded(False)


def test_with_five_players_the_next_game_is_dealt_to_the_four_who_remain():
    state = GAME.initial_state(5, {"match": "2_rounds"})
    state, _ = resolve_all_chance(GAME, state, b"\x21" * 32)
    leaving = state.deal.seats[1]
    state = GAME.fold(state, GAME.seat_left(state, leaving))
    assert state.phase == "deal" and state.games == 1
    state, events = resolve_all_chance(GAME, state, b"\x21" * 32)
    assert leaving not in events[0].seats and len(events[0].seats) == 4
    assert events[0].dealer in events[0].seats  # four left: the dealer plays


def test_the_dealer_sitting_out_may_leave_without_ending_the_game():
    state = GAME.initial_state(5, {"match": "1_round"})
    state, _ = resolve_all_chance(GAME, state, b"\x22" * 32)
    events = GAME.seat_left(state, state.dealer)
    assert events == [ev.PlayerLeft(state.dealer)]
    assert GAME.fold(state, events).phase == "reservations"


def test_nothing_happens_when_a_seat_leaves_twice_or_after_the_match(doko):
    state = doko.normal_game(match="2_rounds")
    state = GAME.fold(state, GAME.seat_left(state, 0))
    assert GAME.seat_left(state, 0) == []
