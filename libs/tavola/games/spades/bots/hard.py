"""The hard level's card play: counts the cards and reads the voids.

From ``Seen`` it knows every unseen card and which seats cannot hold a suit. A card is
**sure** when it wins the trick as it stands and no opponent still to play can beat it:
none may hold a higher card of its suit, and none void in the suit led may ruff (or
over-ruff). The seat then picks a goal, in this order:

1. **keep its nil** (bid nil, no trick yet): the highest card that loses; discard the
   highest side card when void; lead its lowest card;
2. **cover the partner's nil**: win the trick above the partner (a sure card if it has
   one, else its highest); lead high;
3. **set an opponent's nil**: lead low in a suit the nil bidder may hold; play low while
   the nil bidder is still to play; never overtake the nil bidder's winning card;
4. **take tricks** while the side's contract needs them, or to set the opponents when
   two more tricks would do it: cash sure cards (side masters, then the master spade);
   lead a suit the partner is void in for a ruff; otherwise lead low. Following: let a
   partner's sure card ride; win with the cheapest sure card; second hand low, third hand
   high; ruff cheaply; else discard the lowest card;
5. **avoid bags** once the contract is made: the highest card that loses; lead low.
"""

from __future__ import annotations

from collections.abc import Sequence

from tavola.games.spades.bots.medium import Choice, clean_nil, team_missing
from tavola.games.spades.bots.seen import SPADE, Seen
from tavola.games.spades.play import beats, current_winner, low_key
from tavola.rules.cards import Card, PlayedCard, Suit


class Reading:
    """The trick in progress, read with card counting and inferred voids."""

    def __init__(self, seen: Seen) -> None:
        self.seen = seen
        self.best: PlayedCard | None = current_winner(seen.trick)
        self.position = len(seen.trick)
        self.later = [(seen.seat + k) % 4 for k in range(1, 4 - self.position)]
        self.top: dict[Suit, int] = {s: 0 for s in Suit}
        for c in seen.unseen():
            self.top[c.suit] = max(self.top[c.suit], int(c.rank))

    def opponents_later(self) -> list[int]:
        return [s for s in self.later if s % 2 != self.seen.seat % 2]

    def threatened(self, card: Card, led: Suit) -> bool:
        """Whether an opponent still to play may beat ``card`` (played to a ``led`` trick)."""
        for o in self.opponents_later():
            holds_led = self.seen.may_hold(o, led)
            if card.suit == led:
                if holds_led and self.top[led] > card.rank:
                    return True
                if not holds_led and led != SPADE and self._may_ruff(o):
                    return True
            elif card.suit == SPADE and not holds_led and self._may_ruff(o, card):
                return True
        return False

    def _may_ruff(self, seat: int, over: Card | None = None) -> bool:
        if not self.seen.may_hold(seat, SPADE):
            return False
        return self.top[SPADE] > (over.rank if over else 0)

    def wins_now(self, card: Card) -> bool:
        return self.best is None or beats(card, self.best.card)

    def sure(self, card: Card) -> bool:
        led = self.seen.led or card.suit
        return self.wins_now(card) and not self.threatened(card, led)


def _lowest(cards: Sequence[Card]) -> Card:
    return min(cards, key=low_key)


def _highest(cards: Sequence[Card]) -> Card:
    return max(cards, key=low_key)


def _losers(r: Reading, legal: Sequence[Card]) -> list[Card]:
    return [c for c in legal if not r.wins_now(c)]


def _keep_nil(r: Reading, legal: Sequence[Card]) -> Choice:
    if r.best is None:
        return _lowest(legal), "keep_nil"
    losers = _losers(r, legal)
    if losers:
        side = [c for c in losers if c.suit != SPADE]
        return _highest(side or losers), "keep_nil"
    return _lowest(legal), "forced"


def _cover_nil(r: Reading, legal: Sequence[Card]) -> Choice:
    seen = r.seen
    if r.best is None:
        sure = [c for c in legal if r.sure(c)]
        side = [c for c in legal if c.suit != SPADE]
        return (_lowest(sure) if sure else _highest(side or legal)), "cover_nil"
    partner_played = any(p.seat == seen.partner for p in seen.trick)
    if partner_played and r.best.seat != seen.partner:
        return _take_tricks(r, legal) if team_missing(seen, seen.seat) else _avoid_bags(r, legal)
    winners = [c for c in legal if r.wins_now(c)]
    if not winners:
        return _lowest(legal), "cover_nil"
    sure = [c for c in winners if r.sure(c)]
    return (_lowest(sure) if sure else _highest(winners)), "cover_nil"


def _set_nil(r: Reading, legal: Sequence[Card], nils: list[int]) -> Choice | None:
    seen = r.seen
    if r.best is None:
        target = [c for c in legal if any(seen.may_hold(n, c.suit) for n in nils)]
        return (min(target, key=lambda c: (c.rank, c.suit == SPADE)), "set_nil") if target else None
    led = seen.led
    assert led is not None
    for n in nils:
        if r.best.seat == n:
            losers = _losers(r, legal)
            return (_highest(losers), "set_nil") if losers else None
        if n in r.later and seen.may_hold(n, led):
            return _lowest(legal), "set_nil"
    return None


def _lead_for_tricks(r: Reading, legal: Sequence[Card]) -> Choice:
    seen = r.seen
    sure = [c for c in legal if r.sure(c)]
    side_sure = [c for c in sure if c.suit != SPADE]
    if side_sure:
        return _lowest(side_sure), "cash"
    if sure:
        return _lowest(sure), "cash"
    if seen.bids[seen.partner] != 0 and seen.may_hold(seen.partner, SPADE):
        ruffs = [
            c
            for c in legal
            if c.suit != SPADE
            and not seen.may_hold(seen.partner, c.suit)
            and all(seen.may_hold(o, c.suit) for o in ((seen.seat + 1) % 4, (seen.seat + 3) % 4))
        ]
        if ruffs:
            return _lowest(ruffs), "partner_ruff"
    return _lowest(legal), "lead_low"


def _take_tricks(r: Reading, legal: Sequence[Card]) -> Choice:
    seen = r.seen
    if r.best is None:
        return _lead_for_tricks(r, legal)
    losers = _losers(r, legal)
    partner_wins = r.best.seat == seen.partner
    if partner_wins and not r.threatened(r.best.card, seen.led or r.best.card.suit) and losers:
        return _lowest(losers), "partner_wins"
    winners = [c for c in legal if r.wins_now(c)]
    sure = [c for c in winners if r.sure(c)]
    if sure:
        return _lowest(sure), "win_sure"
    if partner_wins and losers:
        return _lowest(losers), "partner_wins"
    if winners:
        following = [c for c in winners if c.suit == seen.led]
        if r.position == 1 and following and losers:
            return _lowest(losers), "second_low"
        return (_highest(following) if following else _lowest(winners)), "win"
    return _lowest(legal), "duck"


def _avoid_bags(r: Reading, legal: Sequence[Card]) -> Choice:
    if r.best is None:
        return _lowest(legal), "avoid_bags"
    losers = _losers(r, legal)
    if losers:
        side = [c for c in losers if c.suit != SPADE]
        return _highest(side or losers), "avoid_bags"
    return (_highest(legal) if not r.later else _lowest(legal)), "forced"


def wants_tricks(seen: Seen) -> bool:
    """The side needs tricks for its contract, or two more would set the opponents."""
    if team_missing(seen, seen.seat) > 0:
        return True
    theirs = team_missing(seen, seen.seat + 1)
    return 0 < theirs <= seen.tricks_left and seen.tricks_left - theirs + 1 <= 2


def hard_card(seen: Seen, legal: Sequence[Card]) -> Choice:
    if len(legal) == 1:
        return legal[0], "only"
    r = Reading(seen)
    if clean_nil(seen, seen.seat):
        return _keep_nil(r, legal)
    if clean_nil(seen, seen.partner):
        return _cover_nil(r, legal)
    nils = [o for o in ((seen.seat + 1) % 4, (seen.seat + 3) % 4) if clean_nil(seen, o)]
    if nils and (chosen := _set_nil(r, legal, nils)) is not None:
        return chosen
    if wants_tricks(seen):
        return _take_tricks(r, legal)
    return _avoid_bags(r, legal)
