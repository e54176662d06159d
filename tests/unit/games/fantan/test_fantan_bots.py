"""Fan Tan bots: legal, deterministic, honest; hard's inferences and medium's heuristic on
scripted deals; the playout and the determinization follow the rules; medium beats easy."""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import Any

import pytest
from fantan_kit import GAME, deal, moves

from tavola.bots.arena import pairing
from tavola.bots.interface import LEVELS, Budget, Knowledge
from tavola.bots.knowledge import knowledge_of
from tavola.bots.registry import policy_for
from tavola.games.fantan import CardPlayed, CardsSetAside, HandDealt, HandStarted, Passed, Play
from tavola.games.fantan.bots import POLICIES, hint
from tavola.games.fantan.bots.deals import deal as sample_deal
from tavola.games.fantan.bots.master import Playout, choose_in_playout, play_out
from tavola.games.fantan.bots.model import bit_of, bits, card_of, ends_mask, mask_of, read
from tavola.rules.cards import cards
from tavola.rules.driver import resolve_all_chance
from tavola.rules.interface import Event
from tavola.rules.messages import catalogue

SMALL = Budget(samples=6)
TABLES: list[tuple[int, dict[str, Any]]] = [
    (4, {"hands": 2}),
    (3, {"hands": 1, "penalty": "card_value"}),
    (5, {"hands": 1, "equal_hands": True, "any_seven_starts": True}),
    (6, {"hands": 1, "equal_hands": True}),
]


def positions(players: int, options: dict[str, Any], seed: int, every: int = 5):
    """A match played by random levels; yields (state, events so far, seat, legal) at some
    decisions."""
    rng = random.Random(seed)
    state = GAME.initial_state(players, options)
    events: list[Event] = []
    step = 0
    while True:
        state, produced = resolve_all_chance(GAME, state, seed.to_bytes(32, "big"))
        events += produced
        if GAME.is_over(state):
            return
        seat = min(GAME.to_act(state))
        legal = GAME.legal_actions(state, seat)
        if step % every == rng.randrange(every):
            yield state, list(events), seat, legal
        level = LEVELS[rng.randrange(2)]
        knowledge = knowledge_of(GAME, state, events, seat, options)
        action = policy_for("fan-tan", level).decide(
            GAME, knowledge, legal, random.Random(step), SMALL
        )
        produced = GAME.decide(state, seat, action)
        state = GAME.fold(state, produced)
        events += produced
        step += 1


def all_positions(every: int = 5):
    for i, (players, options) in enumerate(TABLES):
        for state, events, seat, legal in positions(players, options, 100 + i, every):
            yield options, state, events, seat, legal


def decisions(knowledge: Knowledge, legal: Any, seed: int) -> dict[str, Any]:
    return {
        level: POLICIES[level].decide(GAME, knowledge, legal, random.Random(seed), SMALL)
        for level in LEVELS
    }


def test_every_level_plays_a_legal_card_in_random_positions_of_random_matches():
    count = 0
    for options, state, events, seat, legal in all_positions():
        knowledge = knowledge_of(GAME, state, events, seat, options)
        for level, action in decisions(knowledge, legal, count).items():
            assert action in legal, (level, action, legal)
        count += 1
    assert count > 40


def test_the_same_seed_gives_the_same_decision_at_every_level():
    for n, (options, state, events, seat, legal) in enumerate(all_positions(every=9)):
        knowledge = knowledge_of(GAME, state, events, seat, options)
        assert decisions(knowledge, legal, n) == decisions(knowledge, legal, n)


def redistributed(
    options: dict[str, Any], state: Any, events: list[Event], seat: int, rng: random.Random
) -> tuple[Any, list[Event]]:
    """The same match with the other seats' hidden cards of the current hand dealt again,
    consistently with everything ``seat`` saw (checked by replaying every move)."""
    knowledge = knowledge_of(GAME, state, events, seat, options)
    seen = read(knowledge)
    hands = sample_deal(seen, rng)
    start = max(i for i, e in enumerate(events) if isinstance(e, HandStarted))
    played: dict[int, list[Any]] = {s: [] for s in range(seen.players)}
    for event in events[start:]:
        if isinstance(event, CardPlayed):
            played[event.seat].append(event.card)
    aside = seen.unseen
    for s in range(seen.players):
        if s != seat:
            aside &= ~hands[s]
    new: list[Event] = []
    for i, event in enumerate(events):
        if i > start and isinstance(event, HandDealt) and event.seat != seat:
            dealt = [card_of(b) for b in bits(hands[event.seat])] + played[event.seat]
            event = HandDealt(event.hand, event.seat, tuple(sorted(dealt)))
        elif i > start and isinstance(event, CardsSetAside):
            event = CardsSetAside(event.hand, tuple(sorted(card_of(b) for b in bits(aside))))
        new.append(event)
    return _replayed(options, seen.players, new, start), new


def _replayed(options: dict[str, Any], players: int, events: list[Event], start: int) -> Any:
    """Folds the deal, then re-decides every card of the current hand: the rules must
    produce exactly the recorded events (so every recorded pass is still forced)."""
    dealt = start + 1
    while dealt < len(events) and isinstance(events[dealt], HandDealt | CardsSetAside):
        dealt += 1
    state = GAME.fold(GAME.initial_state(players, options), events[:dealt])
    i = dealt
    while i < len(events):
        event = events[i]
        assert isinstance(event, CardPlayed)
        produced = GAME.decide(state, event.seat, Play(event.card))
        assert produced == events[i : i + len(produced)]
        state = GAME.fold(state, produced)
        i += len(produced)
    return state


def test_redistributing_the_hidden_cards_never_changes_what_any_level_decides():
    rng = random.Random(7)
    checked = 0
    for n, (options, state, events, seat, legal) in enumerate(all_positions(every=6)):
        other, other_events = redistributed(options, state, events, seat, rng)
        assert other.hands[seat] == state.hands[seat]
        first = knowledge_of(GAME, state, events, seat, options)
        second = knowledge_of(GAME, other, other_events, seat, options)
        assert first == second
        assert decisions(first, legal, n) == decisions(second, GAME.legal_actions(other, seat), n)
        checked += other.hands != state.hands
    assert checked > 10  # the hidden cards really moved


def test_the_bot_code_has_no_path_to_a_game_state_or_another_seats_cards():
    package = Path(POLICIES["easy"].__module__.replace(".", "/"))
    root = Path(__import__("tavola").__file__).parent.parent / package
    for path in root.glob("*.py"):
        tree = ast.parse(path.read_text())
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        attrs = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        assert "FanTanState" not in names, path.name
        assert not {"hands", "fold", "evolve", "initial_state"} & attrs, path.name


def test_a_pass_proves_the_passer_holds_no_seven_and_no_card_next_to_an_open_end():
    # Seat 2 holds only spades above the 8, so it passes once 7♦ and 7♣ are down.
    state = deal(
        [
            "7D 2C 3C 4C 5C 6C 8C 9C TC JC QC KC AC",
            "7C 2D 3D 4D 5D 6D 8D 9D TD JD QD KD AD",
            "9S TS JS QS KS AS 2S 3S 4S 5S 2H 3H 4H",
            "7H 7S 6S 8S 5H 6H 8H 9H TH JH QH KH AH",
        ],
        dealer=3,
    )
    state, events = moves(state, "0:7D 1:7C")
    assert Passed(2) in events
    seen = read(knowledge_of(GAME, state, events, 0))
    proven = {card_of(b).code for b in bits(seen.lacks[2])}
    assert proven == {"6D", "8D", "6C", "8C", "7H", "7S"}
    assert seen.lacks[1] == seen.lacks[3] == 0
    for _ in range(20):  # and no sampled deal gives seat 2 any of them
        hands = sample_deal(seen, random.Random(_))
        assert not hands[2] & seen.lacks[2]
        assert [h.bit_count() for h in hands] == list(seen.counts)


def test_hard_uses_a_pass_to_know_which_card_is_safe_to_open():
    state = deal(
        [
            "7D 2C 3C 4C 5C 6C 8C 9C TC JC QC KC AC",
            "7C 2D 3D 4D 5D 6D 8D 9D TD JD QD KD AD",
            "9S TS JS QS KS AS 2S 3S 4S 5S 2H 3H 4H",
            "7H 7S 6S 8S 5H 6H 8H 9H TH JH QH KH AH",
        ],
        dealer=3,
    )
    state, events = moves(state, "0:7D 1:7C")
    knowledge = knowledge_of(GAME, state, events, 3)
    action, reason = hint(GAME, knowledge, GAME.legal_actions(state, 3))
    assert action in GAME.legal_actions(state, 3)
    assert reason.code in catalogue()


def test_medium_plays_toward_its_own_cards_and_keeps_its_blockers():
    # Seat 3 may play 7H (its hearts 8-K lie beyond) or 6S (nothing of its own beyond).
    state = deal(
        [
            "7D 2C 3C 4C 5C 6C 8C 9C TC JC QC KC AC",
            "7C 2D 3D 4D 5D 6D 8D 9D TD JD QD KD AD",
            "7S 9S TS JS QS KS AS 2S 3S 4S 5S 2H 3H",
            "4H 6S 8S 5H 6H 7H 8H 9H TH JH QH KH AH",
        ],
        dealer=3,
    )
    state, events = moves(state, "0:7D 1:7C 2:7S")
    legal = GAME.legal_actions(state, 3)
    assert {GAME.encode_action(a) for a in legal} == {"7H", "6S", "8S"}
    knowledge = knowledge_of(GAME, state, events, 3)
    choice = POLICIES["medium"].decide(GAME, knowledge, legal, random.Random(0), SMALL)
    assert GAME.encode_action(choice) == "7H"


def test_the_hint_is_the_hard_choice_with_a_catalogued_reason():
    for n, (options, state, events, seat, legal) in enumerate(all_positions(every=7)):
        knowledge = knowledge_of(GAME, state, events, seat, options)
        action, reason = hint(GAME, knowledge, legal)
        assert action == POLICIES["hard"].decide(GAME, knowledge, legal, random.Random(n), SMALL)
        assert reason.code in catalogue()
        if len(legal) == 1:
            assert reason.code == "fantan.hint.only_card"


def test_the_playout_follows_the_rules_to_the_end_of_the_hand():
    for _options, state, _events, _seat, _legal in all_positions(every=8):
        if not state.started:
            continue
        rows = tuple(None if r is None else (r[0] - 1, r[1] - 1) for r in state.rows)
        fast = play_out([mask_of(h) for h in state.hands], ends_mask(rows), state.turn, Playout(3))
        rng = Playout(3)
        while GAME.to_act(state):  # the hand ends with HandScored: nobody is on turn
            seat = state.turn
            playable = mask_of([a.card for a in GAME.legal_actions(state, seat)])
            mine = mask_of(state.hands[seat])
            chosen = (
                choose_in_playout(mine, playable, rng)
                if playable & (playable - 1)
                else playable.bit_length() - 1
            )
            state = GAME.fold(state, GAME.decide(state, seat, Play(card_of(chosen))))
        assert [mask_of(h) for h in state.hands] == fast


def test_card_bits_round_trip():
    for c in cards("AS 2S 7D KC TH"):
        assert card_of(bit_of(c)) == c


@pytest.mark.parametrize(("better", "worse"), [("medium", "easy")])
def test_a_quick_arena_shows_the_better_level_ahead(better, worse):
    result = pairing(GAME, 4, {"hands": 1}, better, worse, deals=40, budget=SMALL)
    assert result.low > 0, result.line()


def test_master_overrules_hards_card_only_on_clear_evidence(monkeypatch):
    from tavola.games.fantan.bots import master

    def with_outcomes(values):
        monkeypatch.setattr(master, "outcomes", lambda *_: values)
        return master.choose(None, [0, 1], 1, len(values[0]), None)

    noisy = [[-1.0, 1.0, -1.0, 1.0, -0.5], [1.0, -1.0, 1.0, -1.0, 0.5]]  # card 0 a bit lower
    assert with_outcomes(noisy) == 1  # not clear: hard's card (1) stands
    clear = [[-1.0, -0.9, -1.1, -1.0, -0.95], [0.0, 0.1, -0.1, 0.0, 0.05]]
    assert with_outcomes(clear) == 0  # clearly lower cost: master plays it
    assert with_outcomes([[0.5, 0.5], [0.0, 0.0]]) == 1  # hard's card is best anyway
