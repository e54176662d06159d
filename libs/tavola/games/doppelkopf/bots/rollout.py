"""Fast play-outs of one determinized deal (the master's simulator).

A ``Setup`` holds what every sample of one decision shares: the contract's card tables
(trump power, kind, points and a precomputed "beats" matrix, built from the rules'
``beats``), the completed tricks, the trick in progress and the announcement levels.
``playout`` gives every seat its hidden hand, plays the deal to its end with a cheap
rule-of-thumb policy that sees the sampled parties (perfect information inside the sample)
and returns an ``Outcome``; ``score`` settles it with the rules' own ``settle`` for any
announcement levels, so one play-out prices a card and an announcement alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from tavola.games.doppelkopf.bots.infer import Seen
from tavola.games.doppelkopf.bots.sample import CARDS, ID, Hands, Sampler
from tavola.games.doppelkopf.model import Contract, Party, ScoreLine
from tavola.games.doppelkopf.scoring import Tally, value_of, winner_of
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

FOX_ID, KARLCHEN_ID = ID[FOX], ID[CLUB_JACK]
PTS = tuple(POINTS[c.rank] for c in CARDS)
ACES = frozenset(ID[c] for c in CARDS if c.rank == Rank.ACE)


@dataclass(frozen=True, slots=True)
class Tables:
    power: tuple[int, ...]
    kind: tuple[int, ...]
    pts: tuple[int, ...]
    cost: tuple[float, ...]  # what discarding the card gives away (points, trump strength)
    keep: tuple[bool, ...]  # high trumps: never smeared to a partner
    beats: tuple[tuple[bool, ...], ...]  # beats[new][best]
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
    cost = tuple(
        pt + ((pw - (trumps[-1] if trumps else 0)) * 0.5 + 1.5 if k == TRUMP else 0)
        for pw, k, pt in zip(power, kind, pts, strict=True)
    )
    keep = tuple(k == TRUMP and pw >= keep_from for pw, k in zip(power, kind, strict=True))
    table = tuple(tuple(beats(a, b, rules, second_dulle) for b in CARDS) for a in CARDS)
    return Tables(power, kind, pts, cost, keep, table, strong)


@dataclass
class Setup:
    """What every sample of one decision shares."""

    seen: Seen
    order: dict[int, int]  # seat -> next seat
    levels: tuple[int, int]
    plays: list[tuple[int, int]]
    turn: int
    led: set[int]  # kinds led so far (plain suits matter)
    sampler: Sampler
    tricks: list[tuple[tuple[tuple[int, int], ...], int]]
    fuchs_am_end: bool
    karlchen_fangen: bool

    @staticmethod
    def of(seen: Seen) -> Setup:
        seats = seen.seats
        order = {s: seats[(i + 1) % len(seats)] for i, s in enumerate(seats)}
        led = {seen.rules.kind[t.plays[0].card] for t in seen.tricks}
        plays = [(p.seat, ID[p.card]) for p in seen.plays]
        turn = seen.view.turn if seen.view.turn is not None else seen.me
        tricks = [(tuple((p.seat, ID[p.card]) for p in t.plays), t.winner) for t in seen.tricks]
        opts = seen.options
        return Setup(
            seen,
            order,
            seen.view.levels,
            plays,
            turn,
            led,
            Sampler(seen),
            tricks,
            bool(opts["fuchs_am_end"]),
            bool(opts["karlchen_fangen"]),
        )


@dataclass
class Outcome:
    tally: Tally
    specials: tuple[ScoreLine, ...]  # special points not depending on the winner
    re: tuple[bool, ...]
    alone: bool


class Playout:
    def __init__(self, setup: Setup, hands: Hands) -> None:
        seen = setup.seen
        self.setup = setup
        self.hands = {seen.me: [ID[c] for c in seen.hand], **hands}
        self.pig = _pig(seen, self.hands)
        self.t = tables(seen.contract, self.pig is not None, seen.second_dulle)
        self.re, self.alone = _parties(seen, self.hands)
        self.open = (
            seen.contract == Contract.WEDDING
            and seen.view.partner is None
            and (not seen.wedding_alone)
        )

    def run(self, first: int | None, trace: list[Card] | None = None) -> Outcome:
        """Play the deal out (``first``: the card the seat on turn plays now); ``trace``
        collects the cards played, in order (tests)."""
        setup, t = self.setup, self.t
        beat, pts = t.beats, t.pts
        hands = {s: list(h) for s, h in self.hands.items()}
        plays = list(setup.plays)
        led = set(setup.led)
        re = list(self.re)
        alone, wedding_open = self.alone, self.open
        tricks = list(setup.tricks)
        turn, size, order = setup.turn, len(setup.seen.seats), setup.order
        best: tuple[int, int] | None = None
        points = 0
        for p in plays:
            points += pts[p[1]]
            if best is None or beat[p[1]][best[1]]:
                best = p
        while hands[turn]:
            hand = hands[turn]
            if first is not None:
                card, first = first, None
            elif best is None:
                card = _lead(t, hand, led)
            else:
                card = _follow(t, hand, plays, best, points, re[best[0]] == re[turn], size)
            hand.remove(card)
            if trace is not None:
                trace.append(CARDS[card])
            if best is None:
                led.add(t.kind[card])
                best = (turn, card)
            elif beat[card][best[1]]:
                best = (turn, card)
            plays.append((turn, card))
            points += pts[card]
            if len(plays) < size:
                turn = order[turn]
                continue
            tricks.append((tuple(plays), best[0]))
            if wedding_open and len(tricks) <= 3:
                if best[0] != setup.seen.view.declarer:
                    re[best[0]] = True
                    wedding_open = False
                elif len(tricks) == 3:
                    alone = True
            turn = best[0]
            plays, best, points = [], None, 0
        return _outcome(setup, tricks, tuple(re), alone)


def _outcome(
    setup: Setup,
    tricks: list[tuple[tuple[tuple[int, int], ...], int]],
    re: tuple[bool, ...],
    alone: bool,
) -> Outcome:
    """Tally and special points (those not depending on the winner) of a finished deal."""
    points, counts = [0, 0], [0, 0]
    lines: list[ScoreLine] = []
    specials = not (alone or setup.seen.contract.is_solo)
    for plays, winner in tricks:
        side = 0 if re[winner] else 1
        value = sum(PTS[c] for _, c in plays)
        points[side] += value
        counts[side] += 1
        if not specials:
            continue
        taker = Party(side)
        if value >= 40:
            lines.append(ScoreLine("doppelkopf.line.doppelkopf", taker, 1))
        for seat, c in plays:
            if c == FOX_ID and re[seat] != re[winner]:
                lines.append(ScoreLine("doppelkopf.line.fox", taker, 1))
    if specials and tricks:
        lines += _last_trick(setup, tricks[-1], re)
    tally = Tally((points[0], points[1]), (counts[0], counts[1]))
    return Outcome(tally, tuple(lines), re, alone)


def _last_trick(
    setup: Setup, trick: tuple[tuple[tuple[int, int], ...], int], re: tuple[bool, ...]
) -> list[ScoreLine]:
    plays, winner = trick
    taker = Party.RE if re[winner] else Party.KONTRA
    won_with = next(c for s, c in plays if s == winner)
    lines = []
    if won_with == KARLCHEN_ID:
        lines.append(ScoreLine("doppelkopf.line.karlchen", taker, 1))
    if setup.fuchs_am_end and won_with == FOX_ID:
        lines.append(ScoreLine("doppelkopf.line.fox_last", taker, 1))
    if setup.karlchen_fangen:
        lines += [
            ScoreLine("doppelkopf.line.karlchen_caught", taker, 1)
            for s, c in plays
            if c == KARLCHEN_ID and re[s] != re[winner]
        ]
    return lines


def score(seen: Seen, outcome: Outcome, levels: tuple[int, int], seat: int) -> int:
    """The seat's score for the deal under announcement ``levels`` (Bock aside)."""
    solo = outcome.alone or seen.contract.is_solo
    lines = list(outcome.specials)
    winner = winner_of(outcome.tally, levels)
    if not solo and winner == Party.KONTRA:
        lines.append(ScoreLine("doppelkopf.line.against_the_old", Party.KONTRA, 1))
    value = value_of(outcome.tally, levels, lines).value
    if outcome.re[seat]:
        return value * (3 if solo else 1)
    return -value


def _pig(seen: Seen, hands: Hands) -> int | None:
    if seen.view.schweinchen is not None:
        return seen.view.schweinchen
    if not seen.options["schweinchen"] or seen.contract not in (
        Contract.NORMAL,
        Contract.WEDDING,
        Contract.POVERTY,
    ):
        return None
    if any(FOX in cards for cards in seen.played.values()):
        return None
    return next((s for s, h in hands.items() if h.count(ID[FOX]) == 2), None)


def _parties(seen: Seen, hands: Hands) -> tuple[tuple[bool, ...], bool]:
    n = len(seen.view.card_counts)
    view = seen.view
    if seen.contract == Contract.NORMAL:
        queen = ID[CLUB_QUEEN]
        holders = [s for s in seen.seats if queen in hands[s] or CLUB_QUEEN in seen.played[s]]
        return tuple(s in holders for s in range(n)), len(holders) == 1
    re = {view.declarer} if view.declarer is not None else set()
    if view.partner is not None:
        re.add(view.partner)
    alone = seen.contract.is_solo or seen.wedding_alone
    return tuple(s in re for s in range(n)), alone


def _follow(
    t: Tables,
    hand: list[int],
    plays: list[tuple[int, int]],
    best: tuple[int, int],
    points: int,
    friend: bool,
    size: int,
) -> int:
    kind = t.kind[plays[0][1]]
    legal = [c for c in hand if t.kind[c] == kind] or hand
    if len(legal) == 1:
        return legal[0]
    last = len(plays) == size - 1
    if friend:
        if last or t.power[best[1]] >= t.strong:
            smear = [c for c in legal if not t.keep[c]] or legal
            return max(smear, key=t.pts.__getitem__)
    else:
        beat = t.beats
        wins = [c for c in legal if beat[c][best[1]]]
        if wins:
            cheapest = min(wins, key=t.power.__getitem__)
            if last or points >= 10 or t.power[cheapest] < t.strong:
                return cheapest
    return min(legal, key=t.cost.__getitem__)


def _lead(t: Tables, hand: list[int], led: set[int]) -> int:
    for c in hand:
        if c in ACES and t.kind[c] != TRUMP and t.kind[c] not in led:
            return c
    return min(hand, key=t.cost.__getitem__)
