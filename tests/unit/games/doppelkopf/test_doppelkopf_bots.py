"""Doppelkopf bots: legal and deterministic at every level, honest (the hidden cards never
matter), hard's inferences and medium's rules of thumb on scripted positions, the master's
simulator agrees with the rules, and medium beats easy in a quick arena."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from tavola.bots.arena import pairing
from tavola.bots.interface import LEVELS, Budget, Knowledge
from tavola.bots.knowledge import knowledge_of
from tavola.bots.registry import policy_for
from tavola.games.doppelkopf import GAME
from tavola.games.doppelkopf import events as ev
from tavola.games.doppelkopf.actions import (
    Announce,
    AnswerPoverty,
    Declare,
    GiveBack,
    Play,
)
from tavola.games.doppelkopf.bots import BOTS, POLICIES, hint
from tavola.games.doppelkopf.bots.infer import read
from tavola.games.doppelkopf.bots.rollout import Playout, Setup, score
from tavola.games.doppelkopf.bots.sample import ID, sample_hands
from tavola.games.doppelkopf.messages import MESSAGES
from tavola.games.doppelkopf.model import Contract, Party, Reservation
from tavola.games.doppelkopf.state import DokoState
from tavola.games.doppelkopf.trumps import CLUB_QUEEN, FOX, card_rules
from tavola.rules.cards import Card, card, cards
from tavola.rules.driver import resolve_all_chance
from tavola.rules.interface import Event

SMALL = Budget(samples=3)
OPTION_SETS: list[dict[str, Any]] = [
    {"preset": "official", "match": "one_game"},
    {"preset": "tavern", "armut": True, "match": "one_game"},
    {"armut": True, "schmeissen": True, "pflichtsolo": True, "match": "1_round"},
]
NORMAL_DEAL = (
    "QC TH JC AD KD 9D AC TC KC AS 9H KH",  # seat 0: Re
    "QC QS JS TD 9D AC 9C TS KS AH KH 9S",  # seat 1: Re
    "TH QS QH JH AD KD TC 9C AS TS AH 9H",  # seat 2: Kontra
    "QH QD QD JC JS JH JD JD TD KC KS 9S",  # seat 3: Kontra
)
POOR_DEAL = (
    "QC TH JC AD KD 9D AC TC KC AS 9H KH",
    "QC TD 9D AC 9C TS KS AH KH 9S KC KS",  # seat 1: three trumps
    "TH QS QH JH AD KD TC 9C AS TS AH 9H",
    "QH QD QD JC JS JH JD JD TD QS JS 9S",
)

POOR_RESERVATIONS = {
    0: Reservation.HEALTHY,
    1: Reservation.POVERTY,
    2: Reservation.HEALTHY,
    3: Reservation.HEALTHY,
}


# ----- driving ------------------------------------------------------------------------
class Table:
    """A match driven by hand: full events kept, so any seat's knowledge can be rebuilt."""

    def __init__(self, options: dict[str, Any], seed: int) -> None:
        self.options = options
        self.seed = seed.to_bytes(32, "big")
        self.state: DokoState = GAME.initial_state(4, options)
        self.events: list[Event] = []
        self.settle()

    def settle(self) -> None:
        self.state, produced = resolve_all_chance(GAME, self.state, self.seed)
        self.events += produced

    def knowledge(self, seat: int) -> Knowledge:
        return knowledge_of(GAME, self.state, self.events, seat, self.options)

    def act(self, seat: int, action: Any) -> None:
        produced = GAME.decide(self.state, seat, action)
        self.state = GAME.fold(self.state, produced)
        self.events += produced
        self.settle()

    def seat(self) -> int:
        acting = GAME.to_act(self.state)
        deal = self.state.deal
        if self.state.phase == "play" and deal is not None and deal.turn in acting:
            return deal.turn
        return min(acting)


def scripted(hands: tuple[str, ...], options: dict[str, Any] | None = None) -> Table:
    table = Table(options or {"match": "one_game"}, 0)
    state = GAME.evolve(GAME.initial_state(4, table.options), ev.DealerDrawn(3))
    table.events = [ev.DealerDrawn(3), ev.GameStarted(1, 3, (0, 1, 2, 3), False, None)]
    table.events += [ev.HandDealt(1, s, cards(h)) for s, h in enumerate(hands)]
    table.state = GAME.fold(state, table.events[1:])
    return table


def decide(level: str, table: Table, seat: int, seed: int = 7, budget: Budget = SMALL) -> Any:
    legal = GAME.legal_actions(table.state, seat)
    return policy_for("doppelkopf", level).decide(
        GAME, table.knowledge(seat), legal, random.Random(seed), budget
    )


def positions(count: int, seed: int) -> list[tuple[Table, int]]:
    """Random positions of random matches (random play until a random stop)."""
    rng = random.Random(seed)
    found: list[tuple[Table, int]] = []
    while len(found) < count:
        options = OPTION_SETS[len(found) % len(OPTION_SETS)]
        table = Table(options, rng.randrange(10**6))
        stop = rng.randrange(70)
        for _ in range(stop):
            if GAME.is_over(table.state):
                break
            seat = table.seat()
            legal = GAME.legal_actions(table.state, seat)
            table.act(seat, legal[rng.randrange(len(legal))])
        if not GAME.is_over(table.state):
            found.append((table, table.seat()))
    return found


# ----- every level: legal and deterministic -------------------------------------------
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_returns_a_legal_action_in_random_positions(level):
    for table, seat in positions(24, seed=11):
        legal = GAME.legal_actions(table.state, seat)
        assert decide(level, table, seat) in legal


def test_every_level_plays_every_kind_of_action_legally_through_whole_matches():
    kinds: Counter[str] = Counter()
    for n in range(4):
        table = scripted(POOR_DEAL, {"armut": True, "match": "one_game"})
        levels = [LEVELS[(n + s) % 4] for s in range(4)]
        while not GAME.is_over(table.state):
            seat = table.seat()
            legal = GAME.legal_actions(table.state, seat)
            action = decide(levels[seat], table, seat, seed=n)
            assert action in legal
            kinds[type(action).__name__] += 1
            table.act(seat, action)
    assert {"Declare", "Play", "Announce"} <= set(kinds)


def test_the_poor_player_and_its_partner_are_served_by_every_level():
    for level in LEVELS:
        table = scripted(POOR_DEAL, {"armut": True, "match": "one_game"})
        for seat in range(4):
            table.act(seat, Declare(POOR_RESERVATIONS[seat]))
        seat = table.seat()
        assert isinstance(decide(level, table, seat), AnswerPoverty)
        table.act(seat, AnswerPoverty(True))
        while table.state.phase == "poverty_return":
            action = decide(level, table, table.seat())
            assert isinstance(action, GiveBack)
            table.act(table.seat(), action)
        assert table.state.phase == "play"


@pytest.mark.parametrize("level", LEVELS)
def test_decisions_are_deterministic_for_the_same_seed(level):
    for table, seat in positions(10, seed=5):
        assert decide(level, table, seat, seed=3) == decide(level, table, seat, seed=3)


# ----- honesty ------------------------------------------------------------------------
def redistributed(table: Table, seat: int, rng: random.Random) -> Table | None:
    """The same match with the other seats' unplayed cards swapped among them, kind for
    kind (never a ♣Q, never a fox): the seat's view and history stay the same."""
    deal = table.state.deal
    if deal is None or table.state.phase != "play" or deal.contract == Contract.POVERTY:
        return None
    rules = card_rules(deal.contract)
    hands = {s: list(deal.hands[s]) for s in deal.seats if s != seat}
    others = sorted(hands)
    for _ in range(30):
        a, b = rng.sample(others, 2)
        if not hands[a] or not hands[b]:
            continue
        x, y = rng.choice(hands[a]), rng.choice(hands[b])
        if rules.kind[x] != rules.kind[y] or {x, y} & {CLUB_QUEEN, FOX}:
            continue
        hands[a].remove(x), hands[b].remove(y)
        hands[a].append(y), hands[b].append(x)
    played = {s: [p.card for t in deal.tricks for p in t.plays if p.seat == s] for s in others}
    for p in deal.trick.plays if deal.trick else ():
        if p.seat in played:
            played[p.seat].append(p.card)
    events = []
    for e in table.events:
        if isinstance(e, ev.HandDealt) and e.deal == deal.number and e.seat in hands:
            e = replace(e, cards=tuple(sorted(played[e.seat] + hands[e.seat])))
        events.append(e)
    twin = Table(table.options, 0)
    twin.events = events
    twin.state = GAME.fold(GAME.initial_state(4, table.options), events)
    return twin


def test_bots_decide_the_same_whatever_the_hidden_cards():
    rng = random.Random(2)
    checked = 0
    for table, seat in positions(40, seed=23):
        twin = redistributed(table, seat, rng)
        if twin is None:
            continue
        deal, other = table.state.deal, twin.state.deal
        assert deal is not None and other is not None
        assert table.knowledge(seat) == twin.knowledge(seat)
        assert GAME.legal_actions(table.state, seat) == GAME.legal_actions(twin.state, seat)
        changed = any(deal.hands[s] != other.hands[s] for s in deal.seats if s != seat)
        checked += changed
        for level in LEVELS:
            assert decide(level, table, seat, seed=9) == decide(level, twin, seat, seed=9)
    assert checked >= 5


def test_the_bot_package_never_touches_a_game_state():
    import pathlib

    import tavola.games.doppelkopf.bots as package

    for path in pathlib.Path(package.__file__).parent.glob("*.py"):
        text = path.read_text()
        assert "DokoState" not in text and "doppelkopf.state" not in text, path.name
        for module in ("time", "datetime", "uuid", "os"):
            assert f"import {module}\n" not in text, path.name


# ----- hard's inferences --------------------------------------------------------------
def test_a_failure_to_follow_marks_a_void_and_samples_respect_it():
    table = scripted(NORMAL_DEAL)
    for seat in range(4):
        table.act(seat, Declare(Reservation.HEALTHY))
    for code in ("KH", "AH", "9H", "JC"):  # seat 3 cannot follow hearts: trumps with ♣J
        table.act(table.seat(), GAME.decode_action(code))
    seen = read(table.knowledge(0))
    assert seen.voids[3] == {int(card("AH").suit)}
    assert seen.voids[1] == set() and seen.voids[2] == set()
    for seed in range(20):
        hands = sample_hands(seen, random.Random(seed))
        assert not any(seen.rules.kind[c] == seen.rules.kind[card("AH")] for c in hands[3])
        assert {s: len(h) for s, h in hands.items()} == {1: 11, 2: 11, 3: 11}


def test_a_played_club_queen_and_an_announcement_reveal_parties():
    table = scripted(NORMAL_DEAL)
    for seat in range(4):
        table.act(seat, GAME.decode_action("healthy"))
    table.act(3, GAME.decode_action("kontra"))
    table.act(0, GAME.decode_action("QC"))  # seat 0 shows its ♣Q
    seen = read(table.knowledge(2))  # Kontra, holds no ♣Q
    assert seen.party[0] == Party.RE and seen.party[3] == Party.KONTRA
    assert seen.guess(1) == Party.RE  # the other ♣Q must be with seat 1
    for seed in range(10):
        assert CLUB_QUEEN in sample_hands(seen, random.Random(seed))[1]


def test_hard_counts_the_unseen_cards():
    table = scripted(NORMAL_DEAL)
    for seat in range(4):
        table.act(seat, GAME.decode_action("healthy"))
    seen = read(table.knowledge(0))
    assert len(seen.unseen) == 36 and seen.unseen.count(card("TH")) == 1


# ----- medium's rules of thumb --------------------------------------------------------
def test_medium_leads_an_ace_then_wins_cheaply_or_ducks():
    table = scripted(NORMAL_DEAL)
    for seat in range(4):
        table.act(seat, GAME.decode_action("healthy"))
    assert decide("medium", table, 0) == Play(card("AC"))  # a plain ace first
    table.act(0, Play(card("KD")))  # a low trump led by seat 0
    assert decide("medium", table, 1) == Play(card("TD"))  # the lowest trump that wins
    table.act(1, Play(card("QS")))
    assert decide("medium", table, 2) == Play(card("TH"))  # ♥Q loses to ♠Q: the Dulle


def test_medium_ducks_with_its_cheapest_card_when_it_cannot_win():
    table = scripted(NORMAL_DEAL)
    for seat in range(4):
        table.act(seat, GAME.decode_action("healthy"))
    table.act(0, Play(card("TH")))  # the Dulle: nobody beats it
    assert decide("medium", table, 1) == Play(card("9D"))


def test_hints_carry_a_catalogued_reason():
    for table, seat in positions(12, seed=3):
        legal = GAME.legal_actions(table.state, seat)
        action, reason = hint(GAME, table.knowledge(seat), legal)
        assert action in legal
        assert reason.code in MESSAGES
        assert {"en", "pt"} <= set(MESSAGES[reason.code])


# ----- the master's simulator ---------------------------------------------------------
def test_a_playout_scores_exactly_as_the_rules_do():
    for n, (table, seat) in enumerate(positions(16, seed=31)):
        deal = table.state.deal
        if table.state.phase != "play" or deal is None or deal.turn != seat:
            continue
        seen = read(table.knowledge(seat))
        setup = Setup.of(seen)
        truth = {s: [ID[c] for c in deal.hands[s]] for s in deal.seats if s != seat}
        trace: list[Card] = []
        outcome = Playout(setup, truth).run(None, trace)
        for c in trace:
            assert table.state.deal is not None and table.state.deal.turn is not None
            table.act(table.state.deal.turn, Play(c))
        scored = [e for e in table.events if isinstance(e, ev.GameScored)][-1]
        assert score(seen, outcome, setup.levels, seat) == scored.scores[seat] // (
            scored.multiplier
        ), n


def test_master_gives_the_least_to_a_lost_trick():
    table = scripted(NORMAL_DEAL)
    for seat in range(4):
        table.act(seat, GAME.decode_action("healthy"))
    table.act(0, Play(card("AS")))
    table.act(1, Play(card("KS")))
    table.act(2, Play(card("TS")))  # seat 3 (Kontra) must follow ♠ and cannot win
    action = decide("master", table, 3, budget=Budget(60))
    while isinstance(action, Announce):
        table.act(3, action)
        action = decide("master", table, 3, budget=Budget(60))
    assert action == Play(card("9S"))


# ----- arena --------------------------------------------------------------------------
def test_medium_beats_easy_in_a_quick_arena():
    assert BOTS.arena is not None
    result = pairing(GAME, BOTS.arena.players, BOTS.arena.options, "medium", "easy", 12, SMALL)
    assert result.low > 0, result.line()


def test_the_arena_table_is_a_single_official_game():
    assert BOTS.arena is not None
    assert BOTS.arena.players == 4
    assert GAME.parse_options(BOTS.arena.options)["match"] == "one_game"
    assert POLICIES.keys() == set(LEVELS)
