"""Reservations, Armut and announcements of the medium and hard levels (with reasons).

Hand strength counts the tricks a hand should take: each trump weighs by its place in the
contract's trump order, plain aces (and a ten behind an ace) add, plain voids help a long
trump hand. Medium counts plainly (trumps and aces); hard weighs the places.

* Reservations: five nines are thrown (Schmeißen); a solo is declared when its strength
  reaches ``SOLO``; both ♣Q make a wedding (hard keeps a very strong one silent: healthy);
  Armut with at most two trumps (hard: three low ones too); otherwise healthy.
* Armut: accept with a long, high trump hand; give back the plain cards worth least,
  shortest suits first (voids), then the lowest trumps.
* Announcements: Re/Kontra when the hand is strong at its first cards; hard also answers
  more readily as an answer to the other party's call; a seat asked only for a call
  (another seat is on turn: the driver gave it the move) makes the lowest one it may.
"""

from __future__ import annotations

from collections.abc import Sequence

from tavola.games.doppelkopf.actions import Announce
from tavola.games.doppelkopf.announcements import CALL_CODES
from tavola.games.doppelkopf.bots.infer import Seen
from tavola.games.doppelkopf.model import Contract, Party, Reservation
from tavola.games.doppelkopf.trumps import POINTS, card_rules, trump_order
from tavola.rules.cards import Card, Rank
from tavola.rules.errors import Reason

SOLO = 10.0  # strength (about tricks) for a voluntary solo
SILENT = 10.5  # hard: strength of a ♦ solo to keep a wedding silent
ANNOUNCE_MEDIUM = 7  # trumps (with two of the top four) for Re/Kontra
ANNOUNCE_HARD = 6.3  # strength for Re/Kontra


def strength(hand: Sequence[Card], contract: Contract, weighted: bool = True) -> float:
    rules = card_rules(contract)
    order = trump_order(contract)
    score = 0.0
    trumps = [c for c in hand if rules.is_trump(c)]
    for c in trumps:
        place = order.index(c)
        if not weighted:
            score += 0.7
        elif place == 0:
            score += 1.0
        else:
            score += max(0.35, 0.95 - place * 0.05 * (13 / max(len(order), 1)))
    by_suit: dict[int, list[Card]] = {}
    for c in hand:
        if not rules.is_trump(c):
            by_suit.setdefault(rules.kind[c], []).append(c)
    for cards in by_suit.values():
        aces = sum(1 for c in cards if c.rank == Rank.ACE)
        score += [0.0, 0.9, 1.5][min(aces, 2)]
        if weighted and aces and any(c.rank == Rank.TEN for c in cards):
            score += 0.3
    if weighted and order and len(trumps) >= 6:
        plain_kinds = {rules.kind[c] for c in card_rules(contract).kind if not rules.is_trump(c)}
        score += 0.4 * len(plain_kinds - set(by_suit))
    return score


SOLO_OF = {
    Reservation.QUEEN_SOLO: Contract.QUEEN_SOLO,
    Reservation.JACK_SOLO: Contract.JACK_SOLO,
    Reservation.CLUBS_SOLO: Contract.CLUBS_SOLO,
    Reservation.SPADES_SOLO: Contract.SPADES_SOLO,
    Reservation.HEARTS_SOLO: Contract.HEARTS_SOLO,
    Reservation.DIAMONDS_SOLO: Contract.DIAMONDS_SOLO,
    Reservation.FLEISCHLOS: Contract.FLEISCHLOS,
}


def _hint(code: str, **params: str | int) -> Reason:
    return Reason.of(f"doppelkopf.hint.{code}", **params)


def reservation(
    hand: Sequence[Card], legal: Sequence[Reservation], hard: bool
) -> tuple[Reservation, Reason]:
    solos = [r for r in legal if r.is_solo]
    best = max(solos, key=lambda r: (strength(hand, SOLO_OF[r], hard), -r)) if solos else None
    if Reservation.THROW in legal:
        return Reservation.THROW, _hint("throw")
    if best is not None and (
        Reservation.HEALTHY not in legal or strength(hand, SOLO_OF[best], hard) >= SOLO
    ):
        return best, _hint("solo", solo=_solo_code(best))
    if Reservation.WEDDING in legal:
        if hard and strength(hand, Contract.DIAMONDS_SOLO) >= SILENT:
            return Reservation.HEALTHY, _hint("silent_wedding")
        return Reservation.WEDDING, _hint("wedding")
    if Reservation.POVERTY in legal and _poor(hand, hard):
        return Reservation.POVERTY, _hint("poverty")
    return Reservation.HEALTHY, _hint("healthy")


def _solo_code(r: Reservation) -> str:
    return {
        Reservation.QUEEN_SOLO: "Q",
        Reservation.JACK_SOLO: "J",
        Reservation.CLUBS_SOLO: "C",
        Reservation.SPADES_SOLO: "S",
        Reservation.HEARTS_SOLO: "H",
        Reservation.DIAMONDS_SOLO: "D",
    }.get(r, "F")


def _poor(hand: Sequence[Card], hard: bool) -> bool:
    rules = card_rules(Contract.NORMAL)
    trumps = [c for c in hand if rules.is_trump(c)]
    if len(trumps) <= 2:
        return True
    return hard and all(rules.power[c] < rules.power[Card(c.suit, Rank.QUEEN)] for c in trumps)


def accept_poverty(hand: Sequence[Card], hard: bool) -> tuple[bool, Reason]:
    rules = card_rules(Contract.NORMAL)
    trumps = sum(1 for c in hand if rules.is_trump(c))
    good = strength(hand, Contract.NORMAL, hard) >= 7.0 if hard else trumps >= 8
    return good, _hint("accept" if good else "decline")


def give_back(seen: Seen, cards: Sequence[Card]) -> tuple[Card, Reason]:
    """Plain cards worth least from the shortest suits first, then the lowest trumps."""
    rules = seen.rules
    plain = [c for c in cards if not rules.is_trump(c) and c.rank != Rank.ACE]
    if plain:
        length = {k: sum(1 for c in seen.hand if rules.kind[c] == k) for k in range(4)}
        card = min(plain, key=lambda c: (length[rules.kind[c]], POINTS[c.rank], c))
    else:
        card = min(cards, key=lambda c: (rules.is_trump(c), rules.power[c], POINTS[c.rank], c))
    return card, _hint("give", card=card.code)


def forced_call(calls: Sequence[Announce]) -> tuple[Announce, Reason]:
    call = min(calls, key=lambda a: a.call.level)
    return call, _hint("forced_call", call=CALL_CODES[call.call])


def medium_call(seen: Seen, calls: Sequence[Announce]) -> Announce | None:
    first = [a for a in calls if a.call.level == 1]
    if not first or len(seen.hand) < 11 or seen.contract == Contract.WEDDING:
        return None
    rules = seen.rules
    trumps = [c for c in seen.hand if rules.is_trump(c)]
    order = trump_order(seen.contract)
    top = sum(1 for c in trumps if order.index(c) < 3)
    return first[0] if len(trumps) >= ANNOUNCE_MEDIUM and top >= 2 else None


def hard_call(seen: Seen, calls: Sequence[Announce]) -> Announce | None:
    first = [a for a in calls if a.call.level == 1]
    if first and len(seen.hand) >= 10 and not seen.contract.is_solo:
        mine = seen.my_party if seen.my_party is not None else Party.KONTRA
        need = ANNOUNCE_HARD - (0.6 if seen.view.levels[mine.other] else 0.0)
        if strength(seen.hand, seen.contract) >= need:
            return first[0]
    strong_solo = strength(seen.hand, seen.contract) >= SOLO + 1.5
    if first and seen.contract.is_solo and seen.my_party == Party.RE and strong_solo:
        return first[0]
    return None
