"""What one seat (or a spectator) may see: its own tiles, never another seat's."""

from __future__ import annotations

from dataclasses import dataclass

from tavola.games.dominoes.deal import required_opening
from tavola.games.dominoes.events import OpeningRule
from tavola.games.dominoes.line import PlacedTile
from tavola.games.dominoes.state import DominoesState, PassRecord
from tavola.rules.tiles import Tile


@dataclass(frozen=True, slots=True)
class DominoesView:
    seat: int | None
    mode: str
    phase: str
    hand_number: int
    opener: int | None
    opening_rule: OpeningRule
    must_open_with: Tile | None  # shown to the opener only
    turn: int | None
    hand: tuple[Tile, ...]
    line: tuple[PlacedTile, ...]
    left_end: int | None
    right_end: int | None
    tile_counts: tuple[int, ...]
    boneyard_count: int
    passes: tuple[PassRecord, ...]
    last_player: int | None
    scores: tuple[int, ...]  # per side: seat % 2, in the current game
    target: int
    winner_side: int | None
    best_of: int  # 1: one game; 3 or 5: a series of games, each to the target
    games_won: tuple[int, ...]  # per side, in the match (a series' score)


def view_of(state: DominoesState, seat: int | None) -> DominoesView:
    own = state.hands[seat] if seat is not None and state.hands else ()
    ends = state.ends
    opens = seat is not None and seat == state.opener
    return DominoesView(
        seat=seat,
        mode=state.options.mode,
        phase=state.phase,
        hand_number=state.hand,
        opener=state.opener,
        opening_rule=state.opening_rule,
        must_open_with=required_opening(state) if opens else None,
        turn=state.turn,
        hand=own,
        line=state.line,
        left_end=None if ends is None else ends[0],
        right_end=None if ends is None else ends[1],
        tile_counts=tuple(len(h) for h in state.hands),
        boneyard_count=len(state.boneyard),
        passes=state.passes,
        last_player=state.last_player,
        scores=state.scores,
        target=state.options.target,
        winner_side=state.winner_side,
        best_of=state.options.best_of,
        games_won=state.games_won,
    )
