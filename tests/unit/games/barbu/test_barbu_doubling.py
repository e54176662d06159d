"""Doubles: turn order, who may double whom, redoubles and doubling back, the obligation
to double the declarer twice per block, and the pairwise settlement from raw scores."""

from __future__ import annotations

import pytest
from barbu_kit import GAME, SUIT_HANDS, act, choose, dealt, events_of, on_turn, play, resolve

from tavola.games.barbu import DealScored, DoublesDeclared, PairSettlement
from tavola.games.barbu.doubling import settle
from tavola.rules.errors import IllegalAction

# The rule book's worked example (No Queens): Ada (0) takes 2 queens, Ben (1) and Clara
# (2) one each, Dan (3) none, in four tricks.
BOOK = (
    "AS AC 2H 3D 4S 5S 6S 7S 8S 9S TS JS KS",
    "QS 2C AH 2D 4C 5C 6C 7C 8C 9C TC JC KC",
    "2S QC QH AD 4H 5H 6H 7H 8H 9H TH JH KH",
    "3S 3C 3H QD 4D 5D 6D 7D 8D 9D TD JD KD",
)
BOOK_TRICKS = "AS QS 2S 3S  AC 2C QC 3C  2H AH QH 3H  2D AD QD 3D"


def codes(state, seat):
    return [GAME.encode_action(a) for a in GAME.legal_actions(state, seat)]


def reason(state, seat, code):
    found = GAME.why_illegal(state, seat, GAME.decode_action(code))
    return None if found is None else found.code


def book_deal(doubles):
    state = choose(dealt(BOOK), "no-queens", doubles)
    state, events = play(state, BOOK_TRICKS)
    (scored,) = events_of(events, DealScored)
    assert scored.raw == (-12, -6, -6, 0)
    return scored


def test_each_player_has_one_doubling_turn_from_the_declarers_left_to_the_declarer():
    state = dealt(SUIT_HANDS, declarer=2)
    state, _ = act(state, 2, "contract no-queens")
    turns = []
    while state.phase == "doubling":
        turns.append(on_turn(state))
        state, _ = act(state, turns[-1], "double 2" if turns[-1] != 2 else "double 0 1 3")
    assert turns == [3, 0, 1, 2]
    assert state.phase == "play"


def test_in_a_negative_contract_a_non_declarer_may_double_any_other_player():
    state = dealt(SUIT_HANDS)
    state, _ = act(state, 0, "contract no-tricks")
    assert codes(state, 1) == [
        "pass",
        "double 0",
        "double 2",
        "double 3",
        "double 0 2",
        "double 0 3",
        "double 2 3",
        "double 0 2 3",
    ]
    assert reason(state, 1, "double 1") == "barbu.cannot_double_self"


@pytest.mark.parametrize("contract", ["trumps H", "domino 7"])
def test_in_a_positive_contract_non_declarers_may_double_only_the_declarer(contract):
    state = dealt(SUIT_HANDS)
    state, _ = act(state, 0, "contract " + contract)
    assert codes(state, 1) == ["pass", "double 0"]
    assert reason(state, 1, "double 2") == "barbu.positive_double_declarer_only"
    assert reason(state, 1, "double 0 3") == "barbu.positive_double_declarer_only"


def test_the_declarer_may_only_redouble_players_who_doubled_them():
    state = dealt(SUIT_HANDS)
    state, _ = act(state, 0, "contract no-hearts")
    state, _ = act(state, 1, "double 0")
    state, _ = act(state, 2, "double 3")
    state, _ = act(state, 3, "double 0 1")
    assert codes(state, 0) == ["pass", "double 1", "double 3", "double 1 3"]
    assert reason(state, 0, "double 2") == "barbu.redouble_only"


def test_a_declarer_nobody_doubled_passes_automatically():
    state = dealt(SUIT_HANDS)
    state, _ = act(state, 0, "contract no-hearts")
    state, _ = act(state, 1, "double 2")
    state, _ = act(state, 2, "pass")
    state, events = act(state, 3, "pass")
    assert events == [DoublesDeclared(1, 3, (), False), DoublesDeclared(1, 0, (), True)]
    assert state.phase == "play" and GAME.to_act(state) == frozenset({0})


def test_doubles_made_are_shown_to_everyone():
    state = dealt(SUIT_HANDS)
    state, _ = act(state, 0, "contract no-tricks")
    state, _ = act(state, 1, "double 0 3")
    made = [(d.doubler, d.doubled) for d in GAME.view(state, None).doubles]
    assert made == [(1, 0), (1, 3)]


def test_book_example_only_ben_doubles_ada():
    scored = book_deal({1: "double 0"})
    assert scored.adjusted == (-18, 0, -6, 0)
    assert scored.transfers == (-6, 6, 0, 0)
    assert PairSettlement(0, 1, 1, 0, 1, 6) in scored.settlements
    assert scored.totals == (-18, 0, -6, 0)


def test_a_redouble_makes_the_transfer_twice_the_difference():
    scored = book_deal({1: "double 0", 0: "double 1"})
    assert PairSettlement(0, 1, 2, 0, 1, 12) in scored.settlements
    assert scored.adjusted == (-24, 6, -6, 0)


def test_doubling_back_a_player_makes_mutual_doubles_like_a_redouble():
    scored = book_deal({1: "double 3", 3: "double 1"})
    assert PairSettlement(1, 3, 2, 1, 3, 12) in scored.settlements
    assert scored.adjusted == (-12, -18, -6, 12)


def test_equal_raw_scores_transfer_nothing():
    scored = book_deal({1: "double 2", 2: "double 1"})
    assert PairSettlement(1, 2, 2, None, None, 0) in scored.settlements
    assert scored.adjusted == scored.raw


def test_every_transfer_is_computed_from_raw_scores_never_adjusted_ones():
    scored = book_deal({1: "double 0", 3: "double 0 2"})
    assert scored.transfers == (-18, 6, -6, 18)
    assert scored.adjusted == (-30, 0, -12, 18)
    assert sum(scored.transfers) == 0 and sum(scored.adjusted) == -24


def test_settlement_lists_every_pair_with_how_many_doubles_linked_them():
    pairs, net = settle((-12, -6, -6, 0), ((1, 0),))
    assert [(p.low, p.high, p.doubles) for p in pairs] == [
        (0, 1, 1),
        (0, 2, 0),
        (0, 3, 0),
        (1, 2, 0),
        (1, 3, 0),
        (2, 3, 0),
    ]
    assert net == (-6, 6, 0, 0)


def test_with_no_doubling_play_starts_right_after_the_contract():
    state = dealt(SUIT_HANDS, options={"no_doubling": True})
    state, events = act(state, 0, "contract no-tricks")
    assert state.phase == "play" and GAME.to_act(state) == frozenset({0})
    assert not events_of(events, DoublesDeclared)
    assert GAME.view(state, 1).doubles_owed == (0, 0, 0, 0)
    assert reason(state, 0, "pass") == "barbu.expected_card"


# ----- the obligation ---------------------------------------------------------------------
def _block(doubles_by_deal, check=None):
    """Play the first block from a seeded session; ``doubles_by_deal[deal][seat]`` gives a
    doubling code, other turns use the timeout move; ``check(state)`` runs at every
    doubling turn."""
    state, _ = resolve(GAME.initial_state(4, {}), b"\x05" * 32)
    declarer = state.declarer
    while state.deal <= 7 and not GAME.is_over(state):
        seat = on_turn(state)
        if state.phase == "doubling" and check is not None:
            check(state, seat)
        code = doubles_by_deal.get(state.deal, {}).get((seat - declarer) % 4)
        if state.phase == "doubling" and code is not None:
            code = code.format(d=declarer)
            state, _ = act(state, seat, code)
        else:
            action, _ = GAME.automatic_action(state, seat)
            state = GAME.fold(state, GAME.decide(state, seat, action))
        if GAME.chance(state) is not None:
            state, _ = resolve(state, b"\x05" * 32)
    return state


def test_pass_is_refused_exactly_when_the_doubles_owed_equal_the_turns_left():
    # Relative seats: 1 = declarer's left (never doubles voluntarily), 2 doubles once,
    # 3 doubles the declarer twice early.
    plan = {1: {2: "double {d}", 3: "double {d}"}, 2: {3: "double {d}"}}
    seen = []

    def check(state, seat):
        rel = (seat - state.declarer) % 4
        if rel == 0:
            return
        refused = reason(state, seat, "pass")
        expect_forced = (7 - (state.deal - 1)) <= state.owed(seat)
        assert (refused == "barbu.must_double_declarer") == expect_forced
        assert all(str(state.declarer) in c for c in codes(state, seat)) == expect_forced
        if refused is not None:
            seen.append((state.deal, rel))
            found = GAME.why_illegal(state, seat, GAME.decode_action("pass"))
            assert found.param_dict()["declarer"] == state.declarer
            with pytest.raises(IllegalAction):
                GAME.decide(state, seat, GAME.decode_action("pass"))

    state = _block(plan, check)
    assert seen == [(6, 1), (7, 1), (7, 2)]
    assert state.deal == 8 and state.declarer == (state.dealer + 1) % 4


def test_the_view_shows_each_players_remaining_obligation_in_the_block():
    state = dealt(SUIT_HANDS)
    assert GAME.view(state, None).doubles_owed == (0, 2, 2, 2)
    state, _ = act(state, 0, "contract no-tricks")
    state, _ = act(state, 1, "double 0")
    state, _ = act(state, 2, "double 0 1")
    assert GAME.view(state, 3).doubles_owed == (0, 1, 1, 2)


def test_the_obligation_restarts_with_each_new_declarers_block():
    state = _block({})
    owed = GAME.view(state, None).doubles_owed
    assert owed[state.declarer] == 0 and sorted(owed) == [0, 2, 2, 2]


def test_a_timed_out_doubler_passes_unless_obligated_then_doubles_only_the_declarer():
    state = dealt(SUIT_HANDS)
    state, _ = act(state, 0, "contract no-tricks")
    action, why = GAME.automatic_action(state, 1)
    assert GAME.encode_action(action) == "pass" and why.code == "barbu.auto.pass"
    late = dealt(SUIT_HANDS, deal=6)
    late, _ = act(late, 0, "contract no-tricks")
    action, why = GAME.automatic_action(late, 1)
    assert GAME.encode_action(action) == "double 0"
    assert why.code == "barbu.auto.double_declarer"
