"""Dominoes events (facts, past tense).

Private: ``HandDealt`` and ``TileDrawn`` (the owner only), ``BoneyardFormed`` (nobody:
the order of the face-down boneyard, kept for the audit). Everything else is public.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import IntEnum

from tavola.games.dominoes.line import End
from tavola.rules.interface import Event
from tavola.rules.tiles import Tile


class OpeningRule(IntEnum):
    """What the opener of a hand must lay."""

    ANY = 0  # later hands: any tile
    DOUBLE_SIX = 1  # partnership, first hand: the 6-6
    HIGHEST_DOUBLE = 2  # one against one, first hand: the highest double dealt
    HEAVIEST_TILE = 3  # one against one, first hand, no double dealt: the heaviest tile


class Ending(IntEnum):
    DOMINO = 1  # a player laid their last tile (batida)
    BLOCKED = 2  # nobody could play (trancado)


class Bonus(IntEnum):
    """How the last tile of a domino went down (house-rule bonuses)."""

    NONE = 0
    CARROCA = 1  # a double (batida de carroça)
    LA_E_LO = 2  # a tile showing both (different) ends: lá-e-lô
    CRUZADA = 3  # a double fitting both ends (both ends showed its number)


@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    """A new hand: who opens, under which opening rule, and how many tiles each holds."""

    hand: int
    opener: int
    opening_rule: OpeningRule
    counts: tuple[int, ...]
    boneyard: int


@dataclass(frozen=True, slots=True)
class HandDealt(Event):
    """One seat's seven tiles; seen by that seat only."""

    hand: int
    seat: int
    tiles: tuple[Tile, ...]

    def audience(self) -> frozenset[int] | None:
        return frozenset((self.seat,))


@dataclass(frozen=True, slots=True)
class BoneyardFormed(Event):
    """The undealt tiles (one against one) in drawing order; seen by nobody."""

    hand: int
    tiles: tuple[Tile, ...]

    def audience(self) -> frozenset[int] | None:
        return frozenset()


@dataclass(frozen=True, slots=True)
class TilePlayed(Event):
    """A tile laid on ``end`` (``None`` for the opening tile); the line's ends after it."""

    hand: int
    seat: int
    tile: Tile
    end: End | None
    left_end: int
    right_end: int


_TILE_PLAYED_SLOTS = tuple(getattr(TilePlayed, field.name).__set__ for field in fields(TilePlayed))


def tile_played(
    hand: int, seat: int, tile: Tile, end: End | None, left_end: int, right_end: int
) -> TilePlayed:
    """``TilePlayed(hand, seat, tile, end, left_end, right_end)``, filled slot by slot as
    its generated ``__init__`` does, without going through ``object.__setattr__`` per
    field: the rules decide one per tile laid, the hottest event of every playout."""
    event: TilePlayed = object.__new__(TilePlayed)
    set_hand, set_seat, set_tile, set_end, set_left, set_right = _TILE_PLAYED_SLOTS
    set_hand(event, hand)
    set_seat(event, seat)
    set_tile(event, tile)
    set_end(event, end)
    set_left(event, left_end)
    set_right(event, right_end)
    return event


@dataclass(frozen=True, slots=True)
class TileDrawn(Event):
    """Draw mode: the tile a seat took from the boneyard; seen by that seat only."""

    hand: int
    seat: int
    tile: Tile

    def audience(self) -> frozenset[int] | None:
        return frozenset((self.seat,))


@dataclass(frozen=True, slots=True)
class BoneyardDrawn(Event):
    """Draw mode, public side of a draw: who drew one tile and how many remain."""

    hand: int
    seat: int
    boneyard_left: int


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """A seat with no tile that fits passed (automatic); the ends it could not match."""

    hand: int
    seat: int
    left_end: int
    right_end: int


@dataclass(frozen=True, slots=True)
class PlayerWentOut(Event):
    """Domino (batida): ``seat`` laid its last tile, ``tile``, with ``bonus`` kind."""

    hand: int
    seat: int
    tile: Tile
    bonus: Bonus


@dataclass(frozen=True, slots=True)
class HandBlocked(Event):
    """Nobody can play (trancado); ``blocker`` laid the tile that blocked it."""

    hand: int
    blocker: int
    left_end: int
    right_end: int


@dataclass(frozen=True, slots=True)
class TilesShown(Event):
    """After the hand: the tiles a seat still held, face up for the count."""

    hand: int
    seat: int
    tiles: tuple[Tile, ...]
    pips: int


@dataclass(frozen=True, slots=True)
class HandScored(Event):
    """The itemised result of a hand. Sides: seat % 2 (one against one: each seat).

    ``points = base_points + bonus_points`` goes to ``winner_side`` (``None``: a blocked
    tie under ``nobody_scores``); ``scores`` are the sides' totals of the game after it
    (the match's, with ``best_of`` 1). Scores reaching the target win the game: in a
    series, the next game starts from 0 (there is no event of its own for that).
    """

    hand: int
    ending: Ending
    winner_side: int | None
    winner_seat: int | None
    blocker: int | None
    tied: bool
    seat_pips: tuple[int, ...]
    side_pips: tuple[int, ...]
    base_points: int
    bonus: Bonus
    bonus_points: int
    points: int
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    """A side won the match: it reached the target after a hand (in a series, winning
    the last game it needed). The scores are the points per side; in a series, the games
    won per side.

    A series' points of each game are in that game's last ``HandScored``."""

    winner_side: int
    winners: tuple[int, ...]
    scores: tuple[int, ...]
