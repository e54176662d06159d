"""What a seat knows about the deal being played, read from its knowledge only.

``read`` folds the seat's own history of the current deal (the events after the last
``GameStarted``; other seats' private events are absent) together with its view into a
``Seen``: the cards played, the tricks, which seats are void in which kind (a failure to
follow), which parties are certain (♣Q played, announcements, contracts), the cards known
to sit in another hand (Armut) and the unseen cards with each seat's count.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from tavola.bots.interface import Knowledge
from tavola.games.doppelkopf import events as ev
from tavola.games.doppelkopf.game import GAME
from tavola.games.doppelkopf.model import Contract, Party, TrickRecord
from tavola.games.doppelkopf.trumps import CLUB_QUEEN, TRUMP, CardRules, card_rules, deck
from tavola.games.doppelkopf.views import DokoView
from tavola.rules.cards import Card, PlayedCard
from tavola.rules.interface import Event, OptionValue


@dataclass
class Seen:
    """The seat's knowledge of the current deal (see the module docstring)."""

    me: int
    view: DokoView
    seats: tuple[int, ...]
    contract: Contract
    rules: CardRules
    hand: tuple[Card, ...]
    second_dulle: bool = False
    options: dict[str, OptionValue] = field(default_factory=dict)
    played: dict[int, list[Card]] = field(default_factory=dict)
    tricks: list[TrickRecord] = field(default_factory=list)
    plays: tuple[PlayedCard, ...] = ()  # the trick in progress
    leader: int | None = None
    voids: dict[int, set[int]] = field(default_factory=dict)
    party: dict[int, Party] = field(default_factory=dict)  # certain
    holds: dict[int, list[Card]] = field(default_factory=dict)  # certainly in that hand
    forbid: dict[int, set[Card]] = field(default_factory=dict)
    unseen: list[Card] = field(default_factory=list)
    counts: dict[int, int] = field(default_factory=dict)
    replied: tuple[bool, bool] = (False, False)
    shift: int = 0
    wedding_alone: bool = False
    handed: tuple[Card, ...] = ()  # Armut: trumps this seat handed over / received
    returned: tuple[Card, ...] = ()  # Armut: cards given back (seen by the two partners)

    @property
    def others(self) -> tuple[int, ...]:
        return tuple(s for s in self.seats if s != self.me)

    @property
    def my_party(self) -> Party | None:
        return self.party.get(self.me)

    def guess(self, seat: int) -> Party | None:
        """The seat's party when certain or (normal game) the only consistent choice."""
        if seat in self.party:
            return self.party[seat]
        return _likely(self).get(seat)

    def is_trump(self, c: Card) -> bool:
        return self.rules.kind[c] == TRUMP

    def led_kind(self) -> int | None:
        return self.rules.kind[self.plays[0].card] if self.plays else None


def current_events(history: tuple[Event, ...]) -> list[Event]:
    start = 0
    for i, event in enumerate(history):
        if isinstance(event, ev.GameStarted):
            start = i
    return list(history[start:])


def read(knowledge: Knowledge) -> Seen:
    view: DokoView = knowledge.view
    contract = view.contract if view.contract is not None else Contract.NORMAL
    schweinchen = view.schweinchen is not None
    seen = Seen(
        me=knowledge.seat,
        view=view,
        seats=view.seats,
        contract=contract,
        rules=card_rules(contract, schweinchen),
        hand=view.hand,
        options=GAME.parse_options(dict(knowledge.options)),
    )
    seen.second_dulle = bool(seen.options["second_dulle"])
    for seat in view.seats:
        seen.played[seat], seen.voids[seat] = [], set()
        seen.holds[seat], seen.forbid[seat] = [], set()
        seen.counts[seat] = view.card_counts[seat]
    _fold(seen, current_events(knowledge.history))
    seen.leader = view.trick.leader if view.trick else None
    _parties(seen)
    _unseen(seen)
    return seen


def _fold(seen: Seen, events: list[Event]) -> None:
    plays: list[PlayedCard] = []
    replied = [False, False]
    for e in events:
        match e:
            case ev.CardPlayed(seat=seat, card=c):
                if plays and seen.rules.kind[c] != seen.rules.kind[plays[0].card]:
                    seen.voids[seat].add(seen.rules.kind[plays[0].card])
                plays.append(PlayedCard(seat, c))
                seen.played[seat].append(c)
            case ev.TrickWon(number=number, winner=winner):
                seen.tricks.append(TrickRecord(number, tuple(plays), winner))
                plays = []
            case ev.Announced(party=party, reply=reply):
                replied[party] = replied[party] or reply
            case ev.PartnerFound(trick=trick):
                seen.shift = trick - 1
            case ev.WeddingAlone():
                seen.shift, seen.wedding_alone = 2, True
            case ev.TrumpsHandedOver(cards=cards):
                seen.handed = cards
            case ev.CardReturned(card=c):
                seen.returned = (*seen.returned, c)
    seen.plays = tuple(plays)
    seen.replied = (replied[0], replied[1])


def _queens_of(seen: Seen, seat: int) -> int:
    own = seen.hand if seat == seen.me else ()
    return own.count(CLUB_QUEEN) + seen.played[seat].count(CLUB_QUEEN)


def _parties(seen: Seen) -> None:
    view = seen.view
    party = {sp.seat: sp.party for sp in view.known_parties}
    if view.my_party is not None:
        party[seen.me] = view.my_party
    if seen.contract == Contract.NORMAL and view.contract is not None:
        for seat in seen.seats:
            if _queens_of(seen, seat):
                party[seat] = Party.RE
        re_seats = [s for s in seen.seats if party.get(s) == Party.RE]
        queens_known = sum(_queens_of(seen, s) for s in seen.seats)
        settled = queens_known == 2 or (len(re_seats) == 2)
        if any(_queens_of(seen, s) == 2 for s in seen.seats):
            settled = True
        if settled:
            for seat in seen.seats:
                party.setdefault(seat, Party.KONTRA)
        elif party.get(seen.me) == Party.RE:
            unknown = [s for s in seen.others if s not in party]
            if len(unknown) == 1:  # my partner holds the other ♣Q
                party[unknown[0]] = Party.RE
    seen.party = party


def _likely(seen: Seen) -> dict[int, Party]:
    """Normal game: with one Re seat known besides a Kontra me, the last unknown seat is
    most likely the second Re (unless a silent wedding)."""
    if seen.contract != Contract.NORMAL or seen.my_party != Party.KONTRA:
        return {}
    unknown = [s for s in seen.others if s not in seen.party]
    re_known = sum(1 for p in seen.party.values() if p == Party.RE)
    if len(unknown) == 1 and re_known == 1:
        return {unknown[0]: Party.RE}
    if len(unknown) == 1 and re_known == 2:
        return {unknown[0]: Party.KONTRA}
    return {}


def _unseen(seen: Seen) -> None:
    pool = Counter(deck(without_nines=not _has_nines(seen)))
    pool.subtract(seen.hand)
    for cards in seen.played.values():
        pool.subtract(cards)
    seen.unseen = sorted(pool.elements())
    _armut_holds(seen)
    _queen_constraints(seen)


def _has_nines(seen: Seen) -> bool:
    """48 cards in the deal (40 without nines)."""
    total = sum(seen.counts.values()) + sum(len(p) for p in seen.played.values())
    return total == 48


def _armut_holds(seen: Seen) -> None:
    view = seen.view
    if seen.contract != Contract.POVERTY or view.partner is None or view.declarer is None:
        return
    if seen.me == view.declarer:
        _hold(seen, view.partner, seen.handed)
    elif seen.me == view.partner:
        _hold(seen, view.declarer, seen.returned)


def _hold(seen: Seen, seat: int, cards: tuple[Card, ...]) -> None:
    left = Counter(cards)
    left.subtract(seen.played[seat])
    available = Counter(seen.unseen)
    for c, n in left.items():
        seen.holds[seat] += [c] * max(0, min(n, available[c]))


def _queen_constraints(seen: Seen) -> None:
    """♣Q: a Kontra seat holds none; a Re seat of a normal game that has not played one
    holds one; a wedding player holds both until played."""
    free = seen.unseen.count(CLUB_QUEEN)
    if seen.contract == Contract.WEDDING and seen.view.declarer is not None:
        if seen.view.declarer != seen.me:
            seen.holds[seen.view.declarer] += [CLUB_QUEEN] * free
            for seat in seen.others:
                if seat != seen.view.declarer:
                    seen.forbid[seat].add(CLUB_QUEEN)
        return
    if seen.contract != Contract.NORMAL:
        return
    open_seats = [s for s in seen.others if seen.party.get(s) != Party.KONTRA]
    for seat in seen.others:
        p = seen.party.get(seat)
        shown = CLUB_QUEEN in seen.played[seat]
        if p == Party.KONTRA or (shown and any(s != seat for s in open_seats)):
            # a seat that showed one ♣Q is taken to hold no second one (a silent wedding
            # is far rarer) unless no other seat can hold it
            seen.forbid[seat].add(CLUB_QUEEN)
        elif p == Party.RE and not seen.played[seat].count(CLUB_QUEEN) and free > 0:
            seen.holds[seat].append(CLUB_QUEEN)
            free -= 1
