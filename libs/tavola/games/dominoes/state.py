"""Dominoes state (one whole match) and the fold of events into it."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

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
from tavola.games.dominoes.line import End, Ends, PlacedTile, place
from tavola.games.dominoes.timers import DEFAULT_CLOCK
from tavola.rules.interface import Event
from tavola.rules.tiles import Tile
from tavola.rules.timers import TimerSettings

Phase = Literal["deal", "play", "over"]
MODES = ("partnership", "block", "draw")
PLAYERS_OF_MODE = {"partnership": 4, "block": 2, "draw": 2}
BONEYARD_KEPT = 2  # draw mode: the last two tiles are never drawn


@dataclass(frozen=True, slots=True)
class DominoesOptions:
    mode: str = "partnership"
    target: int = 50
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


@dataclass(frozen=True, slots=True)
class PassRecord:
    """A pass of this hand and the two ends the seat could not match."""

    seat: int
    left_end: int
    right_end: int


@dataclass(frozen=True, slots=True)
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
    scores: tuple[int, ...] = (0, 0)
    last_winner: int | None = None
    hands_played: int = 0
    winner_side: int | None = None


def next_seat(state: DominoesState, seat: int) -> int:
    """Play is counter-clockwise: the next player is seat - 1 (seats are clockwise)."""
    return (seat - 1) % state.players


def side_of(seat: int) -> int:
    """Partnerships are seats {0, 2} and {1, 3}; one against one, each seat is a side."""
    return seat % 2


def evolve(state: DominoesState, event: Event) -> DominoesState:
    match event:
        case HandStarted():
            return _hand_started(state, event)
        case HandDealt(seat=seat, tiles=tiles):
            return replace(state, hands=_with_hand(state.hands, seat, tiles))
        case BoneyardFormed(tiles=tiles):
            return replace(state, boneyard=tiles)
        case TilePlayed(seat=seat, tile=tile, end=end):
            return _after_play(state, seat, tile, end)
        case TileDrawn(seat=seat, tile=tile):
            held = (*state.hands[seat], tile)
            boneyard = tuple(t for t in state.boneyard if t != tile)
            return replace(state, hands=_with_hand(state.hands, seat, held), boneyard=boneyard)
        case BoneyardDrawn() | TilesShown():
            return state
        case Passed(seat=seat, left_end=left, right_end=right):
            passes = (*state.passes, PassRecord(seat, left, right))
            return replace(state, turn=next_seat(state, seat), passes=passes)
        case PlayerWentOut() | HandBlocked():
            return replace(state, turn=None)
        case HandScored():
            return _hand_scored(state, event)
        case MatchEnded(winner_side=side):
            return replace(state, phase="over", winner_side=side)
    raise TypeError(f"not a dominoes event: {event!r}")


def _hand_started(state: DominoesState, event: HandStarted) -> DominoesState:
    return replace(
        state,
        phase="play",
        hand=event.hand,
        opener=event.opener,
        opening_rule=event.opening_rule,
        hands=((),) * state.players,
        boneyard=(),
        line=(),
        ends=None,
        turn=event.opener,
        last_player=None,
        passes=(),
    )


def _hand_scored(state: DominoesState, event: HandScored) -> DominoesState:
    over = max(event.scores) >= state.options.target
    return replace(
        state,
        scores=event.scores,
        last_winner=event.winner_seat,
        hands_played=state.hands_played + 1,
        phase="over" if over else "deal",
        turn=None,
    )


def _with_hand(
    hands: tuple[tuple[Tile, ...], ...], seat: int, tiles: tuple[Tile, ...]
) -> tuple[tuple[Tile, ...], ...]:
    return (*hands[:seat], tiles, *hands[seat + 1 :])


def _after_play(state: DominoesState, seat: int, tile: Tile, end: End | None) -> DominoesState:
    line, ends = place(state.line, state.ends, tile, end)
    hand = tuple(t for t in state.hands[seat] if t != tile)
    return replace(
        state,
        hands=_with_hand(state.hands, seat, hand),
        line=line,
        ends=ends,
        turn=next_seat(state, seat),
        last_player=seat,
    )
