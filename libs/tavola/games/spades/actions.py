"""Spades actions: a bid (``"bid 4"``, ``"nil"``), a card (``"QS"``), or a blind nil
(``"blind nil"``: decodable so it can be refused with a reason, never legal)."""

from __future__ import annotations

from dataclasses import dataclass

from tavola.rules.cards import Card
from tavola.rules.interface import Action


@dataclass(frozen=True, slots=True)
class Bid(Action):
    """A bid of ``tricks`` (0 is nil). Out-of-range numbers decode and are refused."""

    tricks: int


@dataclass(frozen=True, slots=True)
class BlindNil(Action):
    """Nil bid before seeing one's cards: not played at our tables."""


@dataclass(frozen=True, slots=True)
class Play(Action):
    card: Card


SpadesAction = Bid | BlindNil | Play
