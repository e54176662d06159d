"""Fast play-outs of one determinized deal (the master's simulator).

A ``Setup`` holds what every sample of one decision shares: the completed tricks (folded
into what each seat has taken), the trick in progress and the announcement levels. A
``Playout`` gives every seat its hidden hand, and ``run`` plays the deal to its end with a
cheap rule-of-thumb policy that sees the sampled parties (perfect information inside the
sample) and returns an ``Outcome``; ``score`` settles it with the rules' own ``value_of``
for any announcement levels, so one play-out prices a card and an announcement alike.

Speed: the master runs every candidate card on every sample, so ``Playout`` does once per
sample what all its runs share: each hand becomes a bit mask of slots ordered by what
discarding a card costs (stably: ties stay in hand order), so the policy's usual choice,
the cheapest legal card, is the lowest bit of a mask, and a run only copies one int per
seat. Tricks are folded as they end into what each seat has taken; the settlement of a
tally under announcement levels is cached (``_settled``), the special points come as one
net value. ``tests/unit/games/doppelkopf/test_doppelkopf_simulator.py`` checks the play
move for move against the plain list-based play-out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from tavola.games.doppelkopf.bots.infer import Seen
from tavola.games.doppelkopf.bots.sample import CARDS, ID, Hands, Sampler
from tavola.games.doppelkopf.model import Contract, Party
from tavola.games.doppelkopf.scoring import Tally, value_of
from tavola.games.doppelkopf.trumps import (
    CLUB_JACK,
    CLUB_QUEEN,
    FOX,
    POINTS,
    TRUMP,
    beats,
    card_rules,
)
from tavola.rules.cards import Card, Rank

FOX_ID, KARLCHEN_ID, QUEEN_ID = ID[FOX], ID[CLUB_JACK], ID[CLUB_QUEEN]
PTS = tuple(POINTS[c.rank] for c in CARDS)
ACES = frozenset(ID[c] for c in CARDS if c.rank == Rank.ACE)
KINDS = 5  # TRUMP (-1) and the four suits: masks by kind are a list indexed by the kind
MARKED = frozenset((FOX_ID, KARLCHEN_ID))  # cards that may earn special points


@dataclass(frozen=True, slots=True)
class Tables:
    power: tuple[int, ...]
    kind: tuple[int, ...]
    pts: tuple[int, ...]
    cost: tuple[float, ...]  # what discarding the card gives away (points, trump strength)
    smear: tuple[int, ...]  # what smearing it gives: points, high trumps below any other
    ace: tuple[bool, ...]  # plain aces (led while their suit is fresh)
    beaten: tuple[tuple[bool, ...], ...]  # beaten[best][new]: does ``new`` beat ``best``
    strong: int  # power from which a partner's card is left alone


@cache
def tables(contract: Contract, schweinchen: bool, second_dulle: bool) -> Tables:
    rules = card_rules(contract, schweinchen)
    power = tuple(rules.power[c] for c in CARDS)
    kind = tuple(rules.kind[c] for c in CARDS)
    pts = tuple(POINTS[c.rank] for c in CARDS)
    trumps = sorted((p for p, k in zip(power, kind, strict=True) if k == TRUMP), reverse=True)
    strong = trumps[min(4, len(trumps) - 1)] if trumps else 6
    keep_from = trumps[min(8, len(trumps) - 1)] if trumps else 99
    # all floats (the same order as the ints and floats they are): sorts compare floats only
    cost = tuple(
        float(pt + ((pw - (trumps[-1] if trumps else 0)) * 0.5 + 1.5 if k == TRUMP else 0))
        for pw, k, pt in zip(power, kind, pts, strict=True)
    )
    # high trumps are never smeared to a partner while another card can go
    smear = tuple(
        pt - (SMEAR_KEEP if k == TRUMP and pw >= keep_from else 0)
        for pw, k, pt in zip(power, kind, pts, strict=True)
    )
    ace = tuple(i in ACES and k != TRUMP for i, k in enumerate(kind))
    table = tuple(tuple(beats(new, best, rules, second_dulle) for new in CARDS) for best in CARDS)
    return Tables(power, kind, pts, cost, smear, ace, table, strong)


SMEAR_KEEP = 100  # a smear key: the points, kept trumps after every other card
SMEAR_STEP = 16  # a hand's smear keys: that key in steps wider than a hand, minus the place


@dataclass
class Setup:
    """What every sample of one decision shares."""

    seen: Seen
    order: list[int]  # seat -> next seat
    levels: tuple[int, int]
    plays: list[tuple[int, int]]  # the trick in progress
    turn: int
    led: set[int]  # kinds led so far (plain suits matter)
    sampler: Sampler
    mine: list[int]  # the seat's own hand
    tricks: int  # completed
    won: list[int]  # by seat: card points of the tricks it took
    taken: list[int]  # by seat: tricks it took
    big: list[int]  # by seat: tricks of 40 points or more it took (Doppelkopf)
    foxes: list[tuple[int, int]]  # a ♦A taken: (seat that played it, seat that took it)
    last: tuple[int, int, tuple[tuple[int, int], ...]]  # last trick: winner, card, marked
    fuchs_am_end: bool
    karlchen_fangen: bool
    queens_shown: frozenset[int]  # seats that played a ♣Q
    fox_shown: bool  # a ♦A was played (no Schweinchen to find)
    parties: tuple[tuple[bool, ...], bool] | None  # Re by seat and alone, unless sampled
    wedding_open: bool  # a wedding whose partner is still to be found
    solo: bool  # the contract is a solo
    shared: dict[bool, _Shared] = field(default_factory=dict)  # by Schweinchen: see ``_Shared``

    @staticmethod
    def of(seen: Seen) -> Setup:
        seats = seen.seats
        n = len(seen.view.card_counts)
        order = list(range(n))
        for i, s in enumerate(seats):
            order[s] = seats[(i + 1) % len(seats)]
        led = {seen.rules.kind[t.plays[0].card] for t in seen.tricks}
        plays = [(p.seat, ID[p.card]) for p in seen.plays]
        turn = seen.view.turn if seen.view.turn is not None else seen.me
        won, taken, big = [0] * n, [0] * n, [0] * n
        foxes: list[tuple[int, int]] = []
        last: tuple[int, int, tuple[tuple[int, int], ...]] = (0, -1, ())
        for t in seen.tricks:
            cards = [(p.seat, ID[p.card]) for p in t.plays]
            value = sum(PTS[c] for _, c in cards)
            won[t.winner] += value
            taken[t.winner] += 1
            big[t.winner] += value >= 40
            foxes += [(s, t.winner) for s, c in cards if c == FOX_ID]
            won_with = next(c for s, c in cards if s == t.winner)
            last = (t.winner, won_with, tuple((s, c) for s, c in cards if c in MARKED))
        opts = seen.options
        return Setup(
            seen,
            order,
            seen.view.levels,
            plays,
            turn,
            led,
            Sampler(seen),
            [ID[c] for c in seen.hand],
            len(seen.tricks),
            won,
            taken,
            big,
            foxes,
            last,
            bool(opts["fuchs_am_end"]),
            bool(opts["karlchen_fangen"]),
            frozenset(s for s in seats if CLUB_QUEEN in seen.played[s]),
            any(FOX in cards for cards in seen.played.values()),
            None if seen.contract == Contract.NORMAL else _declared_parties(seen),
            seen.contract == Contract.WEDDING
            and seen.view.partner is None
            and not seen.wedding_alone,
            seen.contract.is_solo,
        )


@dataclass(slots=True)
class Outcome:
    points: tuple[int, int]  # card points of Re, Kontra
    tricks: tuple[int, int]  # tricks of Re, Kontra
    special: int  # net special points for Re not depending on the winner
    re: tuple[bool, ...]
    alone: bool

    @property
    def tally(self) -> Tally:
        return Tally(self.points, self.tricks)


class Playout:
    """One sampled deal, ready to be played out from the current position any number of
    times (one ``run`` per candidate card).

    Each hand is a bit mask of slots (``_Slots``): slot i holds the hand's i-th card by
    discard cost, equal costs in hand order. The rule-of-thumb policy's usual choice, the
    cheapest legal card (the first in hand order among equal costs), is then the lowest
    slot of the legal mask, and a card's lowest slot is its first copy in hand order, the
    one ``list.remove`` would take: the play-out is the list-based one, move for move.
    """

    def __init__(self, setup: Setup, hands: Hands) -> None:
        seen = setup.seen
        self.setup = setup
        self.hands = {seen.me: setup.mine, **hands}
        self.pig = _pig(setup, self.hands)
        self.t = t = tables(seen.contract, self.pig is not None, seen.second_dulle)
        self.re, self.alone = setup.parties or _queen_parties(setup, self.hands)
        shared = setup.shared.get(self.pig is not None)
        if shared is None:
            shared = setup.shared[self.pig is not None] = _Shared(setup, t)
        self.trick = shared.trick
        slots = [_NO_SLOTS] * len(setup.order)
        slots[seen.me] = shared.slots
        for s, hand in hands.items():
            slots[s] = _slots(t, hand)
        self.slots = slots

    def run(self, first: int | None, trace: list[Card] | None = None) -> Outcome:
        """Play the deal out (``first``: the card the seat on turn plays now); ``trace``
        collects the cards played, in order (tests)."""
        setup, t = self.setup, self.t
        kind, pts, power, beaten, strong = t.kind, t.pts, t.power, t.beaten, t.strong
        slots = self.slots
        held = [s.full for s in slots]  # by seat: the slots still in hand
        re = list(self.re)
        alone, wedding_open = self.alone, setup.wedding_open
        declarer = setup.seen.view.declarer
        won, taken, big = list(setup.won), list(setup.taken), list(setup.big)
        foxes = list(setup.foxes)
        last_winner, last_card, last_marked = setup.last
        led = set(setup.led)
        done, order = setup.tricks, setup.order
        size = len(setup.seen.seats)
        final = size - 1
        turn = setup.turn
        count, points, best_seat, best, kind_led = self.trick
        marked = [(s, c) for s, c in setup.plays if c in MARKED]
        while True:
            h = held[turn]
            if not h:
                break
            mine = slots[turn]
            cards = mine.card
            if first is not None:  # its first copy in hand order
                bit = next(b for b in BITS if h & b and cards[b] == first)
                first = None
            elif not count:  # lead: a plain ace of a fresh suit, else the cheapest card
                bit = h & -h
                aces = h & mine.aces
                while aces:
                    ace = aces & -aces
                    if kind[cards[ace]] not in led:
                        bit = ace
                        break
                    aces ^= ace
            else:
                legal = h & mine.kinds[kind_led] or h
                bit = legal & -legal  # the cheapest: a duck
                if legal == bit:
                    pass
                elif re[best_seat] == re[turn]:  # a partner's trick: smear when it is safe
                    if count == final or power[best] >= strong:
                        bit = _most(legal, mine.smear)
                else:  # an opponent's: win it cheaply when it is worth it
                    beats_best = beaten[best]
                    win = 0
                    rest = legal
                    while rest:
                        slot = rest & -rest
                        rest ^= slot
                        c = cards[slot]
                        if beats_best[c] and (not win or power[c] < power[cards[win]]):
                            win = slot
                    if win:
                        cheapest = power[cards[win]]
                        if count == final or points >= 10 or cheapest < strong:
                            bit = win
            card = cards[bit]
            held[turn] = h ^ bit
            if trace is not None:
                trace.append(CARDS[card])
            if not count:
                kind_led = kind[card]
                led.add(kind_led)
                best_seat, best = turn, card
            elif beaten[best][card]:
                best_seat, best = turn, card
            if card in MARKED:
                marked.append((turn, card))
            points += pts[card]
            count += 1
            if count < size:
                turn = order[turn]
                continue
            done += 1
            won[best_seat] += points
            taken[best_seat] += 1
            if points >= 40:
                big[best_seat] += 1
            if marked:
                foxes += [(s, best_seat) for s, c in marked if c == FOX_ID]
            if wedding_open and done <= 3:
                if best_seat != declarer:
                    re[best_seat] = True
                    wedding_open = False
                elif done == 3:
                    alone = True
            last_winner, last_card, last_marked = best_seat, best, tuple(marked)
            turn = best_seat
            count = points = 0
            marked = []
        last = (last_winner, last_card, last_marked)
        return _outcome(setup, done, won, taken, big, foxes, last, tuple(re), alone)


def _most(legal: int, keys: dict[int, int]) -> int:
    """The slot of ``legal`` with the highest key (smear keys are distinct)."""
    best = legal & -legal
    top = keys[best]
    rest = legal ^ best
    while rest:
        slot = rest & -rest
        rest ^= slot
        if keys[slot] > top:
            best, top = slot, keys[slot]
    return best


@dataclass(slots=True)
class _Slots:
    """A dealt hand as slots (see ``Playout``); masks have one bit per slot."""

    full: int  # every slot
    card: dict[int, int]  # slot bit -> card
    kinds: tuple[int, ...]  # by kind (TRUMP, -1, last): its slots
    aces: int  # the plain aces
    smear: dict[int, int]  # slot bit -> what smearing it gives, then hand order (distinct)


_NO_SLOTS = _Slots(0, {}, (0,) * KINDS, 0, {})
BITS = tuple(1 << slot for slot in range(len(CARDS)))  # a hand has fewer cards


def _slots(t: Tables, hand: list[int]) -> _Slots:
    """``hand`` (cards in hand order) as slots under the contract's tables."""
    cost = t.cost
    places = sorted(range(len(hand)), key=[cost[c] for c in hand].__getitem__)  # stable
    ordered = [hand[place] for place in places]
    kind, ace, smear = t.kind, t.ace, t.smear
    bits = BITS[: len(hand)]
    kinds = [0] * KINDS
    aces = 0
    for bit, c in zip(bits, ordered, strict=True):
        kinds[kind[c]] |= bit
        if ace[c]:
            aces |= bit
    keys = {b: smear[c] * SMEAR_STEP - p for b, c, p in zip(bits, ordered, places, strict=True)}
    return _Slots(
        (1 << len(hand)) - 1, dict(zip(bits, ordered, strict=True)), tuple(kinds), aces, keys
    )


class _Shared:
    """What every sample of a decision shares once its card tables are known (they depend
    on a sampled Schweinchen): the seat's own hand as slots, and the trick in progress
    (cards, points, best seat and card, led kind)."""

    def __init__(self, setup: Setup, t: Tables) -> None:
        self.slots = _slots(t, setup.mine)
        best_seat = best = -1
        points = 0
        for s, c in setup.plays:
            points += t.pts[c]
            if best < 0 or t.beaten[best][c]:
                best_seat, best = s, c
        led = t.kind[setup.plays[0][1]] if setup.plays else TRUMP
        self.trick = (len(setup.plays), points, best_seat, best, led)


def _outcome(
    setup: Setup,
    done: int,
    won: list[int],
    taken: list[int],
    big: list[int],
    foxes: list[tuple[int, int]],
    last: tuple[int, int, tuple[tuple[int, int], ...]],
    re: tuple[bool, ...],
    alone: bool,
) -> Outcome:
    """Tally and special points (those not depending on the winner) of a finished deal,
    each line netted for Re (+1) or Kontra (-1) as ``value_of`` nets them."""
    seats = setup.seen.seats
    re_points = sum([won[s] for s in seats if re[s]])
    re_tricks = sum([taken[s] for s in seats if re[s]])
    special = 0
    if done and not (alone or setup.solo):
        for seat in seats:
            special += big[seat] if re[seat] else -big[seat]
        for played_by, taker in foxes:
            if re[played_by] != re[taker]:
                special += 1 if re[taker] else -1
        special += _last_trick(setup, last, re)
    points = (re_points, sum([won[s] for s in seats]) - re_points)
    tricks = (re_tricks, sum([taken[s] for s in seats]) - re_tricks)
    return Outcome(points, tricks, special, re, alone)


def _last_trick(
    setup: Setup, last: tuple[int, int, tuple[tuple[int, int], ...]], re: tuple[bool, ...]
) -> int:
    winner, won_with, marked = last
    taker = 1 if re[winner] else -1
    special = 0
    if won_with == KARLCHEN_ID:
        special += taker
    if setup.fuchs_am_end and won_with == FOX_ID:
        special += taker
    if setup.karlchen_fangen:
        for seat, c in marked:
            if c == KARLCHEN_ID and re[seat] != re[winner]:
                special += taker
    return special


@cache
def _settled(
    points: tuple[int, int], tricks: tuple[int, int], levels: tuple[int, int]
) -> tuple[Party | None, int]:
    """The winner and Re's value of a tally under announcement levels, without special
    points (the rules' ``value_of``; few distinct tallies occur, so it is cached)."""
    settlement = value_of(Tally(points, tricks), levels, ())
    return settlement.winner, settlement.value


def score(seen: Seen, outcome: Outcome, levels: tuple[int, int], seat: int) -> int:
    """The seat's score for the deal under announcement ``levels`` (Bock aside)."""
    solo = outcome.alone or seen.contract.is_solo
    winner, value = _settled(outcome.points, outcome.tricks, levels)
    value += outcome.special
    if not solo and winner == Party.KONTRA:
        value -= 1  # "against the old", credited to Kontra
    if outcome.re[seat]:
        return value * (3 if solo else 1)
    return -value


def _pig(setup: Setup, hands: Hands) -> int | None:
    seen = setup.seen
    if seen.view.schweinchen is not None:
        return seen.view.schweinchen
    if not seen.options["schweinchen"] or seen.contract not in (
        Contract.NORMAL,
        Contract.WEDDING,
        Contract.POVERTY,
    ):
        return None
    if setup.fox_shown:
        return None
    return next((s for s, h in hands.items() if h.count(FOX_ID) == 2), None)


def _queen_parties(setup: Setup, hands: Hands) -> tuple[tuple[bool, ...], bool]:
    """A normal game: Re holds the ♣Qs (in the sampled hands or already played)."""
    shown = setup.queens_shown
    re = [False] * len(setup.order)
    for s in setup.seen.seats:
        re[s] = QUEEN_ID in hands[s] or s in shown
    return tuple(re), re.count(True) == 1


def _declared_parties(seen: Seen) -> tuple[tuple[bool, ...], bool]:
    """Any other contract: Re is the declarer and the partner the table knows."""
    n = len(seen.view.card_counts)
    view = seen.view
    re = {view.declarer} if view.declarer is not None else set()
    if view.partner is not None:
        re.add(view.partner)
    alone = seen.contract.is_solo or seen.wedding_alone
    return tuple(s in re for s in range(n)), alone
