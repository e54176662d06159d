"""A match as a series of games (table option ``best_of``): scripted series through the real
chance path, the option's validation, the standings and views of a series, and random
series that keep the rule book's invariants and verify offline."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace

import pytest
from dominoes_kit import codes as codes_of
from dominoes_kit import deal, permutation, play, tiles
from test_dominoes_playouts import MODES, check_event, option_values, walk

from support.engine import engine_fixture
from tavola.cli.replay import decode
from tavola.games.dominoes import (
    GAME,
    DominoesState,
    HandScored,
    HandStarted,
    MatchEnded,
    OpeningRule,
)
from tavola.match.events import MatchEnded as PlatformMatchEnded
from tavola.match.verify import verify
from tavola.rules.driver import Playout, play_match
from tavola.rules.errors import IllegalAction
from tavola.rules.interface import Event, OptionValue, SeatScore
from tavola.rules.tiles import Tile, double_six_set

WITHOUT_SIX = sorted((t for t in double_six_set() if not t.has(6)), key=lambda t: t.pips)
SIXES = [t for t in double_six_set() if t.has(6) and not t.is_double]


def series(target: int = 25, **options: OptionValue) -> DominoesState:
    return GAME.initial_state(2, {"mode": "block", "target": target, "best_of": 3, **options})


def codes(chosen: list[Tile]) -> str:
    return " ".join(t.code for t in chosen)


def blocked_hand(state: DominoesState, winner: int) -> tuple[DominoesState, list[Event]]:
    """One block-mode hand that blocks at once: the opener lays the 6-6 and nobody holds
    another six (they are all in the boneyard). ``winner`` holds the lightest tiles: as
    opener, the 6 lightest without a six (11 pips) against the next 7 (33 points); else the
    7 lightest (15 pips) against the opener's next 6 (29 points)."""
    opener = 0 if state.opener is None else (state.opener - 1) % 2
    light = WITHOUT_SIX[:6] if winner == opener else WITHOUT_SIX[:7]
    heavy = WITHOUT_SIX[6:13] if winner == opener else WITHOUT_SIX[7:13]
    held = {winner: light, 1 - winner: heavy}
    held[opener] = [Tile(6, 6), *held[opener]]
    rest = [t for t in WITHOUT_SIX if t not in light and t not in heavy]
    state = deal(state, (codes(held[0]), codes(held[1])), codes(SIXES + rest))
    assert state.opener == opener
    state, events = play(state, opener, "6-6")
    return state, events


def scored(events: list[Event]) -> HandScored:
    (result,) = [e for e in events if isinstance(e, HandScored)]
    return result


def standings(state: DominoesState) -> list[tuple[int, int]]:
    return [(s.score, s.rank) for s in GAME.standings(state)]


# ----- scripted series ------------------------------------------------------------------------
def test_a_best_of_three_won_two_nil_ends_after_the_second_game() -> None:
    state, events = blocked_hand(series(), winner=0)
    assert scored(events).scores == (33, 0)
    assert not any(isinstance(e, MatchEnded) for e in events)
    assert state.phase == "deal" and state.games_won == (1, 0) and state.scores == (0, 0)
    assert GAME.view(state, 1).games_won == (1, 0) and GAME.view(state, 1).best_of == 3
    state, events = blocked_hand(state, winner=0)
    assert scored(events).scores == (29, 0)  # the second game started from 0
    assert events[-1] == MatchEnded(0, (0,), (2, 0))
    assert GAME.is_over(state) and state.games_won == (2, 0) and state.hands_played == 2
    assert standings(state) == [(33 + 29, 1), (0, 2)]
    assert GAME.view(state, None).games_won == (2, 0)


def test_a_best_of_three_at_one_game_all_is_decided_by_the_third() -> None:
    state, events = blocked_hand(series(), winner=1)
    assert scored(events).scores == (0, 29) and state.games_won == (0, 1)
    state, events = blocked_hand(state, winner=0)
    assert scored(events).scores == (29, 0) and state.games_won == (1, 1)
    assert not GAME.is_over(state)
    state, events = blocked_hand(state, winner=0)
    assert scored(events).scores == (33, 0)
    assert events[-1] == MatchEnded(0, (0,), (2, 1))
    assert standings(state) == [(29 + 33, 1), (29, 2)]


def test_scores_restart_at_zero_for_each_game_and_add_up_within_a_game() -> None:
    state, events = blocked_hand(series(target=50), winner=0)
    assert scored(events).scores == (33, 0) and state.games_won == (0, 0)
    state, events = blocked_hand(state, winner=0)
    assert scored(events).scores == (62, 0)  # 33 + 29: the first game is won
    assert state.games_won == (1, 0) and state.scores == (0, 0)
    assert standings(state) == [(62, 1), (0, 2)]
    state, events = blocked_hand(state, winner=1)
    assert scored(events).scores == (0, 29)  # the second game's first hand, from 0
    assert standings(state) == [(62, 1), (29, 2)]  # one game to none


def test_the_first_hand_of_a_later_game_is_opened_like_any_later_hand() -> None:
    """Not a first hand: no highest double to lay; the next seat after the last opener."""
    state, _ = blocked_hand(series(), winner=0)
    assert state.games_won == (1, 0) and state.opener == 0
    request = GAME.chance(state)
    assert request is not None and request.purpose == "deal/2"
    perm = permutation(("6-6 5-5 4-4 3-3 2-2 1-1 0-0", "6-5 6-4 6-3 6-2 6-1 6-0 5-4"))
    started = GAME.resolve_chance(state, request, perm)[0]
    assert started == HandStarted(2, 1, OpeningRule.ANY, (7, 7), 14)
    state = GAME.fold(state, GAME.resolve_chance(state, request, perm))
    assert codes_of(state, 1) == [t.code for t in tiles("5-4 6-0 6-1 6-2 6-3 6-4 6-5")]


def test_under_winner_opens_the_game_winner_opens_the_next_game() -> None:
    state, _ = blocked_hand(series(opener="winner_opens"), winner=1)
    assert state.games_won == (0, 1) and state.last_winner == 1
    state = deal(state, ("0-0 1-0 1-1 2-0 2-1 3-0 3-1", "6-6 6-5 6-4 6-3 6-2 6-1 6-0"))
    assert state.opener == 1 and state.opening_rule is OpeningRule.ANY


# ----- standings and validation ---------------------------------------------------------------
def test_the_series_winner_ranks_first_even_with_fewer_points() -> None:
    state = replace(
        series(), phase="over", games_won=(1, 2), past_points=(120, 30), scores=(20, 26)
    )
    assert GAME.standings(state) == (SeatScore(0, 140, 2), SeatScore(1, 56, 1))


def test_partners_share_a_series_score_and_rank() -> None:
    state = replace(GAME.initial_state(4, {"best_of": 5}), games_won=(3, 2), past_points=(90, 160))
    assert standings(state) == [(90, 1), (160, 2), (90, 1), (160, 2)]


def test_one_game_matches_rank_by_points_as_before() -> None:
    state = replace(GAME.initial_state(4, {}), scores=(31, 12))
    assert standings(state) == [(31, 1), (12, 2), (31, 1), (12, 2)]
    assert standings(replace(state, scores=(12, 12))) == [(12, 1)] * 4


@pytest.mark.parametrize("best_of", [2, 4, "2"])
def test_an_even_best_of_is_refused_with_its_own_reason(best_of: OptionValue) -> None:
    with pytest.raises(IllegalAction) as error:
        GAME.initial_state(4, {"best_of": best_of})
    assert error.value.reason.code == "dominoes.best_of"
    assert error.value.reason.param_dict() == {"best_of": int(best_of)}


@pytest.mark.parametrize("best_of", [0, 6, 7, "three"])
def test_a_best_of_outside_one_to_five_is_not_a_valid_value(best_of: OptionValue) -> None:
    with pytest.raises(IllegalAction) as error:
        GAME.initial_state(2, {"best_of": best_of})
    assert error.value.reason.code == "options.invalid"


def test_best_of_one_three_and_five_are_accepted_and_a_series_is_flagged() -> None:
    for best_of, needed in ((1, 1), (3, 2), (5, 3)):
        options = GAME.initial_state(2, {"best_of": str(best_of)}).options
        assert options.best_of == best_of and options.games_needed == needed
    assert GAME.initial_state(4, {}).options.best_of == 1
    assert GAME.house_rules({"best_of": 3}) == ("best_of",)
    assert GAME.house_rules({"best_of": 1}) == ()


# ----- random series ----------------------------------------------------------------------------
def play_series(mode: str, seed: int, options: Mapping[str, OptionValue]) -> Playout:
    return play_match(
        GAME,
        MODES[mode],
        {"mode": mode, "best_of": 3, **options},
        seed=seed.to_bytes(32, "big"),
        rng=random.Random(seed),
    )


def check_series(out: Playout) -> tuple[int, ...]:
    """Every invariant of a random series; returns the games won per side."""
    target = out.state.options.target
    game_points = [0, 0]
    match_points = [0, 0]
    games = [0, 0]
    for before, event, after in walk(out):
        check_event(before, event, after)
        if isinstance(event, HandStarted) and event.hand > 1:
            assert event.opening_rule is OpeningRule.ANY
        if isinstance(event, HandScored):
            if event.winner_side is not None:
                game_points[event.winner_side] += event.points
                match_points[event.winner_side] += event.points
            assert event.scores == tuple(game_points)
            if max(game_points) >= target:
                games[game_points.index(max(game_points))] += 1
                game_points = [0, 0]
            assert after.games_won == tuple(games)
            assert GAME.view(after, 0).games_won == tuple(games)
        assert max(games) <= 2
    ended = out.events[-1]
    assert isinstance(ended, MatchEnded) and ended.scores == tuple(games)
    assert max(games) == 2 and min(games) < 2 and ended.winner_side == games.index(2)
    for score in GAME.standings(out.state):
        side = score.seat % 2
        assert score.score == match_points[side]
        assert score.rank == (1 if side == ended.winner_side else 2)
    initial = GAME.initial_state(out.state.players, option_values(out.state.options))
    assert GAME.fold(initial, out.events) == out.state  # a replay rebuilds the series
    return tuple(games)


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("options", [{"target": 20}, {"opener": "winner_opens", "target": 50}])
def test_random_best_of_three_series_keep_every_invariant(
    mode: str, options: dict[str, OptionValue]
) -> None:
    finals = {check_series(play_series(mode, seed, options)) for seed in range(25)}
    assert {(2, 1), (1, 2)} & finals and {(2, 0), (0, 2)} & finals  # both kinds are seen


def test_a_series_replays_to_the_same_events_when_global_random_is_disturbed() -> None:
    out = play_series("partnership", 3, {"target": 20})
    random.seed(99)
    assert play_series("partnership", 3, {"target": 20}).events == out.events


def test_a_default_match_is_one_game_exactly_as_before() -> None:
    out = play_match(GAME, 4, {}, seed=b"\x05" * 32, rng=random.Random(5))
    ended = out.events[-1]
    assert isinstance(ended, MatchEnded) and ended.scores == out.state.scores
    assert max(out.state.games_won) == 1 and out.state.past_points == (0, 0)
    assert [s.score for s in GAME.standings(out.state)] == [
        out.state.scores[s % 2] for s in range(4)
    ]


async def test_a_series_played_on_the_engine_verifies_offline_and_ranks_the_winner_first() -> None:
    fx = engine_fixture()
    await fx.create(game="dominoes", players=2, options={"best_of": "3", "target": "15"})
    await fx.play_to_end("m1")
    records = decode(await fx.store.read_stream("match-m1"))
    verify(records)
    ended = next(r.event for r in records if isinstance(r.event, MatchEnded))
    (final,) = [r.event for r in records if isinstance(r.event, PlatformMatchEnded)]
    assert isinstance(ended, MatchEnded) and max(ended.scores) == 2
    winner = next(s for s in final.standings if s.rank == 1)
    assert winner.seat % 2 == ended.winner_side
