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
    tile_played,
)
from tavola.games.dominoes.line import End, placements
from tavola.games.dominoes.scoring import (
    HandResult,
    last_tile_bonus,
    mask_pips,
    score_blocked,
    score_domino,
)
from tavola.games.dominoes.state import (
    BONEYARD_KEPT,
    DominoesState,
    advance,
    next_seat,
    side_of,
)
from tavola.rules.errors import Reason
from tavola.rules.interface import Event
from tavola.rules.tiles import Tile, double_six_set, index_of

TILES = double_six_set()
SHOWING = tuple(sum(1 << t.index for t in TILES if t.has(n)) for n in range(7))
"""``SHOWING[n]``: the tiles (as bits) that show number ``n``."""
PLAYS = tuple(Play(t) for t in TILES)  # the bare code of each tile, by index
SIDES = tuple((Play(t, End.LEFT), Play(t, End.RIGHT)) for t in TILES)
CHOICE = tuple(tuple(-1 if a == b else Tile.of(a, b).index for b in range(7)) for a in range(7))
"""``CHOICE[a][b]``: the one tile with a choice of ends when the ends are a and b (-1: none)."""


# ----- legality ---------------------------------------------------------------------------
def legal_plays(state: DominoesState, seat: int) -> tuple[Play, ...]:
    """Every legal play of ``seat``, in hand order (each end in turn for a tile that fits
    both differently)."""
    if state.ends is None:
        required = required_opening(state)
        hand = state.hands[seat] if required is None else (required,)
        return tuple(PLAYS[index_of(tile)] for tile in hand)
    a, b = state.ends
    fitting = state.masks[seat] & (SHOWING[a] | SHOWING[b])
    if not fitting:
        return ()
    both = CHOICE[a][b]
    out: list[Play] = []
    if state.ordered:  # hand order is index order
        while fitting:
            low = fitting & -fitting
            fitting ^= low
            index = low.bit_length() - 1
            if index == both:
                out += SIDES[index]
            else:
                out.append(PLAYS[index])
        return tuple(out)
    for tile in state.hands[seat]:
        index = index_of(tile)
        if fitting >> index & 1:
            if index == both:
                out += SIDES[index]
            else:
                out.append(PLAYS[index])
    return tuple(out)


def fits_now(state: DominoesState, seat: int) -> bool:
    """Whether ``seat`` holds a tile that fits the line (anything opens an empty line)."""
    ends = state.ends
    if ends is None:
        return bool(state.hands[seat])
    return bool(state.masks[seat] & (SHOWING[ends[0]] | SHOWING[ends[1]]))


def can_play(state: DominoesState, seat: int) -> bool:
    return fits_now(state, seat)


def why_illegal(state: DominoesState, seat: int, action: DominoesAction) -> Reason | None:
    if isinstance(action, Pass):
        return Reason.of("dominoes.must_play")
    tile, end = action.tile, action.end
    if not state.masks[seat] >> index_of(tile) & 1:
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
    """The play and what follows, each event folded as it is decided (``advance``)."""
    tile = action.tile
    ends_before = state.ends
    played = _played(state, seat, tile, action.end)
    events: list[Event] = [played]
    after = advance(state, played)
    if not after.masks[seat]:
        bonus = Bonus.NONE if ends_before is None else last_tile_bonus(tile, ends_before)
        after = _emit(after, events, PlayerWentOut(state.hand, seat, tile, bonus))
        seat_pips = _seat_pips(after)
        result = score_domino(after.options, seat, bonus, seat_pips)
        return events + end_of_hand(after, result, None, seat_pips)
    if after.masks[(seat - 1) % state.players] & (
        SHOWING[played.left_end] | SHOWING[played.right_end]
    ):
        return events  # the next seat has a tile that fits: its turn (the common case)
    return events + _next_turn(after, seat)


def _played(state: DominoesState, seat: int, tile: Tile, chosen: End | None) -> TilePlayed:
    """The ``TilePlayed`` of a legal play (the end resolved as by ``resolve_end``)."""
    ends = state.ends
    high, low = tile.high, tile.low
    if ends is None:
        return tile_played(state.hand, seat, tile, None, high, low)
    left, right = ends
    if chosen is End.LEFT or (chosen is None and right != high and right != low):
        return tile_played(state.hand, seat, tile, End.LEFT, tile.other_end(left), right)
    return tile_played(state.hand, seat, tile, End.RIGHT, left, tile.other_end(right))


def _emit(state: DominoesState, events: list[Event], event: Event) -> DominoesState:
    events.append(event)
    return advance(state, event)


def is_blocked(state: DominoesState) -> bool:
    if state.options.mode == "draw" and len(state.boneyard) > BONEYARD_KEPT:
        return False
    ends = state.ends
    if ends is None:
        return not any(state.hands)
    return not any(map((SHOWING[ends[0]] | SHOWING[ends[1]]).__and__, state.masks))


def _next_turn(state: DominoesState, played_by: int) -> list[Event]:
    """Forced draws and passes until a seat can play, or the hand is blocked (after a
    play: the line has two ends, which draws and passes leave as they are)."""
    events: list[Event] = []
    assert state.ends is not None
    left, right = state.ends
    showing = SHOWING[left] | SHOWING[right]
    draws = state.options.mode == "draw"
    current = next_seat(state, played_by)
    while True:
        if state.masks[current] & showing:
            return events
        if is_blocked(state):
            blocker = state.last_player
            assert blocker is not None
            state = _emit(state, events, HandBlocked(state.hand, blocker, left, right))
            seat_pips = _seat_pips(state)
            result = score_blocked(state.options, blocker, seat_pips)
            return events + end_of_hand(state, result, blocker, seat_pips)
        if draws:
            state = _draw_until_fit(state, current, events)
            if state.masks[current] & showing:
                return events
        state = _emit(state, events, Passed(state.hand, current, left, right))
        current = next_seat(state, current)


def _draw_until_fit(state: DominoesState, seat: int, events: list[Event]) -> DominoesState:
    """Draw mode: take tiles until one fits, leaving the last two in the boneyard."""
    if state.options.mode != "draw":
        return state
    while len(state.boneyard) > BONEYARD_KEPT:
        tile = state.boneyard[0]
        state = _emit(state, events, TileDrawn(state.hand, seat, tile))
        state = _emit(state, events, BoneyardDrawn(state.hand, seat, len(state.boneyard)))
        if fits_now(state, seat):
            break
    return state


def _seat_pips(state: DominoesState) -> tuple[int, ...]:
    """The pips left in each hand (``pips_of`` each hand, from the tiles' bits)."""
    return tuple(map(mask_pips, state.masks))


# ----- end of a hand -------------------------------------------------------------------------
def end_of_hand(
    state: DominoesState, result: HandResult, blocker: int | None, seat_pips: tuple[int, ...]
) -> list[Event]:
    """The tiles shown, the hand's score and, when a side has won the match, its end
    (``seat_pips``: the pips left in each hand)."""
    hand = state.hand
    events: list[Event] = [
        TilesShown(hand, seat, tiles, pips)
        for seat, (tiles, pips) in enumerate(zip(state.hands, seat_pips, strict=True))
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
            seat_pips=seat_pips,
            side_pips=result.side_pips,
            base_points=result.base_points,
            bonus=result.bonus,
            bonus_points=result.bonus_points,
            points=result.points,
            scores=tuple(scores),
        )
    )
    options = state.options
    best = max(scores)
    if best >= options.target:  # the side wins the game, and maybe the match
        side = scores.index(best)
        games = list(state.games_won)
        games[side] += 1
        if games[side] >= options.games_needed:
            winners = tuple(s for s in range(state.players) if side_of(s) == side)
            final = scores if options.best_of == 1 else games
            events.append(MatchEnded(side, winners, tuple(final)))
    return events
