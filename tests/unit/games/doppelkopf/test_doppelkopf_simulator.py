"""The master's simulator is the plain one, move for move (issue #13: made faster without
changing a decision).

``rollout`` plays on bit masks of cost-ordered slots and folds tricks as they end, and
``sample`` keeps the open seats as it deals; here the plain versions they replaced are
written out on lists (and scored with the rules' own ``settle``), and both must give the
same deals, the same RNG draws, the same cards in the same order and the same scores on
seeded positions of every contract, Armut, weddings and the house rules included.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from tavola.bots.knowledge import knowledge_of
from tavola.games.doppelkopf import GAME
from tavola.games.doppelkopf.actions import AnswerPoverty, Declare, Play
from tavola.games.doppelkopf.bots.infer import Seen, read
from tavola.games.doppelkopf.bots.rollout import Playout, Setup, score
from tavola.games.doppelkopf.bots.sample import CARDS, ID, Sampler
from tavola.games.doppelkopf.model import Contract, Reservation, TrickRecord
from tavola.games.doppelkopf.scoring import SpecialRules, settle
from tavola.games.doppelkopf.trumps import CLUB_QUEEN, FOX, POINTS, TRUMP, beats, card_rules
from tavola.rules.cards import Card, PlayedCard, Rank
from tavola.rules.driver import random_choice, resolve_all_chance
from tavola.rules.interface import Deferral, Event

TABLES: list[tuple[int, dict[str, Any]]] = [
    (4, {"preset": "official", "match": "one_game"}),
    (4, {"preset": "tavern", "match": "one_game", "armut": True}),
    (4, {"match": "one_game", "armut": True, "fuchs_am_end": True, "karlchen_fangen": True}),
    (4, {"match": "one_game", "without_nines": True, "schweinchen": True}),
    (5, {"preset": "official", "match": "one_game"}),
]
LEVELS = ((0, 0), (1, 0), (1, 1), (2, 3), (0, 5))


# ----- seeded positions ----------------------------------------------------------------
def _choose(state: Any, seat: int, legal: list[Any], rng: random.Random) -> Any:
    """Random play, but weddings, Armut and healthy hands are declared most of the time
    (uniform declarations would give solos nearly always)."""
    first = next((a for a in legal if not isinstance(a, Deferral)), None)
    if isinstance(first, Declare):
        offered = [a.reservation for a in legal]
        for special in (Reservation.WEDDING, Reservation.POVERTY):
            if special in offered and rng.random() < 0.8:
                return Declare(special)
        if rng.random() < 0.15:
            return legal[rng.randrange(len(legal))]
        return Declare(Reservation.HEALTHY)
    if isinstance(first, AnswerPoverty):
        return AnswerPoverty(rng.random() < 0.7)
    return random_choice(GAME, state, seat, legal, rng)


def positions(per_table: int) -> Iterator[tuple[Seen, list[Card]]]:
    """Card decisions (the seat's knowledge read, its distinct legal cards) of seeded
    matches, every third one."""
    for t, (players, options) in enumerate(TABLES):
        parsed = GAME.parse_options({k: str(v).lower() for k, v in options.items()}, players)
        for seed in range(per_table):
            rng = random.Random(seed)
            state = GAME.initial_state(players, parsed)
            events: list[Event] = []
            step = 0
            while True:
                state, chance = resolve_all_chance(GAME, state, (100 * t + seed).to_bytes(32))
                events += chance
                if GAME.is_over(state):
                    break
                acting = sorted(GAME.to_act(state))
                seat = acting[rng.randrange(len(acting))]
                legal = list(GAME.legal_actions(state, seat))
                plays = sorted({a.card for a in legal if isinstance(a, Play)})
                if plays and step % 3 == 0:
                    yield read(knowledge_of(GAME, state, events, seat, parsed)), plays
                step += 1
                for event in GAME.decide(state, seat, _choose(state, seat, legal, rng)):
                    state = GAME.evolve(state, event)
                    events.append(event)


# ----- the plain sampler ---------------------------------------------------------------
def plain_hands(seen: Seen, rng: random.Random) -> dict[int, list[int]]:
    others = seen.others
    holds = {s: [ID[c] for c in seen.holds[s]] for s in others}
    pool = [ID[c] for c in seen.unseen]
    for s in others:
        for c in holds[s]:
            pool.remove(c)
    kinds = [seen.rules.kind[c] for c in CARDS]
    forbid = {s: {ID[c] for c in seen.forbid[s]} for s in others}
    strict = {
        c: [s for s in others if c not in forbid[s] and kinds[c] not in seen.voids[s]]
        for c in set(pool)
    }
    loose = {c: [s for s in others if c not in forbid[s]] for c in set(pool)}
    anyone = {c: list(others) for c in set(pool)}
    for attempt in range(90):
        eligible = (strict, loose, anyone)[attempt // 30]
        hands = {s: list(holds[s]) for s in others}
        free = {s: seen.counts[s] - len(hands[s]) for s in others}
        rest = list(pool)
        rng.shuffle(rest)
        rest.sort(key=lambda c: len(eligible[c]))
        for c in rest:
            seats = [s for s in eligible[c] if free[s] > 0]
            if not seats:
                break
            if len(seats) == 1:
                seat = seats[0]
            else:
                pick = rng.random() * sum(free[s] for s in seats)
                for seat in seats:
                    pick -= free[seat]
                    if pick < 0:
                        break
            hands[seat].append(c)
            free[seat] -= 1
        else:
            return hands
    raise AssertionError("no deal")


# ----- the plain play-out --------------------------------------------------------------
class Plain:
    """The rule-of-thumb play-out on lists of cards in hand order, as first written."""

    def __init__(self, seen: Seen, hands: dict[int, list[int]]) -> None:
        self.seen = seen
        self.hands = {seen.me: list(seen.hand)}
        self.hands |= {s: [CARDS[i] for i in h] for s, h in hands.items()}
        pig = self._pig()
        self.rules = card_rules(seen.contract, pig is not None)
        power, kind = self.rules.power, self.rules.kind
        trumps = sorted((power[c] for c in CARDS if kind[c] == TRUMP), reverse=True)
        self.strong = trumps[min(4, len(trumps) - 1)] if trumps else 6
        self.keep_from = trumps[min(8, len(trumps) - 1)] if trumps else 99
        self.low = trumps[-1] if trumps else 0

    def _pig(self) -> int | None:
        seen = self.seen
        if seen.view.schweinchen is not None:
            return seen.view.schweinchen
        normal = seen.contract in (Contract.NORMAL, Contract.WEDDING, Contract.POVERTY)
        if not seen.options["schweinchen"] or not normal:
            return None
        if any(FOX in cards for cards in seen.played.values()):
            return None
        return next((s for s, h in self.hands.items() if h.count(FOX) == 2), None)

    def cost(self, c: Card) -> float:
        if self.rules.kind[c] != TRUMP:
            return POINTS[c.rank]
        return POINTS[c.rank] + (self.rules.power[c] - self.low) * 0.5 + 1.5

    def beats(self, new: Card, best: Card) -> bool:
        return beats(new, best, self.rules, self.seen.second_dulle)

    def parties(self) -> tuple[list[bool], bool]:
        seen, view = self.seen, self.seen.view
        n = len(view.card_counts)
        if seen.contract == Contract.NORMAL:
            holders = [
                s for s in seen.seats if CLUB_QUEEN in self.hands[s] or CLUB_QUEEN in seen.played[s]
            ]
            return [s in holders for s in range(n)], len(holders) == 1
        re = {view.declarer, view.partner} - {None}
        return [s in re for s in range(n)], seen.contract.is_solo or seen.wedding_alone

    def run(self, first: Card | None) -> tuple[list[Card], list[int]]:
        """The cards played, and every seat's score under each of ``LEVELS``."""
        seen, kind = self.seen, self.rules.kind
        hands = {s: list(h) for s, h in self.hands.items()}
        re, alone = self.parties()
        wedding_open = (
            seen.contract == Contract.WEDDING and seen.view.partner is None
        ) and not seen.wedding_alone
        led = {kind[t.plays[0].card] for t in seen.tricks}
        tricks = list(seen.tricks)
        plays = list(seen.plays)
        turn = seen.view.turn if seen.view.turn is not None else seen.me
        seats = seen.seats
        trace = []
        while hands[turn]:
            hand = hands[turn]
            if first is not None:
                card, first = first, None
            elif not plays:
                card = self.lead(hand, led)
            else:
                best = self.best(plays)
                card = self.follow(hand, plays, best, re[best.seat] == re[turn])
            hand.remove(card)
            trace.append(card)
            if not plays:
                led.add(kind[card])
            plays.append(PlayedCard(turn, card))
            if len(plays) < len(seats):
                turn = seats[(seats.index(turn) + 1) % len(seats)]
                continue
            winner = self.best(plays).seat
            tricks.append(TrickRecord(len(tricks) + 1, tuple(plays), winner))
            if wedding_open and len(tricks) <= 3:
                if winner != seen.view.declarer:
                    re[winner], wedding_open = True, False
                elif len(tricks) == 3:
                    alone = True
            turn, plays = winner, []
        solo = alone or seen.contract.is_solo
        special = SpecialRules(
            not solo, bool(seen.options["fuchs_am_end"]), bool(seen.options["karlchen_fangen"])
        )
        scores = []
        for levels in LEVELS:
            value = settle(tricks, re, levels, special).value
            scores += [value * (3 if solo else 1) if re[s] else -value for s in seats]
        return trace, scores

    def best(self, plays: list[PlayedCard]) -> PlayedCard:
        best = plays[0]
        for p in plays[1:]:
            if self.beats(p.card, best.card):
                best = p
        return best

    def lead(self, hand: list[Card], led: set[int]) -> Card:
        kind = self.rules.kind
        for c in hand:
            if c.rank == Rank.ACE and kind[c] != TRUMP and kind[c] not in led:
                return c
        return min(hand, key=self.cost)

    def follow(
        self, hand: list[Card], plays: list[PlayedCard], best: PlayedCard, friend: bool
    ) -> Card:
        kind, power = self.rules.kind, self.rules.power
        legal = [c for c in hand if kind[c] == kind[plays[0].card]] or hand
        if len(legal) == 1:
            return legal[0]
        last = len(plays) == len(self.seen.seats) - 1
        if friend:
            if last or power[best.card] >= self.strong:
                kept = [c for c in legal if kind[c] == TRUMP and power[c] >= self.keep_from]
                smear = [c for c in legal if c not in kept] or legal
                return max(smear, key=lambda c: POINTS[c.rank])
        else:
            wins = [c for c in legal if self.beats(c, best.card)]
            if wins:
                cheapest = min(wins, key=power.__getitem__)
                points = sum(POINTS[p.card.rank] for p in plays)
                if last or points >= 10 or power[cheapest] < self.strong:
                    return cheapest
        return min(legal, key=self.cost)


# ----- the tests -----------------------------------------------------------------------
def test_the_sampler_deals_and_draws_as_the_plain_one():
    dealt = 0
    for seen, _ in positions(4):
        sampler = Sampler(seen)
        fast, plain = random.Random(dealt), random.Random(dealt)
        for _ in range(5):
            assert sampler.hands(fast) == plain_hands(seen, plain)
        assert fast.random() == plain.random()
        dealt += 1
    assert dealt > 50


def test_the_sampler_relaxes_impossible_voids_as_the_plain_one():
    relaxed = 0
    for seen, _ in positions(2):
        if not seen.unseen:
            continue
        for s in seen.others:  # every other seat void in everything: no strict deal
            seen.voids[s] = {TRUMP, 0, 1, 2, 3}
        sampler = Sampler(seen)
        fast, plain = random.Random(relaxed), random.Random(relaxed)
        assert sampler.hands(fast) == plain_hands(seen, plain)
        assert fast.random() == plain.random()
        relaxed += 1
    assert relaxed > 20


def test_a_play_out_plays_and_scores_as_the_plain_one():
    contracts, runs = set(), 0
    for seen, plays in positions(4):
        setup = Setup.of(seen)
        rng = random.Random(runs)
        for _ in range(3):
            hands = setup.sampler.hands(rng)
            playout, plain = Playout(setup, hands), Plain(seen, hands)
            for first in [None, *plays]:
                trace: list[Card] = []
                outcome = playout.run(None if first is None else ID[first], trace)
                scores = [score(seen, outcome, lv, s) for lv in LEVELS for s in seen.seats]
                assert (trace, scores) == plain.run(first)
                runs += 1
        contracts.add(seen.contract)
    assert runs > 1000
    assert {Contract.NORMAL, Contract.WEDDING, Contract.POVERTY} <= contracts
    assert any(c.is_solo for c in contracts)
