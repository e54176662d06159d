"""The medium level's card play: duck when the trick is lost, win cheaply when it is not.

* A seat that bid nil (and has taken no trick) plays the **highest card that cannot win**
  the trick as it stands (on a lead: its lowest card).
* A side that already has its contract's tricks ducks: the lowest card that cannot win.
* The partner (not a nil bidder) is winning: the lowest card that cannot win.
* Otherwise the **cheapest card that wins** the trick as it stands; if none, the lowest.
* On a lead: a side-suit ace if it holds one, else the lowest legal card.

"Lowest" is the table's order (``play.low_key``): any non-spade before any spade, then rank.
"""

from __future__ import annotations

from collections.abc import Sequence

from tavola.games.spades.bots.seen import SPADE, Seen
from tavola.games.spades.play import beats, current_winner, low_key
from tavola.rules.cards import Card, Rank

Choice = tuple[Card, str]


def team_missing(seen: Seen, seat: int) -> int:
    """Tricks the seat's side still needs for its contract (nil bidders excluded)."""
    seats = (seat % 2, seat % 2 + 2)
    contract = sum(seen.bids[s] or 0 for s in seats)
    taken = sum(seen.tricks[s] for s in seats if seen.bids[s] != 0)
    return max(0, contract - taken)


def clean_nil(seen: Seen, seat: int) -> bool:
    """The seat bid nil and has not taken a trick yet."""
    return seen.bids[seat] == 0 and seen.tricks[seat] == 0


def medium_card(seen: Seen, legal: Sequence[Card]) -> Choice:
    best = current_winner(seen.trick)
    lowest = min(legal, key=low_key)
    if best is None:
        aces = [c for c in legal if c.rank == Rank.ACE and c.suit != SPADE]
        if aces and not clean_nil(seen, seen.seat):
            return min(aces, key=low_key), "cash"
        return lowest, "lead_low"
    losers = [c for c in legal if not beats(c, best.card)]
    if clean_nil(seen, seen.seat):
        if losers:
            return max(losers, key=low_key), "keep_nil"
        return lowest, "forced"
    partner_wins = best.seat == seen.partner and seen.bids[seen.partner] != 0
    if team_missing(seen, seen.seat) == 0 or partner_wins:
        reason = "partner_wins" if partner_wins else "avoid_bags"
        return (min(losers, key=low_key), reason) if losers else (lowest, "forced")
    winners = [c for c in legal if beats(c, best.card)]
    if winners:
        return min(winners, key=low_key), "win_cheaply"
    return lowest, "duck"
