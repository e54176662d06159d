"""Dominoes state (one whole match) and the fold of events into it.

A state is a value: nothing changes a state once the rules have built it. ``evolve`` makes
the next one with ``copy`` (a hand-written copy of the slots, several times cheaper than
``dataclasses.replace``, which still works) and sets only what the event changed.

Beside its fields a state carries what follows from them, neither compared nor taken by
``replace`` (``__post_init__`` derives it again): ``masks``, each seat's tiles as an int
with bit ``tile.index`` set per tile, and ``ordered``, whether every hand is in tile order
(as dealt; a drawn tile may break it). It also caches the legal plays of the seat on turn
(``legal``) and the last state the rules folded from it (``memo``: the event and the state
after it — ``play_events`` folds its events as it decides them, so the caller's fold of
the very same events costs nothing).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from operator import add, lt
from typing import Any, Literal

from tavola.games.dominoes.events import (
    BoneyardDrawn,
    BoneyardFormed,
    Bonus,
    HandBlocked,
    HandDealt,
    HandScored,
    HandStarted,
    MatchEnded,
    OpeningRule,
    Passed,
    PlayerWentOut,
    TileDrawn,
    TilePlayed,
    TilesShown,
)
from tavola.games.dominoes.line import Ends, PlacedTile, place
from tavola.games.dominoes.timers import DEFAULT_CLOCK
from tavola.rules.interface import Event
from tavola.rules.tiles import Tile, index_of
from tavola.rules.timers import TimerSettings

Phase = Literal["deal", "play", "over"]
MODES = ("partnership", "block", "draw")
PLAYERS_OF_MODE = {"partnership": 4, "block": 2, "draw": 2}
BONEYARD_KEPT = 2  # draw mode: the last two tiles are never drawn


@dataclass(frozen=True, slots=True)
class DominoesOptions:
    mode: str = "partnership"
    target: int = 50
    best_of: int = 1  # games in the match: 1, or a series of 3 or 5 played to ``target`` each
    opener: str = "next_counterclockwise"
    blocked_tie: str = "blocker_loses"
    carroca_bonus: int = 0
    la_e_lo_bonus: int = 0
    cruzada_bonus: int = -1  # -1: the sum of the other two bonuses
    clock: TimerSettings = DEFAULT_CLOCK

    def bonus_points(self, bonus: Bonus) -> int:
        if bonus is Bonus.CARROCA:
            return self.carroca_bonus
        if bonus is Bonus.LA_E_LO:
            return self.la_e_lo_bonus
        if bonus is Bonus.CRUZADA:
            if self.cruzada_bonus < 0:
                return self.carroca_bonus + self.la_e_lo_bonus
            return self.cruzada_bonus
        return 0

    @property
    def games_needed(self) -> int:
        """Games a side must win to win the match (1 of 1, 2 of 3, 3 of 5)."""
        return self.best_of // 2 + 1


@dataclass(frozen=True, slots=True)
class PassRecord:
    """A pass of this hand and the two ends the seat could not match."""

    seat: int
    left_end: int
    right_end: int


@dataclass(slots=True)
class DominoesState:
    players: int
    options: DominoesOptions
    phase: Phase = "deal"
    hand: int = 0
    opener: int | None = None
    opening_rule: OpeningRule = OpeningRule.ANY
    hands: tuple[tuple[Tile, ...], ...] = ()
    boneyard: tuple[Tile, ...] = ()
    line: tuple[PlacedTile, ...] = ()
    ends: Ends | None = None
    turn: int | None = None
    last_player: int | None = None
    passes: tuple[PassRecord, ...] = ()
    scores: tuple[int, ...] = (0, 0)  # the current game's points per side
    games_won: tuple[int, ...] = (0, 0)  # per side, in the match (a series: best_of > 1)
    past_points: tuple[int, ...] = (0, 0)  # per side: the points of the series' earlier games
    last_winner: int | None = None
    hands_played: int = 0
    winner_side: int | None = None
    masks: tuple[int, ...] = field(init=False, repr=False, compare=False)
    ordered: bool = field(init=False, repr=False, compare=False)
    legal: Any = field(init=False, default=None, repr=False, compare=False)
    memo: tuple[Event, DominoesState] | None = field(
        init=False, default=None, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        bits = [bits_of(h) for h in self.hands]
        self.masks = tuple(mask for mask, _ in bits)
        self.ordered = all(ordered for _, ordered in bits)


_BITS = tuple(1 << i for i in range(28))


def bits_of(tiles: tuple[Tile, ...]) -> tuple[int, bool]:
    """The tiles as bits (bit ``tile.index`` per tile) and whether they are in tile order,
    each once (as dealt)."""
    indexes = [t.high * (t.high + 1) // 2 + t.low for t in tiles]
    if all(map(lt, indexes, indexes[1:])):
        return sum(map(_BITS.__getitem__, indexes)), True
    mask = 0
    for i in indexes:
        mask |= 1 << i
    return mask, False


_new = object.__new__


def copy(s: DominoesState) -> DominoesState:
    """A copy of every slot but the caches (the copy will have its own)."""
    new: DominoesState = _new(DominoesState)
    new.players = s.players
    new.options = s.options
    new.phase = s.phase
    new.hand = s.hand
    new.opener = s.opener
    new.opening_rule = s.opening_rule
    new.hands = s.hands
    new.boneyard = s.boneyard
    new.line = s.line
    new.ends = s.ends
    new.turn = s.turn
    new.last_player = s.last_player
    new.passes = s.passes
    new.scores = s.scores
    new.games_won = s.games_won
    new.past_points = s.past_points
    new.last_winner = s.last_winner
    new.hands_played = s.hands_played
    new.winner_side = s.winner_side
    new.masks = s.masks
    new.ordered = s.ordered
    new.legal = new.memo = None
    return new


def next_seat(state: DominoesState, seat: int) -> int:
    """Play is counter-clockwise: the next player is seat - 1 (seats are clockwise)."""
    return (seat - 1) % state.players


def side_of(seat: int) -> int:
    """Partnerships are seats {0, 2} and {1, 3}; one against one, each seat is a side."""
    return seat % 2


def match_points(state: DominoesState) -> tuple[int, ...]:
    """Each side's points in the whole match: every game of a series added up."""
    return tuple(map(add, state.past_points, state.scores))


def evolve(state: DominoesState, event: Event) -> DominoesState:
    memo = state.memo
    if memo is not None and memo[0] is event:
        return memo[1]
    handler = _EVOLVE.get(type(event))
    if handler is None:
        raise TypeError(f"not a dominoes event: {event!r}")
    return handler(state, event)


def advance(state: DominoesState, event: Event) -> DominoesState:
    """``evolve`` of an event the rules just decided, remembered by ``state`` (see the
    module docstring)."""
    after: DominoesState = _EVOLVE[type(event)](state, event)
    state.memo = (event, after)
    return after


def _put(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    out = list(values)
    out[index] = value
    return tuple(out)


def _hand_started(state: DominoesState, event: HandStarted) -> DominoesState:
    new = copy(state)
    new.phase = "play"
    new.hand = event.hand
    new.opener = new.turn = event.opener
    new.opening_rule = event.opening_rule
    new.hands = ((),) * state.players
    new.masks = (0,) * state.players
    new.ordered = True
    new.boneyard = new.line = new.passes = ()
    new.ends = new.last_player = None
    return new


def _hand_dealt(state: DominoesState, event: HandDealt) -> DominoesState:
    mask, ordered = bits_of(event.tiles)
    new = copy(state)
    new.hands = _put(state.hands, event.seat, event.tiles)
    new.masks = _put(state.masks, event.seat, mask)
    new.ordered = state.ordered and ordered
    return new


def _boneyard_formed(state: DominoesState, event: BoneyardFormed) -> DominoesState:
    new = copy(state)
    new.boneyard = event.tiles
    return new


def _tile_played(state: DominoesState, event: TilePlayed) -> DominoesState:
    seat, tile = event.seat, event.tile
    line, ends = place(state.line, state.ends, tile, event.end)
    high, low = tile.high, tile.low
    bit = 1 << (high * (high + 1) // 2 + low)
    mask, hand = state.masks[seat], state.hands[seat]
    if state.ordered and mask & bit:
        at = (mask & (bit - 1)).bit_count()  # its place in a hand in tile order
        left = hand[:at] + hand[at + 1 :]
    else:
        left = tuple(t for t in hand if t.high != high or t.low != low)
    new = copy(state)
    new.hands = _put(state.hands, seat, left)
    new.masks = _put(state.masks, seat, mask & ~bit)
    new.line = line
    new.ends = ends
    new.turn = (seat - 1) % state.players
    new.last_player = seat
    return new


def _tile_drawn(state: DominoesState, event: TileDrawn) -> DominoesState:
    seat, tile = event.seat, event.tile
    bit = 1 << index_of(tile)
    mask = state.masks[seat]
    new = copy(state)
    new.hands = _put(state.hands, seat, (*state.hands[seat], tile))
    new.masks = _put(state.masks, seat, mask | bit)
    new.ordered = state.ordered and mask < bit and not mask & bit
    new.boneyard = tuple(t for t in state.boneyard if t != tile)
    return new


def _unchanged(state: DominoesState, event: Event) -> DominoesState:
    return state


def _passed(state: DominoesState, event: Passed) -> DominoesState:
    new = copy(state)
    new.turn = (event.seat - 1) % state.players
    new.passes = (*state.passes, PassRecord(event.seat, event.left_end, event.right_end))
    return new


def _hand_over(state: DominoesState, event: Event) -> DominoesState:
    new = copy(state)
    new.turn = None
    return new


def _hand_scored(state: DominoesState, event: HandScored) -> DominoesState:
    """A side reaching the target wins the game; the match ends when a side has won
    ``games_needed`` games, else (a series) the next game starts from 0 points."""
    new = copy(state)
    new.scores = scores = event.scores
    new.last_winner = event.winner_seat
    new.hands_played = state.hands_played + 1
    new.phase = "deal"
    new.turn = None
    best = max(scores)
    if best >= state.options.target:
        side = scores.index(best)
        new.games_won = games = _put(state.games_won, side, state.games_won[side] + 1)
        if games[side] >= state.options.games_needed:
            new.phase = "over"
        else:
            new.past_points = tuple(map(add, state.past_points, scores))
            new.scores = (0,) * len(scores)
    return new


def _match_ended(state: DominoesState, event: MatchEnded) -> DominoesState:
    new = copy(state)
    new.phase = "over"
    new.winner_side = event.winner_side
    return new


_EVOLVE: dict[type[Event], Callable[[DominoesState, Any], DominoesState]] = {
    TilePlayed: _tile_played,
    Passed: _passed,
    TileDrawn: _tile_drawn,
    BoneyardDrawn: _unchanged,
    HandDealt: _hand_dealt,
    HandStarted: _hand_started,
    BoneyardFormed: _boneyard_formed,
    PlayerWentOut: _hand_over,
    HandBlocked: _hand_over,
    TilesShown: _unchanged,
    HandScored: _hand_scored,
    MatchEnded: _match_ended,
}
