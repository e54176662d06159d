"""Fan Tan (card dominoes, sevens, parliament) — ``../shared/rules/fan-tan.md``.

Variant: 3–7 players, the whole 52-card deck dealt one card at a time clockwise from the
dealer's left (hands may be unequal). Phases: ``draw_dealer`` (chance: the first dealer) →
``deal`` (chance: the shuffle of hand n) → ``play`` → ``deal`` … → ``over``.

Action encoding: a card code (``"7D"``, ``"TH"``, ``"AS"``) plays that card. ``"pass"`` is
decodable but never legal for a player: a seat that cannot play passes automatically (an
explicit ``Passed`` event), so a seat on turn always has a card to play.

Options: ``penalty`` (``per_card`` | ``card_value``), ``face_cards_ten`` (J/Q/K count 10
under ``card_value``), ``any_seven_starts`` (house rule), ``equal_hands`` (house variant:
deal ``52 // players`` each and set the rest aside unseen), ``hands`` (0 = one per player,
or unlimited when a penalty limit is set), ``penalty_limit`` (0 = none); turn timers
``timers`` and ``timer_card`` (20 s; the only decision is a card — see ``timers``).

Resolutions (the rule book is silent): a deal in which nobody can open (7♦ set aside without
``any_seven_starts``, or no seven dealt at all) is void (``DealVoided``) and redealt from
chance ``deal/N/redeal-K``; a hand in which nobody can move (only with ``equal_hands``) ends
with ``HandBlocked`` and every seat is penalised. See ``docs/games/fan-tan.md``.
"""

from tavola.games.fantan.actions import Pass, Play
from tavola.games.fantan.events import (
    CardPlayed,
    CardsSetAside,
    DealerChosen,
    DealVoided,
    HandBlocked,
    HandDealt,
    HandScored,
    HandStarted,
    HandWon,
    Passed,
)
from tavola.games.fantan.game import GAME, FanTan
from tavola.games.fantan.state import FanTanState

__all__ = [
    "GAME",
    "CardPlayed",
    "CardsSetAside",
    "DealVoided",
    "DealerChosen",
    "FanTan",
    "FanTanState",
    "HandBlocked",
    "HandDealt",
    "HandScored",
    "HandStarted",
    "HandWon",
    "Pass",
    "Passed",
    "Play",
]
