"""Spades — ``../shared/rules/spades.md`` (original ``seeds/spades.pt.txt``).

Variant: four players in two partnerships (seats 0+2 = team 0, seats 1+3 = team 1),
52 cards ace high, 13 each, spades always trumps; bids 0..13 where 0 is nil (no blind
nil); a match is played to 500 (or down to -200) with an extra hand while exactly tied.

Phases: ``draw_dealer`` (chance "first-dealer": a draw of 4) → ``deal`` (chance "deal/N":
a shuffle of 52, dealt one at a time from the dealer's left; the dealer moves one seat
left every hand) → ``bidding`` (from the dealer's left, once each) → ``play`` (13 tricks,
the dealer's left leads first) → ``deal`` … → ``over``.

Action encoding (stable):

* ``"bid N"`` for N = 1..13 and ``"nil"`` for a bid of 0 (``"bid 0"`` also decodes to
  nil). Other numbers decode and are refused (``spades.bid_out_of_range``).
* ``"blind nil"`` decodes and is always refused (``spades.no_blind_nil``).
* A card code (``"7D"``, ``"TH"``, ``"AS"``; ``"10H"`` and ``"7♦"`` also decode) plays it.

Events: ``DealerChosen``, ``HandStarted``, ``HandDealt`` (private to its seat),
``BidMade``, ``PlayStarted``, ``CardPlayed``, ``SpadesBroken``, ``TrickTaken``,
``HandScored`` (every score line per team), ``ExtraHandCalled``, ``MatchEnded``.

Timers (``timers``: table options ``timers``, ``timer_bid`` 30 s, ``timer_card`` 25 s —
the rule book's, never house rules): a bid timer bids ``bidding.suggested_bid`` (never
nil); a card timer plays ``views.safe_card_for`` — both deterministic, documented there.
No pauses between hands. For match length the table may change ``target`` (500),
``floor`` (−200) and ``hands`` (0: play to the target or floor; N: at most N hands, the
target and floor still ending the match early) — each change is a house rule.
"""

from tavola.games.spades.actions import Bid, BlindNil, Play, SpadesAction
from tavola.games.spades.bidding import suggested_bid
from tavola.games.spades.events import (
    BidMade,
    CardPlayed,
    DealerChosen,
    ExtraHandCalled,
    HandDealt,
    HandScored,
    HandStarted,
    MatchEnded,
    NilResult,
    PlayStarted,
    SpadesBroken,
    TeamSettlement,
    TrickTaken,
)
from tavola.games.spades.game import GAME, Spades
from tavola.games.spades.state import SpadesState
from tavola.games.spades.views import SeatView, SpadesView, TeamView, safe_card_for

__all__ = [
    "GAME",
    "Bid",
    "BidMade",
    "BlindNil",
    "CardPlayed",
    "DealerChosen",
    "ExtraHandCalled",
    "HandDealt",
    "HandScored",
    "HandStarted",
    "MatchEnded",
    "NilResult",
    "Play",
    "PlayStarted",
    "SeatView",
    "Spades",
    "SpadesAction",
    "SpadesBroken",
    "SpadesState",
    "SpadesView",
    "TeamSettlement",
    "TeamView",
    "TrickTaken",
    "safe_card_for",
    "suggested_bid",
]
