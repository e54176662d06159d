"""The dominoes bots: legal, deterministic, honest, and each level doing what it says.

Positions come from random matches of every mode (partnership, block, draw) driven through
the real chance path, or from scripted deals written out tile by tile.
"""

from __future__ import annotations

import ast
import pathlib
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest

import tavola.games.dominoes.bots as bots_package
from tavola.bots.arena import pairing, play
from tavola.bots.interface import Budget, Knowledge
from tavola.bots.knowledge import knowledge_of, visible
from tavola.games.dominoes import (
    GAME,
    BoneyardDrawn,
    DominoesState,
    HandScored,
    Play,
    TilePlayed,
)
from tavola.games.dominoes.bots import POLICIES, hint
from tavola.games.dominoes.bots.heuristics import medium_choice
from tavola.games.dominoes.bots.inference import INDEX, MASK, infer
from tavola.games.dominoes.bots.policies import to_move
from tavola.games.dominoes.bots.sim import Deal, determinize, playout, playout_choice
from tavola.rules import fairness
from tavola.rules.interface import ChanceRequest, Event
from tavola.rules.tiles import Tile, double_six_set

SET = double_six_set()
MODES = {"partnership": 4, "block": 2, "draw": 2}
SMALL = Budget(samples=6)


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(Tile.parse(code) for code in text.split())


# ----- positions from random matches ------------------------------------------------------
@dataclass
class Position:
    """A decision point, with what is needed to re-deal its hand: the state before the
    deal, the deal's request and shuffle, and every action of the hand since."""

    mode: str
    state: DominoesState
    events: list[Event]
    before_deal: DominoesState
    request: ChanceRequest
    shuffle: tuple[int, ...]
    hand_events: int  # index in ``events`` where this hand's deal starts
    actions: list[tuple[int, Play]]

    @property
    def seat(self) -> int:
        seat: int = min(GAME.to_act(self.state))
        return seat

    def knowledge(self) -> Knowledge:
        options = {"mode": self.mode, "target": 40}
        return knowledge_of(GAME, self.state, self.events, self.seat, options)


def random_positions(mode: str, matches: int, stop_chance: float = 0.15) -> list[Position]:
    out = []
    for m in range(matches):
        rng = random.Random(f"{mode}/{m}")
        seed = rng.randbytes(32)
        state = GAME.initial_state(MODES[mode], {"mode": mode, "target": 40})
        events: list[Event] = []
        pending: Position | None = None
        while not GAME.is_over(state):
            if (request := GAME.chance(state)) is not None:
                shuffle = fairness.outcome(seed, (), request)
                dealt = GAME.resolve_chance(state, request, shuffle)
                pending = Position(mode, state, events, state, request, shuffle, len(events), [])
                state = GAME.fold(state, dealt)
                events = [*events, *dealt]
                continue
            assert pending is not None
            seat = min(GAME.to_act(state))
            legal = GAME.legal_actions(state, seat)
            if len(legal) > 1 and rng.random() < stop_chance:
                out.append(
                    Position(
                        **{
                            **pending.__dict__,
                            "state": state,
                            "events": events,
                            "actions": list(pending.actions),
                        }
                    )
                )
            action = legal[rng.randrange(len(legal))]
            produced = GAME.decide(state, seat, action)
            pending.actions.append((seat, action))
            state = GAME.fold(state, produced)
            events = [*events, *produced]
    return out


def redeal(position: Position, rng: random.Random) -> tuple[DominoesState, list[Event]] | None:
    """The same hand with the tiles the seat has not seen dealt differently (each other seat
    keeps the tiles it has played); ``None`` unless the same actions replay into the same
    history for the seat."""
    seat, players = position.seat, position.state.players
    owners = [p // 7 if p < 7 * players else None for p in range(28)]
    draws = [
        e.seat for e in position.events[position.hand_events :] if isinstance(e, BoneyardDrawn)
    ]
    for k, drawer in enumerate(draws):
        owners[7 * players + k] = drawer
    perm = list(position.shuffle)
    free = [p for p in range(28) if owners[p] != seat]
    played = {(s, a.tile) for s, a in position.actions if s != seat}
    pool = [SET[perm[p]] for p in free if (owners[p], SET[perm[p]]) not in played]
    rng.shuffle(pool)
    for p in free:
        tile = SET[perm[p]]
        if (owners[p], tile) not in played:
            perm[p] = SET.index(pool.pop())
    slots = {s: [p for p in free if owners[p] == s] for s in range(players)}
    for s in slots:  # a seat's played tiles go back to random positions of its own
        mine = [p for p in slots[s] if (s, SET[position.shuffle[p]]) in played]
        rng.shuffle(slots[s])
        for p, q in zip(mine, slots[s][: len(mine)], strict=True):
            perm[p], perm[q] = perm[q], perm[p]
    state = position.before_deal
    events = list(position.events[: position.hand_events])
    dealt = GAME.resolve_chance(state, position.request, tuple(perm))
    state = GAME.fold(state, dealt)
    events += dealt
    for actor, action in position.actions:
        if action not in GAME.legal_actions(state, actor):
            return None
        produced = GAME.decide(state, actor, action)
        state = GAME.fold(state, produced)
        events += produced
    if visible(events, seat) != visible(position.events, seat):
        return None
    return state, events


@pytest.fixture(scope="module")
def positions() -> dict[str, list[Position]]:
    return {mode: random_positions(mode, 5 if mode == "partnership" else 7) for mode in MODES}


# ----- every level plays legally and deterministically ------------------------------------
@pytest.mark.parametrize("mode", MODES)
def test_every_level_returns_a_legal_action_in_random_positions(
    positions: dict[str, list[Position]], mode: str
) -> None:
    both_ends = 0
    for position in positions[mode]:
        legal = GAME.legal_actions(position.state, position.seat)
        both_ends += any(isinstance(a, Play) and a.end is not None for a in legal)
        for level, policy in POLICIES.items():
            action = policy.decide(GAME, position.knowledge(), legal, random.Random(3), SMALL)
            assert action in legal, (level, action)
    assert len(positions[mode]) >= 10
    assert both_ends, "some position must offer a choice of end"


@pytest.mark.parametrize("mode", MODES)
def test_every_level_plays_whole_matches_including_the_choice_of_end(mode: str) -> None:
    chosen = set()
    for level in POLICIES:
        for seed in range(2):
            levels = [level] * MODES[mode]
            state, events = _play(mode, levels, seed)
            assert GAME.is_over(state)
            chosen |= {
                (level, e.end) for e in events if isinstance(e, TilePlayed) and e.end is not None
            }
    assert {level for level, _ in chosen} == set(POLICIES)


def _play(mode: str, levels: Sequence[str], seed: int) -> tuple[Any, list[Event]]:
    match: tuple[Any, list[Event]] = play(
        GAME, MODES[mode], {"mode": mode, "target": 15}, bytes([seed]) * 32, levels, seed, SMALL
    )
    return match


def test_decisions_are_the_same_for_the_same_seed(positions: dict[str, list[Position]]) -> None:
    for mode in MODES:
        for position in positions[mode][:6]:
            legal = GAME.legal_actions(position.state, position.seat)
            for policy in POLICIES.values():
                first = policy.decide(GAME, position.knowledge(), legal, random.Random(9), SMALL)
                again = policy.decide(GAME, position.knowledge(), legal, random.Random(9), SMALL)
                assert first == again


def test_the_hint_is_the_hard_choice_with_a_reason_in_both_languages(
    positions: dict[str, list[Position]],
) -> None:
    codes = set()
    for mode in MODES:
        for position in positions[mode]:
            knowledge = position.knowledge()
            legal = GAME.legal_actions(position.state, position.seat)
            action, reason = hint(GAME, knowledge, legal)
            hard = POLICIES["hard"].decide(GAME, knowledge, legal, random.Random(1), SMALL)
            assert action == hard
            for text in GAME.messages()[reason.code].values():
                assert GAME.encode_action(action) in text.format(**reason.param_dict())
            codes.add(reason.code)
    assert len(codes) >= 3


# ----- honesty --------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
def test_redealing_the_unseen_tiles_consistently_never_changes_a_decision(
    positions: dict[str, list[Position]], mode: str
) -> None:
    checked = changed_hands = 0
    for i, position in enumerate(positions[mode]):
        rng = random.Random(i)
        other = next((r for _ in range(200) if (r := redeal(position, rng))), None)
        if other is None:
            continue
        state, events = other
        seat = position.seat
        changed_hands += state.hands != position.state.hands
        mine = position.knowledge()
        theirs = knowledge_of(GAME, state, events, seat, {"mode": mode, "target": 40})
        assert theirs == mine  # same view, same history: nothing hidden leaks in
        legal = GAME.legal_actions(state, seat)
        assert legal == GAME.legal_actions(position.state, seat)
        for policy in POLICIES.values():
            assert policy.decide(GAME, theirs, legal, random.Random(5), SMALL) == policy.decide(
                GAME, mine, legal, random.Random(5), SMALL
            )
        checked += 1
    assert checked >= len(positions[mode]) // 2 and changed_hands >= checked // 2


def test_the_bot_code_has_no_path_to_another_seats_tiles() -> None:
    root = pathlib.Path(str(bots_package.__file__)).parent
    for path in root.glob("*.py"):
        tree = ast.parse(path.read_text())
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        attrs = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        imported = {
            a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names
        }
        assert not {"DominoesState", "BoneyardFormed", "HandDealt", "TileDrawn"} & (
            names | imported
        ), path.name
        assert not {"hands", "state"} & attrs, path.name


def test_sampled_deals_respect_counts_and_every_inferred_void(
    positions: dict[str, list[Position]],
) -> None:
    for mode in MODES:
        for position in positions[mode]:
            info = infer(position.knowledge())
            for k in range(20):
                deal = determinize(info, random.Random(k))
                assert sorted([*deal.boneyard, *(t for h in deal.held for t in h)]) == sorted(
                    [*info.unseen, *info.hand]
                )
                assert [len(h) for h in deal.held] == list(info.counts)
                for seat in info.others():
                    assert all(info.can_hold(seat, t) for t in deal.held[seat])


# ----- the simulator follows the rules --------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
def test_a_playout_scores_exactly_what_the_rules_score(
    positions: dict[str, list[Position]], mode: str
) -> None:
    for position in positions[mode]:
        state, seat = position.state, position.seat
        held = [[INDEX[t] for t in h] for h in state.hands]
        deal = Deal(held, [INDEX[t] for t in state.boneyard])
        ends = state.ends
        legal = GAME.legal_actions(state, seat)
        first = legal[0]
        result = playout(deal, state.options, ends, seat, to_move(first, ends))
        produced = GAME.decide(state, seat, first)
        state = GAME.fold(state, produced)
        while state.turn is not None and state.phase == "play":
            actor = state.turn
            hands = [[INDEX[t] for t in h] for h in state.hands]
            partner = _numbers(hands[(actor + 2) % 4]) if state.players == 4 else 0
            move = playout_choice(
                hands[actor], state.ends, _numbers(hands[(actor - 1) % state.players]), partner
            )
            action = next(
                a for a in GAME.legal_actions(state, actor) if to_move(a, state.ends) == move
            )
            step = GAME.decide(state, actor, action)
            state = GAME.fold(state, step)
            produced += step
        (scored,) = [e for e in produced if isinstance(e, HandScored)]
        assert (scored.winner_side, scored.points) == (result.winner_side, result.points)


def _numbers(hand: list[int]) -> int:
    mask = 0
    for t in hand:
        mask |= MASK[t]
    return mask


# ----- scripted positions ---------------------------------------------------------------------
def run(
    mode: str, hands: Sequence[str], codes: Sequence[str], boneyard: str | None = None
) -> tuple[DominoesState, list[Event]]:
    """Deal ``hands`` (and the boneyard in drawing order), then play ``codes`` in turn."""
    order = [t for hand in hands for t in tiles(hand)]
    order += list(tiles(boneyard)) if boneyard is not None else [t for t in SET if t not in order]
    state = GAME.initial_state(MODES[mode], {"mode": mode})
    request = GAME.chance(state)
    assert request is not None
    events = GAME.resolve_chance(state, request, tuple(SET.index(t) for t in order))
    state = GAME.fold(state, events)
    for code in codes:
        seat = min(GAME.to_act(state))
        produced = GAME.decide(state, seat, GAME.decode_action(code))
        state = GAME.fold(state, produced)
        events += produced
    return state, events


def seen_by(state: DominoesState, events: list[Event], seat: int, mode: str) -> Knowledge:
    return knowledge_of(GAME, state, events, seat, {"mode": mode})


# A partnership deal: seat 0 holds the 6-6 and seat 3 holds no 6.
PARTNERS = (
    "6-6 6-5 6-1 0-0 1-0 2-0 3-0",
    "6-4 6-0 4-0 3-2 3-1 2-1 1-1",
    "6-3 6-2 5-2 5-1 5-0 4-2 4-1",
    "5-5 5-4 5-3 4-4 4-3 3-3 2-2",
)


def test_hard_infers_that_a_seat_which_passed_lacks_both_ends() -> None:
    state, events = run("partnership", PARTNERS, ["6-6"])  # seat 3 passes on 6 and 6
    info = infer(seen_by(state, events, 2, "partnership"))
    assert info.void[3] == 1 << 6 and info.lacks(3, 6)
    assert not info.lacks(1, 6) and not info.lacks(0, 5)
    assert Tile(6, 6) not in [SET[t] for t in info.unseen]


def test_hard_counts_the_unseen_tiles_and_every_pass_and_exhausted_number(
    positions: dict[str, list[Position]],
) -> None:
    for mode in ("partnership", "block"):
        for position in positions[mode]:
            knowledge = position.knowledge()
            info = infer(knowledge)
            seen = {p.tile for p in knowledge.view.line} | set(knowledge.view.hand)
            assert {SET[t] for t in info.unseen} == set(SET) - seen
            assert len(info.unseen) == sum(info.counts) - len(info.hand) + info.boneyard
            for record in knowledge.view.passes:
                if record.seat != info.seat:
                    assert info.lacks(record.seat, record.left_end)
                    assert info.lacks(record.seat, record.right_end)
            for number in range(7):
                if not any(SET[t].has(number) for t in info.unseen):
                    assert all(info.lacks(s, number) for s in info.others())
            for seat in info.others():  # and the truth agrees with every inference
                truth = position.state.hands[seat]
                assert all(info.can_hold(seat, INDEX[t]) for t in truth)


def test_the_hint_makes_the_next_opponent_pass_when_it_is_known_to_lack_the_ends() -> None:
    state, events = run("partnership", PARTNERS, ["6-6", "6-2", "2-1"])  # ends 6 and 1
    knowledge = seen_by(state, events, 0, "partnership")
    legal = GAME.legal_actions(state, 0)
    action, reason = hint(GAME, knowledge, legal)
    assert GAME.encode_action(action) == "6-1 R"  # ends 6 and 6: seat 3 has no 6
    assert reason.code == "dominoes.hint.opponent_lacks"
    assert POLICIES["hard"].decide(GAME, knowledge, legal, random.Random(0), SMALL) == action
    for text in GAME.messages()[reason.code].values():
        assert "6-1 R" in text.format(**reason.param_dict())


def test_a_draw_tells_that_the_drawer_lacks_the_ends_but_may_hold_anything_else() -> None:
    hands = ("6-6 6-5 6-4 1-0 2-0 3-0 4-0", "5-5 5-4 5-3 4-4 4-3 3-3 2-2")
    boneyard = "1-1 2-1 6-3 0-0 3-1 3-2 4-1 4-2 5-0 5-1 5-2 6-0 6-1 6-2"
    state, events = run("draw", hands, ["6-6"], boneyard)  # seat 1 draws 1-1, 2-1, 6-3
    assert [e.seat for e in events if isinstance(e, BoneyardDrawn)] == [1, 1, 1]
    info = infer(seen_by(state, events, 0, "draw"))
    assert info.void[1] == 1 << 6  # it could not match 6 and 6, then drew 6-3 to play it
    assert info.counts[1] == 10 and info.boneyard == 11
    assert not info.lacks(1, 1)  # the drawn 1-1 and 2-1 are unseen: anything but a 6


def test_a_highest_double_opening_tells_that_higher_doubles_lie_in_the_boneyard() -> None:
    hands = ("4-4 6-5 6-4 3-1 2-0 1-0 5-0", "5-5 2-2 6-3 5-4 4-2 3-0 1-1")
    state, events = run("block", hands, ["5-5"])  # the 6-6 was not dealt to anyone
    info = infer(seen_by(state, events, 0, "block"))
    assert INDEX[Tile(6, 6)] in info.excluded[1]
    for k in range(30):
        deal = determinize(info, random.Random(k))
        assert INDEX[Tile(6, 6)] in deal.boneyard


def test_medium_plays_its_heaviest_tile() -> None:
    state, events = run("partnership", PARTNERS, ["6-6", "6-3"])  # ends 6 and 3
    knowledge = seen_by(state, events, 1, "partnership")
    legal = GAME.legal_actions(state, 1)  # 3-1, 3-2, 6-0, 6-4
    action = POLICIES["medium"].decide(GAME, knowledge, legal, random.Random(0), SMALL)
    assert action == Play(Tile(6, 4))


def test_medium_lays_a_tile_fitting_both_ends_where_it_can_still_follow() -> None:
    hand = [INDEX[t] for t in tiles("6-4 4-1 1-1")]
    legal = [(INDEX[Tile(6, 4)], 0), (INDEX[Tile(6, 4)], 1), (INDEX[Tile(4, 1)], 1)]
    # ends 6 and 4: 6-4 on the left leaves 4 and 4 (4-1 follows), on the right 6 and 6
    assert medium_choice(hand, (6, 4), legal) == (INDEX[Tile(6, 4)], 0)
    assert medium_choice(hand, (4, 6), legal[::-1]) == (INDEX[Tile(6, 4)], 1)


def test_a_quick_arena_shows_medium_beating_easy() -> None:
    result = pairing(GAME, 4, {"mode": "partnership", "target": 1}, "medium", "easy", 400, SMALL)
    assert result.low > 0, result.line()
