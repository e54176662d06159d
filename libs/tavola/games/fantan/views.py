"""What a seat sees of a Fan Tan match (``FanTan.view``): public table plus its own hand."""

from __future__ import annotations

from dataclasses import dataclass

from tavola.rules.cards import Card, Rank, Suit


def rank_code(value: int, suit: Suit) -> str:
    """The card code of a building rank (A=1 … K=13) in ``suit``: ``rank_code(1, D) == "AD"``."""
    rank = Rank.ACE if value == 1 else Rank(value)
    return Card(suit, rank).code


@dataclass(frozen=True, slots=True)
class RowView:
    """One open row: its suit and the codes of its two ends (``"6D"`` … ``"9D"``)."""

    suit: Suit
    low: str
    high: str


@dataclass(frozen=True, slots=True)
class FanTanView:
    """``hand`` is the viewing seat's own cards (empty for a spectator, ``seat=None``);
    everything else is public."""

    seat: int | None
    phase: str
    hand_number: int
    hands_in_match: int
    dealer: int
    turn: int | None
    hand: tuple[Card, ...]
    card_counts: tuple[int, ...]
    rows: tuple[RowView, ...]
    totals: tuple[int, ...]
