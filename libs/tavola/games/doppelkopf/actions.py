"""Doppelkopf actions (see the package docstring for their codes)."""

from __future__ import annotations

from dataclasses import dataclass

from tavola.games.doppelkopf.model import Call, Reservation
from tavola.rules.cards import Card
from tavola.rules.interface import Action, Deferral


@dataclass(frozen=True, slots=True)
class Declare(Action):
    """ "healthy" or a reservation ("wedding", "solo Q", …), before the first card."""

    reservation: Reservation


@dataclass(frozen=True, slots=True)
class AnswerPoverty(Action):
    """ "accept" or "decline" an Armut."""

    accept: bool


@dataclass(frozen=True, slots=True)
class GiveBack(Action):
    """ "give 9S": the Armut partner returns one card to the poor player."""

    card: Card


@dataclass(frozen=True, slots=True)
class Announce(Action):
    """ "re", "kontra", "no 90", "no 60", "no 30", "schwarz"."""

    call: Call


@dataclass(frozen=True, slots=True)
class Play(Action):
    card: Card


@dataclass(frozen=True, slots=True)
class Wait(Deferral):
    """ "wait": a seat that may only announce (another seat is to play) lets its
    announcements pass until the next card or announcement at the table."""


DokoAction = Declare | AnswerPoverty | GiveBack | Announce | Play | Wait
