"""Card play heuristics: medium (the hand and the trick only) and hard (with card counting
and the voids inferred by the tracker). Each returns the card and a short reason code
(``barbu.hint.<code>``). The medium functions also drive the master's rollouts.

Cards are ints (see ``tracker``); ``sim`` holds the contract, the trick, whose turn it is
and (for medium) the seat's own hand — other hands are never read here.
"""

from __future__ import annotations

from collections.abc import Sequence

from tavola.games.barbu.bots.sim import SEATS, Sim, penalty_points
from tavola.games.barbu.bots.tracker import DealKnowledge
from tavola.games.barbu.contracts import Contract

Choice = tuple[int, str]
NL2_CARELESS_TRICKS = 9  # No Last Two: the first 9 tricks cost nothing, shed high cards


def _winning(sim: Sim) -> int:
    """The card winning the trick so far."""
    best = sim.trick[0][1]
    trump = sim.trump if sim.contract == Contract.TRUMPS else None
    for _, card in sim.trick[1:]:
        if card // 13 == best // 13:
            best = max(best, card)
        elif trump is not None and card // 13 == trump:
            best = card
    return best


def _beats(card: int, best: int, trump: int | None) -> bool:
    if card // 13 == best // 13:
        return card > best
    return trump is not None and card // 13 == trump


def _careless(sim: Sim) -> bool:
    return sim.contract == Contract.NO_LAST_TWO and sim.tricks_played < NL2_CARELESS_TRICKS


def _danger(contract: Contract, card: int) -> tuple[int, int]:
    """How badly the seat wants to get rid of ``card`` (medium: penalty, then rank)."""
    return (-penalty_points(contract, card) + (3 if card == 38 else 0), card % 13)


# ----- medium -------------------------------------------------------------------------------
def medium(sim: Sim, legal: Sequence[int]) -> Choice:
    if len(legal) == 1:
        return legal[0], "forced"
    if sim.contract == Contract.DOMINO:
        return domino(sim, legal, None)
    if sim.contract == Contract.TRUMPS:
        return _trumps_medium(sim, legal)
    return _negative(sim, legal, None)


def rollout_choice(sim: Sim, legal: list[int]) -> int:
    return medium(sim, legal)[0]


def _negative(sim: Sim, legal: Sequence[int], know: DealKnowledge | None) -> Choice:
    contract = sim.contract
    if not sim.trick:
        if _careless(sim):
            return max(legal, key=lambda c: (c % 13, -c)), "dump_high"
        if know is not None:
            return _safest_lead(sim, legal, know), "lead_safe"
        return min(legal, key=lambda c: (c % 13, -_danger(contract, c)[0], c)), "lead_low"
    best = _winning(sim)
    if legal[0] // 13 != best // 13:
        key = (
            (lambda c: _hard_danger(contract, c, know))
            if know
            else (lambda c: _danger(contract, c))
        )
        return max(legal, key=key), "discard"
    if _careless(sim):
        return max(legal), "dump_high"
    under = [c for c in legal if c < best]
    if under:
        return max(under), "duck"
    clean = [c for c in legal if not penalty_points(contract, c)] or list(legal)
    if len(sim.trick) == SEATS - 1 or (know is not None and _nobody_over(sim, know, legal)):
        return max(clean), "win_anyway"
    return min(legal), "lose_low"


def _trumps_medium(sim: Sim, legal: Sequence[int]) -> Choice:
    trump = sim.trump
    if not sim.trick:
        aces = [c for c in legal if c % 13 == 12]
        if aces:
            return max(aces, key=lambda c: c // 13 == trump), "lead_winner"
        return _short_side_lead(sim, legal), "lead_short"
    best = _winning(sim)
    winners = [c for c in legal if _beats(c, best, trump)]
    if winners:
        return min(winners, key=lambda c: (c // 13 == trump, c % 13)), "win_cheap"
    return min(legal, key=lambda c: (c // 13 == trump, c % 13)), "play_low"


def _short_side_lead(sim: Sim, legal: Sequence[int]) -> int:
    hand = sim.hands[sim.turn]
    length = [sum(1 for c in hand if c // 13 == s) for s in range(4)]
    side = [c for c in legal if c // 13 != sim.trump] or list(legal)
    return min(side, key=lambda c: (length[c // 13], c % 13))


# ----- Domino ------------------------------------------------------------------------------
def domino(sim: Sim, legal: Sequence[int], know: DealKnowledge | None) -> Choice:
    """Prefer cards that free more of the seat's own cards and give nothing to others."""
    hand = set(sim.hands[sim.turn])

    def score(card: int) -> tuple[float, int]:
        suit, rank = card // 13, card % 13
        row = sim.rows[suit]
        ups = row is None or rank == row[1] + 1
        downs = row is None or rank == row[0] - 1
        mine = gifts = 0.0
        for step, ok in ((1, ups), (-1, downs)):
            if not ok:
                continue
            beyond = range(rank + step, 13 if step > 0 else -1, step)
            mine += sum(1 for r in beyond if suit * 13 + r in hand)
            nxt = rank + step
            if 0 <= nxt < 13 and suit * 13 + nxt not in hand:
                gifts += 1 + (_gift_weight(know, suit * 13 + nxt) if know else 0)
        return mine - 1.5 * gifts, abs(rank - (sim.start or 0))

    card = max(legal, key=score)
    return card, "domino_chain" if score(card)[0] > 0 else "domino_block"


def _gift_weight(know: DealKnowledge, card: int) -> float:
    """Hard: a card nobody else can hold gives nothing; one a near-finished seat may hold
    gives more."""
    holders = [s for s in range(SEATS) if s != know.seat and card in know.possible(s)]
    if not holders or card in know.played:
        return -1.0
    return max(0.5 if know.counts[s] <= 3 else 0.0 for s in holders)


# ----- hard ---------------------------------------------------------------------------------
def hard(sim: Sim, legal: Sequence[int], know: DealKnowledge) -> Choice:
    if len(legal) == 1:
        return legal[0], "forced"
    if sim.contract == Contract.DOMINO:
        return domino(sim, legal, know)
    if sim.contract == Contract.TRUMPS:
        return _trumps_hard(sim, legal, know)
    return _negative(sim, legal, know)


def _later_seats(sim: Sim) -> list[int]:
    return [(sim.turn + i) % SEATS for i in range(1, SEATS - len(sim.trick))]


def _nobody_over(sim: Sim, know: DealKnowledge, legal: Sequence[int]) -> bool:
    """No later seat can hold a card of the suit led above my lowest legal card."""
    low = min(legal)
    suit = low // 13
    return not any(c // 13 == suit and c > low for s in _later_seats(sim) for c in know.possible(s))


def _hard_danger(contract: Contract, card: int, know: DealKnowledge | None) -> tuple[int, ...]:
    """Hard discards: penalty cards first, then the card fewest unseen cards can beat."""
    assert know is not None
    unseen = know.unseen()
    higher = sum(1 for c in unseen if c // 13 == card // 13 and c > card)
    lower = sum(1 for c in unseen if c // 13 == card // 13 and c < card)
    return (_danger(contract, card)[0], -higher, lower, card % 13)


def _safest_lead(sim: Sim, legal: Sequence[int], know: DealKnowledge) -> int:
    unseen = know.unseen()
    others = [s for s in range(SEATS) if s != know.seat]

    def risk(card: int) -> tuple[float, int]:
        suit = card // 13
        holders = [s for s in others if not know.void(s, suit)]
        lower = sum(1 for c in unseen if c // 13 == suit and c < card)
        higher = sum(1 for c in unseen if c // 13 == suit and c > card)
        win = 1.0 if not holders or not higher else (lower / (lower + higher)) ** len(holders)
        cost = 1.0 + _penalty_exposure(sim.contract, suit, unseen, len(others) - len(holders))
        return win * cost - 0.01 * penalty_points(sim.contract, card), card % 13

    return min(legal, key=risk)


def _penalty_exposure(contract: Contract, suit: int, unseen: frozenset[int], voids: int) -> float:
    in_suit = sum(-penalty_points(contract, c) for c in unseen if c // 13 == suit)
    anywhere = sum(-penalty_points(contract, c) for c in unseen)
    return in_suit / 3 + voids * anywhere / 8


def _trumps_hard(sim: Sim, legal: Sequence[int], know: DealKnowledge) -> Choice:
    trump = sim.trump
    assert trump is not None
    if not sim.trick:
        return _trumps_lead(sim, legal, know)
    best = _winning(sim)
    winners = [c for c in legal if _beats(c, best, trump)]
    if not winners:
        return min(legal, key=lambda c: (c // 13 == trump, c % 13)), "play_low"
    sure = [c for c in winners if _sure(sim, know, c)]
    if sure:
        return min(sure, key=lambda c: (c // 13 == trump, c % 13)), "win_sure"
    if len(sim.trick) == SEATS - 1:
        return min(winners, key=lambda c: (c // 13 == trump, c % 13)), "win_cheap"
    return min(legal, key=lambda c: (c // 13 == trump, c % 13)), "play_low"


def _sure(sim: Sim, know: DealKnowledge, card: int) -> bool:
    """No later seat can beat ``card`` (a higher card of its suit, or a trump when void)."""
    trump = sim.trump
    led = sim.trick[0][1] // 13 if sim.trick else card // 13
    for seat in _later_seats(sim) if sim.trick else [s for s in range(SEATS) if s != sim.turn]:
        possible = know.possible(seat)
        if any(c // 13 == card // 13 and c > card for c in possible):
            return False
        if (
            card // 13 != trump
            and any(c // 13 == trump for c in possible)
            and (know.void(seat, led) or not any(c // 13 == led for c in possible))
        ):
            return False
    return True


def _trumps_lead(sim: Sim, legal: Sequence[int], know: DealKnowledge) -> Choice:
    trump = sim.trump
    unseen_trumps = [c for c in know.unseen() if c // 13 == trump]
    sure = [c for c in legal if _sure(sim, know, c)]
    if unseen_trumps:
        top = [c for c in sure if c // 13 == trump]
        if top:
            return max(top), "draw_trumps"
    if sure:
        return min(sure, key=lambda c: (c // 13 == trump, c % 13)), "lead_winner"
    return _short_side_lead(sim, legal), "lead_short"
