"""Doppelkopf — ``../shared/rules/doppelkopf.md`` (DDV tournament rules as "official").

Variant: 4 or 5 players (with five the dealer sits out each game); a double deck of 48
cards (A 10 K Q J 9, twice), 12 each, or 40 / 10 each without nines. Re (♣Q) against
Kontra; Hochzeit, silent wedding, Queen/Jack/Suit/Fleischlos solos; announcements and
denials with deadlines; DDV game value with special points; house rules as options.

Phases: ``draw_dealer`` (chance "first-dealer") → ``deal`` (chance "deal/N", a shuffle of
48 or 40; N counts every deal, redeals included) → ``reservations`` (all four seats act at
once; choices private until all have declared) → [``poverty_offer`` → ``poverty_return``]
→ ``play`` (the seat on turn plays; any seat holding a legal announcement may announce at
any time, so it is in ``to_act`` too, unless it chose to ``wait``) → ``deal`` … → ``over``.

Action codes (case-insensitive on input):

* reservations: ``healthy``, ``wedding``, ``poverty`` (Armut), ``throw`` (Schmeißen),
  ``solo Q`` (queens), ``solo J`` (jacks), ``solo C`` / ``solo S`` / ``solo H`` /
  ``solo D`` (suit solos), ``solo F`` (Fleischlos);
* Armut: ``accept`` / ``decline``, then ``give 9S`` once per card given back;
* announcements: ``re``, ``kontra``, ``no 90``, ``no 60``, ``no 30``, ``schwarz`` (a
  denial names the announcer's party implicitly; skipped levels are announced with it);
  ``wait``: a seat that may only announce lets its announcements pass until the next card
  or announcement (the automatic move of such a seat);
* play: a card code, ``QC`` (♣Q), ``TH`` (♥10), ``9D`` …

Options: ``match`` (``one_game``, ``1_round``, ``2_rounds``, ``3_rounds``, ``to_10``,
``to_20``, ``to_30``) and the house rules ``second_dulle``, ``schweinchen``, ``armut``,
``schmeissen``, ``fuchs_am_end``, ``karlchen_fangen``, ``bockrunde``, ``pflichtsolo``,
``without_nines``; presets ``official`` and ``tavern``; turn timers ``timers``,
``timer_reservation`` (20 s), ``timer_poverty`` (20), ``timer_return`` (15), ``timer_card``
(25) — see ``timers``. Pauses: 20 s between games, 10 s after the last one.
"""

from tavola.games.doppelkopf.actions import (
    Announce,
    AnswerPoverty,
    Declare,
    GiveBack,
    Play,
    Wait,
)
from tavola.games.doppelkopf.game import GAME, Doppelkopf
from tavola.games.doppelkopf.model import Call, Contract, Party, Reservation
from tavola.games.doppelkopf.state import Deal, DokoState

__all__ = [
    "GAME",
    "Announce",
    "AnswerPoverty",
    "Call",
    "Contract",
    "Deal",
    "Declare",
    "DokoState",
    "Doppelkopf",
    "GiveBack",
    "Party",
    "Play",
    "Reservation",
    "Wait",
]
