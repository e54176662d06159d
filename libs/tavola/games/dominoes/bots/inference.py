"""What a seat can know and infer, from its view and the events it was shown — nothing else.

* **Counting:** the unseen tiles are the 28 minus the seat's own and those on the line; the
  view gives how many each other seat holds and how many lie in the boneyard.
* **Passes:** a seat that passed holds no tile with either end it could not match. Without
  drawing nobody gains tiles, so the void lasts for the rest of the hand.
* **Draws (draw mode):** a seat draws only when nothing in its hand fits, and keeps drawing
  until a drawn tile fits (which it must then play: it is its only fitting tile), so after
  the draws it still lacks both ends. The drawn tiles are unseen and may hold anything
  else, so a draw *replaces* the seat's earlier inferences by the two ends.
* **First-hand openings (one against one):** a highest double opening means no higher
  double was dealt to anyone (they are in the boneyard); a heaviest-tile opening means no
  double and nothing heavier was dealt. These hold until the seat draws.

Tiles are handled as indices 0..27 of the standard set order (fast and hashable).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from tavola.bots.interface import Knowledge
from tavola.games.dominoes.deal import weight
from tavola.games.dominoes.events import (
    BoneyardDrawn,
    HandStarted,
    OpeningRule,
    Passed,
    TilePlayed,
)
from tavola.games.dominoes.game import GAME
from tavola.games.dominoes.state import DominoesOptions
from tavola.games.dominoes.timers import TIMERS
from tavola.games.dominoes.views import DominoesView
from tavola.rules.interface import Event
from tavola.rules.tiles import Tile, double_six_set

TILES: tuple[Tile, ...] = double_six_set()
INDEX: dict[Tile, int] = {tile: i for i, tile in enumerate(TILES)}
HIGH: tuple[int, ...] = tuple(t.high for t in TILES)
LOW: tuple[int, ...] = tuple(t.low for t in TILES)
PIPS: tuple[int, ...] = tuple(t.pips for t in TILES)
MASK: tuple[int, ...] = tuple((1 << t.high) | (1 << t.low) for t in TILES)
DOUBLE: tuple[bool, ...] = tuple(t.is_double for t in TILES)
ALL_NUMBERS = 0b1111111


@dataclass
class Inference:
    """One seat's knowledge of a hand in play (all fields derived from its view/history)."""

    seat: int
    players: int
    mode: str
    options: DominoesOptions
    hand: list[int]
    ends: tuple[int, int] | None
    counts: tuple[int, ...]
    boneyard: int
    unseen: list[int]
    void: list[int] = field(default_factory=list)  # per seat: bitmask of numbers it lacks
    excluded: list[set[int]] = field(default_factory=list)  # per seat: tiles it cannot hold
    scores: tuple[int, ...] = (0, 0)
    target: int = 50

    def can_hold(self, seat: int, tile: int) -> bool:
        return not (MASK[tile] & self.void[seat]) and tile not in self.excluded[seat]

    def others(self) -> list[int]:
        """The other seats in playing order after this one (counter-clockwise)."""
        return [(self.seat - step) % self.players for step in range(1, self.players)]

    def partner(self) -> int | None:
        return (self.seat + 2) % 4 if self.players == 4 else None

    def lacks(self, seat: int, number: int) -> bool:
        """Inferred for sure: ``seat`` holds no tile showing ``number``."""
        return bool(self.void[seat] >> number & 1) or not any(
            self.can_hold(seat, t) for t in self.unseen if MASK[t] >> number & 1
        )


def options_of(knowledge: Knowledge, mode: str) -> DominoesOptions:
    return _options(knowledge.options, mode)


@lru_cache(maxsize=64)
def _options(table: tuple[tuple[str, str], ...], mode: str) -> DominoesOptions:
    """The table's options, parsed once per table (a value: its decisions share it)."""
    values = GAME.parse_options(dict(table))
    values["mode"] = mode
    rest, clock = TIMERS.split(values)
    return DominoesOptions(**rest, clock=clock)  # type: ignore[arg-type]


def infer(knowledge: Knowledge) -> Inference:
    view: DominoesView = knowledge.view
    seat = knowledge.seat
    hand = sorted(INDEX[t] for t in view.hand)
    on_line = {INDEX[p.tile] for p in view.line}
    mine = set(hand)
    ends = (
        None if view.left_end is None or view.right_end is None else (view.left_end, view.right_end)
    )
    info = Inference(
        seat=seat,
        players=knowledge.players,
        mode=view.mode,
        options=options_of(knowledge, view.mode),
        hand=hand,
        ends=ends,
        counts=view.tile_counts,
        boneyard=view.boneyard_count,
        unseen=[t for t in range(len(TILES)) if t not in mine and t not in on_line],
        void=[0] * knowledge.players,
        excluded=[set() for _ in range(knowledge.players)],
        scores=view.scores,
        target=view.target,
    )
    _read_history(info, current_hand(knowledge.history, view.hand_number))
    info.void[seat] = 0
    info.excluded[seat] = set()
    return info


def current_hand(history: Sequence[Event], number: int) -> list[Event]:
    """The events of hand ``number`` (from its ``HandStarted`` on)."""
    start = 0
    for i, event in enumerate(history):
        if isinstance(event, HandStarted) and event.hand == number:
            start = i
    return list(history[start:])


def _read_history(info: Inference, events: Sequence[Event]) -> None:
    started: HandStarted | None = None
    ends: tuple[int, int] | None = None
    for event in events:
        if isinstance(event, HandStarted):
            started = event
        elif isinstance(event, TilePlayed):
            if event.end is None and started is not None:
                _opening_inference(info, started, event.tile)
            ends = (event.left_end, event.right_end)
        elif isinstance(event, Passed):
            info.void[event.seat] |= (1 << event.left_end) | (1 << event.right_end)
        elif isinstance(event, BoneyardDrawn) and ends is not None:
            info.void[event.seat] = (1 << ends[0]) | (1 << ends[1])
            info.excluded[event.seat] = set()


def _opening_inference(info: Inference, started: HandStarted, opening: Tile) -> None:
    """What the first-hand opening rule says about the deal (one against one)."""
    rule = started.opening_rule
    if rule is OpeningRule.HIGHEST_DOUBLE:
        banned = {INDEX[t] for t in TILES if t.is_double and t.high > opening.high}
    elif rule is OpeningRule.HEAVIEST_TILE:
        banned = {INDEX[t] for t in TILES if t.is_double or weight(t) > weight(opening)}
    else:
        return
    for seat in range(info.players):
        info.excluded[seat] |= banned
