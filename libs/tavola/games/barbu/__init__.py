"""Barbu — ``../shared/rules/barbu.md``.

Variant: 4 players, each for themselves, 52 cards (A high). A match is one session of 28
deals: the first declarer is drawn (chance ``"first-declarer"``, a draw of 4) and keeps the
role for 7 deals, choosing each of the 7 contracts once after seeing their 13 cards; then
the role passes left (seat + 1). The dealer is the declarer's right (seat - 1), the cutter
sits opposite; each deal is a shuffle of 52 (chance ``"deal/N"``, N = 1..28) dealt 13 each
clockwise from the declarer.

Phases: ``draw`` → ``deal`` (chance) → ``contract`` (declarer) → ``doubling`` (one turn
each, declarer's left first, declarer last; skipped with ``no_doubling``) → ``play``
(tricks, or Domino) → ``deal`` … → ``over`` after deal 28.

Action codes (each action has exactly one):

* contract: ``"contract no-tricks"``, ``"contract no-queens"``, ``"contract no-last-two"``,
  ``"contract no-hearts"``, ``"contract no-king"``, ``"contract trumps S"`` (trump suit
  letter C D H S), ``"contract domino 7"`` (starting rank letter 2-9 T J Q K A);
* doubling turn: ``"pass"`` (double nobody) or ``"double 1 3"`` (every seat doubled at
  once, ascending seat numbers; the declarer's doubles are redoubles);
* card: its code, ``"7D"``, ``"TH"``, ``"AS"``.

Automatic events: a declarer whom nobody doubled passes (``DoublesDeclared`` with
``automatic=True``); a Domino seat with no playable card passes (``Passed``). An early end
(every scoring card captured) is a ``DealEndedEarly`` fact.

Options: ``fixed_order`` (variant: contracts in the book's order), ``no_doubling``
(variant), ``play_out_all_tricks`` (house rule: no early end), ``void_must_trump`` (house
rule: when void in the suit led, a trump must be played even if it cannot win), ``blocks``;
turn timers ``timers``, ``timer_contract`` (45 s), ``timer_double`` (20), ``timer_card``
(25), ``timer_domino`` (20) — see ``timers``.
"""

from tavola.games.barbu.actions import BarbuAction, ChooseContract, Double, PlayCard
from tavola.games.barbu.contracts import Contract
from tavola.games.barbu.events import (
    CardPlayed,
    ContractChosen,
    DealEndedEarly,
    DealScored,
    DealStarted,
    DoublesDeclared,
    FirstDeclarerDrawn,
    HandDealt,
    PairSettlement,
    Passed,
    SessionEnded,
    TrickWon,
    WentOut,
)
from tavola.games.barbu.game import GAME, Barbu
from tavola.games.barbu.state import BarbuOptions, BarbuState
from tavola.games.barbu.views import BarbuView

__all__ = [
    "GAME",
    "Barbu",
    "BarbuAction",
    "BarbuOptions",
    "BarbuState",
    "BarbuView",
    "CardPlayed",
    "ChooseContract",
    "Contract",
    "ContractChosen",
    "DealEndedEarly",
    "DealScored",
    "DealStarted",
    "Double",
    "DoublesDeclared",
    "FirstDeclarerDrawn",
    "HandDealt",
    "PairSettlement",
    "Passed",
    "PlayCard",
    "SessionEnded",
    "TrickWon",
    "WentOut",
]
