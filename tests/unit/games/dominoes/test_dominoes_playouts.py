"""Random playouts of whole dominoes matches, checking the rule book's invariants.

Default runs play 1,000 hands per mode; the full 10,000 hands per mode run only when
marked ``slow`` (``make unit`` skips them; ``make test`` runs them).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from tavola.games.dominoes import (
    GAME,
    BoneyardDrawn,
    DominoesState,
    HandBlocked,
    HandScored,
    MatchEnded,
    Passed,
    PlayerWentOut,
    TileDrawn,
    TilePlayed,
    TilesShown,
)
from tavola.games.dominoes.timers import TIMERS
from tavola.rules.driver import Playout, play_match
from tavola.rules.interface import Event, OptionValue
from tavola.rules.tiles import Tile, double_six_set

MODES = {"partnership": 4, "block": 2, "draw": 2}
ALL_TILES = sorted(double_six_set())


def option_values(options: Any) -> dict[str, Any]:
    """The table options a state was made with (its timer settings as options too)."""
    values = {k: v for k, v in dataclasses.asdict(options).items() if k != "clock"}
    return {**values, **TIMERS.values(options.clock)}


def fits(tile: Tile, ends: tuple[int, int] | None) -> bool:
    return ends is None or tile.high in ends or tile.low in ends


def can_play(state: DominoesState, seat: int) -> bool:
    return any(fits(t, state.ends) for t in state.hands[seat])


def sides(state: DominoesState) -> tuple[int, int]:
    totals = [0, 0]
    for seat, hand in enumerate(state.hands):
        totals[seat % 2] += sum(t.pips for t in hand)
    return totals[0], totals[1]


def expected_points(state: DominoesState, ended_by: Event) -> tuple[int, int]:
    """The rule book's score (default options): winner side and points."""
    pips = sides(state)
    if isinstance(ended_by, PlayerWentOut):
        side = ended_by.seat % 2
        return side, pips[1 - side]
    assert isinstance(ended_by, HandBlocked)
    if pips[0] == pips[1]:  # the blocker's side loses a tie
        return 1 - ended_by.blocker % 2, pips[0]
    side = 0 if pips[0] < pips[1] else 1
    return side, pips[1 - side]


def check_tiles_accounted(state: DominoesState) -> None:
    held = [t for hand in state.hands for t in hand]
    on_line = [p.tile for p in state.line]
    assert sorted(held + on_line + list(state.boneyard)) == ALL_TILES


def check_event(before: DominoesState, event: Event, after: DominoesState) -> None:
    """Invariants of one event, given the state just before it."""
    mode = before.options.mode
    if isinstance(event, Passed):
        assert not can_play(before, event.seat), "a pass with a playable tile"
        assert mode != "draw" or len(before.boneyard) <= 2
    elif isinstance(event, TileDrawn):
        assert mode == "draw" and len(before.boneyard) > 2
        assert not can_play(before, event.seat)
    elif isinstance(event, TilePlayed):
        assert event.seat == before.turn and fits(event.tile, before.ends)
        assert after.ends == (event.left_end, event.right_end)
    elif isinstance(event, HandBlocked):
        assert not any(can_play(before, s) for s in range(before.players))
        assert event.blocker == before.last_player
        if before.players == 4:
            assert event.left_end == event.right_end, "a blocked 4-player game has equal ends"
    if isinstance(event, TilePlayed | Passed | TileDrawn | HandBlocked):
        check_tiles_accounted(after)


def walk(out: Playout) -> Iterator[tuple[DominoesState, Event, DominoesState]]:
    state = GAME.initial_state(out.state.players, option_values(out.state.options))
    for event in out.events:
        after = GAME.evolve(state, event)
        yield state, event, after
        state = after


def check_match(out: Playout) -> int:
    """Every invariant of a played match; returns the number of hands."""
    ended_by: Event | None = None
    totals = [0, 0]
    last: DominoesState | None = None
    for before, event, after in walk(out):
        check_event(before, event, after)
        if isinstance(event, PlayerWentOut | HandBlocked):
            ended_by, at_end = event, after
        if isinstance(event, HandScored):
            assert ended_by is not None
            side, points = expected_points(at_end, ended_by)
            assert (event.winner_side, event.points) == (side, points)
            totals[side] += points
            assert event.scores == tuple(totals)
            ended_by = None
        last = after
    assert last is not None and last == out.state
    assert isinstance(out.events[-1], MatchEnded)
    assert max(totals) >= last.options.target
    assert GAME.is_over(last) and GAME.to_act(last) == frozenset() and GAME.chance(last) is None
    hands: int = last.hands_played
    return hands


def play(mode: str, seed: int, options: Mapping[str, OptionValue] | None = None) -> Playout:
    return play_match(
        GAME,
        MODES[mode],
        {"mode": mode, **(options or {})},
        seed=seed.to_bytes(32, "big"),
        rng=random.Random(seed),
    )


def run_hands(mode: str, hands: int) -> None:
    played, seed = 0, 0
    while played < hands:
        played += check_match(play(mode, seed))
        seed += 1


@pytest.mark.slow
@pytest.mark.parametrize("mode", list(MODES))
def test_ten_thousand_random_hands_per_mode_keep_every_invariant(mode: str) -> None:
    run_hands(mode, 10_000)


HOUSE_RULES: list[dict[str, OptionValue]] = [
    {"opener": "winner_opens", "blocked_tie": "nobody_scores", "target": 100},
    {"blocked_tie": "lowest_single_hand", "carroca_bonus": 5, "la_e_lo_bonus": 10},
    {"carroca_bonus": 10, "la_e_lo_bonus": 10, "cruzada_bonus": 40, "target": 20},
]


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("options", HOUSE_RULES)
def test_random_matches_with_house_rules_score_consistently(
    mode: str, options: dict[str, OptionValue]
) -> None:
    for seed in range(40):
        out = play(mode, seed, options)
        totals = [0, 0]
        for before, event, after in walk(out):
            check_event(before, event, after)
            if isinstance(event, HandScored):
                assert event.points == event.base_points + event.bonus_points
                if event.winner_side is not None:
                    totals[event.winner_side] += event.points
                    loser = event.side_pips[1 - event.winner_side]
                    assert event.base_points == loser
                else:
                    assert event.tied and event.points == 0
                assert event.scores == tuple(totals)
        assert max(totals) >= int(options.get("target", 50))


@pytest.mark.parametrize("mode", list(MODES))
def test_replaying_the_events_rebuilds_the_state_and_same_seeds_give_same_events(
    mode: str,
) -> None:
    for seed in range(10):
        out = play(mode, seed)
        initial = GAME.initial_state(MODES[mode], {"mode": mode})
        assert GAME.fold(initial, out.events) == out.state
        random.seed(seed + 1000)  # disturbing global random changes nothing
        again = play(mode, seed)
        assert again.events == out.events


def _record_choice(seen: set[Any]) -> Any:
    def choose(game: Any, state: Any, seat: int, legal: Any, rng: random.Random) -> Any:
        for action in legal:
            seen.add(action)
            assert game.decode_action(game.encode_action(action)) == action
            assert game.why_illegal(state, seat, action) is None
        return legal[rng.randrange(len(legal))]

    return choose


def test_every_legal_action_seen_round_trips_through_its_code() -> None:
    seen: set[Any] = set()
    for mode, players in MODES.items():
        for seed in range(20):
            play_match(
                GAME,
                players,
                {"mode": mode},
                seed=seed.to_bytes(32, "big"),
                rng=random.Random(seed),
                choose=_record_choice(seen),
            )
    assert any(getattr(a, "end", None) is not None for a in seen)


def tiles_in(value: Any) -> set[Tile]:
    """Every tile inside an event or view (nested dataclasses and tuples)."""
    if isinstance(value, Tile):
        return {value}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        found: set[Tile] = set()
        for f in dataclasses.fields(value):
            found |= tiles_in(getattr(value, f.name))
        return found
    if isinstance(value, tuple):
        return set().union(*(tiles_in(v) for v in value)) if value else set()
    return set()


@pytest.mark.parametrize("mode", list(MODES))
def test_no_public_event_or_view_shows_a_tile_of_another_seats_hand(mode: str) -> None:
    for seed in range(15):
        out = play(mode, seed)
        for _before, event, after in walk(out):
            on_line = {p.tile for p in after.line}
            audience = event.audience()
            if audience is None and not isinstance(event, TilesShown):
                assert tiles_in(event) <= on_line, event
            if isinstance(event, TilesShown):
                assert after.turn is None  # shown only once the hand is over
            if isinstance(event, BoneyardDrawn | TileDrawn | TilePlayed | Passed):
                for seat in [None, *range(after.players)]:
                    own = set(after.hands[seat]) if seat is not None else set()
                    visible = tiles_in(GAME.view(after, seat))
                    assert visible <= on_line | own
                    expected = after.hands[seat] if seat is not None else ()
                    assert GAME.view(after, seat).hand == expected
