"""Play: legality of a tile, and everything a play sets off — forced draws and passes, a
domino, a blocked hand, the score and the end of the match."""

from __future__ import annotations

from tavola.games.dominoes.actions import DominoesAction, Pass, Play
from tavola.games.dominoes.deal import required_opening
from tavola.games.dominoes.events import (
    BoneyardDrawn,
    Bonus,
    HandBlocked,
    HandScored,
    MatchEnded,
    Passed,
    PlayerWentOut,
    TileDrawn,
    TilePlayed,
    TilesShown,
)
from tavola.games.dominoes.line import End, fits, place, placements, resolve_end
from tavola.games.dominoes.scoring import (
    HandResult,
    last_tile_bonus,
    pips_of,
    score_blocked,
    score_domino,
)
from tavola.games.dominoes.state import (
    BONEYARD_KEPT,
    DominoesState,
    evolve,
    next_seat,
    side_of,
)
from tavola.rules.errors import Reason
from tavola.rules.interface import Event
from tavola.rules.tiles import Tile


# ----- legality ---------------------------------------------------------------------------
def legal_plays(state: DominoesState, seat: int) -> tuple[Play, ...]:
    if state.ends is None:
        required = required_opening(state)
        hand = state.hands[seat] if required is None else (required,)
        return tuple(Play(tile) for tile in hand)
    return tuple(
        Play(tile, end) for tile in state.hands[seat] for end in placements(tile, state.ends)
    )


def can_play(state: DominoesState, seat: int) -> bool:
    ends = state.ends
    return any(fits(tile, ends) for tile in state.hands[seat])


def why_illegal(state: DominoesState, seat: int, action: DominoesAction) -> Reason | None:
    if isinstance(action, Pass):
        return Reason.of("dominoes.must_play")
    tile, end = action.tile, action.end
    if tile not in state.hands[seat]:
        return Reason.of("dominoes.not_in_hand", tile=tile.code)
    if state.ends is None:
        return _opening_reason(state, tile, end)
    ends = state.ends
    options = placements(tile, ends)
    if not options:
        return Reason.of("dominoes.does_not_fit", tile=tile.code, left=ends[0], right=ends[1])
    if end in options:
        return None
    if end is None:
        return Reason.of("dominoes.choose_end", tile=tile.code, left=ends[0], right=ends[1])
    if tile.has(ends[end]):
        return Reason.of("dominoes.single_placement", tile=tile.code)
    return Reason.of("dominoes.does_not_fit_end", tile=tile.code, end=end.letter, number=ends[end])


def _opening_reason(state: DominoesState, tile: Tile, end: End | None) -> Reason | None:
    required = required_opening(state)
    if required is not None and tile != required:
        return Reason.of("dominoes.must_open_with", tile=required.code)
    if end is not None:
        return Reason.of("dominoes.single_placement", tile=tile.code)
    return None


# ----- consequences of a play ---------------------------------------------------------------
def play_events(state: DominoesState, seat: int, action: Play) -> list[Event]:
    tile = action.tile
    ends_before = state.ends
    end = None if ends_before is None else resolve_end(tile, ends_before, action.end)
    after = state
    events: list[Event] = []
    after = _emit(after, events, _played(state, seat, tile, end))
    if not after.hands[seat]:
        bonus = Bonus.NONE if ends_before is None else last_tile_bonus(tile, ends_before)
        after = _emit(after, events, PlayerWentOut(state.hand, seat, tile, bonus))
        seat_pips = _seat_pips(after)
        result = score_domino(after.options, seat, bonus, seat_pips)
        return events + end_of_hand(after, result, blocker=None)
    return events + _next_turn(after, seat)


def _played(state: DominoesState, seat: int, tile: Tile, end: End | None) -> TilePlayed:
    _, ends = place(state.line, state.ends, tile, end)
    return TilePlayed(state.hand, seat, tile, end, ends[0], ends[1])


def _emit(state: DominoesState, events: list[Event], event: Event) -> DominoesState:
    events.append(event)
    return evolve(state, event)


def is_blocked(state: DominoesState) -> bool:
    if state.options.mode == "draw" and len(state.boneyard) > BONEYARD_KEPT:
        return False
    return not any(can_play(state, seat) for seat in range(state.players))


def _next_turn(state: DominoesState, played_by: int) -> list[Event]:
    """Forced draws and passes until a seat can play, or the hand is blocked."""
    events: list[Event] = []
    current = next_seat(state, played_by)
    while True:
        if can_play(state, current):
            return events
        if is_blocked(state):
            blocker = state.last_player
            assert blocker is not None and state.ends is not None
            left, right = state.ends
            state = _emit(state, events, HandBlocked(state.hand, blocker, left, right))
            result = score_blocked(state.options, blocker, _seat_pips(state))
            return events + end_of_hand(state, result, blocker=blocker)
        state = _draw_until_fit(state, current, events)
        if can_play(state, current):
            return events
        assert state.ends is not None
        state = _emit(state, events, Passed(state.hand, current, *state.ends))
        current = next_seat(state, current)


def _draw_until_fit(state: DominoesState, seat: int, events: list[Event]) -> DominoesState:
    """Draw mode: take tiles until one fits, leaving the last two in the boneyard."""
    if state.options.mode != "draw":
        return state
    while len(state.boneyard) > BONEYARD_KEPT:
        tile = state.boneyard[0]
        state = _emit(state, events, TileDrawn(state.hand, seat, tile))
        state = _emit(state, events, BoneyardDrawn(state.hand, seat, len(state.boneyard)))
        if fits(tile, state.ends):
            break
    return state


def _seat_pips(state: DominoesState) -> tuple[int, ...]:
    return tuple(pips_of(hand) for hand in state.hands)


# ----- end of a hand -------------------------------------------------------------------------
def end_of_hand(state: DominoesState, result: HandResult, blocker: int | None) -> list[Event]:
    events: list[Event] = [
        TilesShown(state.hand, seat, hand, pips_of(hand)) for seat, hand in enumerate(state.hands)
    ]
    scores = list(state.scores)
    if result.winner_side is not None:
        scores[result.winner_side] += result.points
    events.append(
        HandScored(
            hand=state.hand,
            ending=result.ending,
            winner_side=result.winner_side,
            winner_seat=result.winner_seat,
            blocker=blocker,
            tied=result.tied,
            seat_pips=_seat_pips(state),
            side_pips=result.side_pips,
            base_points=result.base_points,
            bonus=result.bonus,
            bonus_points=result.bonus_points,
            points=result.points,
            scores=tuple(scores),
        )
    )
    best = max(scores)
    if best >= state.options.target:
        side = scores.index(best)
        winners = tuple(s for s in range(state.players) if side_of(s) == side)
        events.append(MatchEnded(side, winners, tuple(scores)))
    return events
