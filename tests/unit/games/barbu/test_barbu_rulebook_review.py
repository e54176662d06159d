"""Rule-book review (``shared/rules/barbu.md``): statements, worked examples and edge cases
not already pinned down by the other Barbu tests. A test marked ``xfail(strict=True)``
records a place where the engine disagrees with the book."""

from __future__ import annotations

import pytest
from barbu_kit import (
    GAME,
    SUIT_HANDS,
    act,
    auto_deal,
    choose,
    deal_permutation,
    dealt,
    events_of,
    on_turn,
    play,
)

from tavola.games.barbu import (
    Contract,
    DealEndedEarly,
    DealScored,
    DealStarted,
    DoublesDeclared,
    Passed,
    SessionEnded,
    TrickWon,
    WentOut,
)
from tavola.games.barbu.doubling import settle
from tavola.rules.cards import cards


def codes(state, seat):
    return [GAME.encode_action(a) for a in GAME.legal_actions(state, seat)]


def legal(state, seat):
    return sorted(codes(state, seat))


def reason(state, seat, code):
    found = GAME.why_illegal(state, seat, GAME.decode_action(code))
    return None if found is None else found.code


def scored_of(events) -> DealScored:
    (scored,) = events_of(events, DealScored)
    return scored


# ----- the worked example ("Score of a deal"): No Queens, Ada/Ben/Clara/Dan = 0/1/2/3 ------
BOOK = (
    "AS AC 2H 3D 4S 5S 6S 7S 8S 9S TS JS KS",
    "QS 2C AH 2D 4C 5C 6C 7C 8C 9C TC JC KC",
    "2S QC QH AD 4H 5H 6H 7H 8H 9H TH JH KH",
    "3S 3C 3H QD 4D 5D 6D 7D 8D 9D TD JD KD",
)
# Dan (3) declares and leads; Ada takes QS and QC, Ben QH, Clara QD.
BOOK_TRICKS_DAN_LEADS = "3S AS QS 2S  AC 2C QC 3C  2H AH QH 3H  2D AD QD 3D"


def test_book_example_reproduced_by_settlement_alone():
    pairs, net = settle((-12, -6, -6, 0), ((1, 0),))
    adjusted = tuple(r + t for r, t in zip((-12, -6, -6, 0), net, strict=True))
    assert adjusted == (-18, 0, -6, 0)
    assert [(p.payer, p.payee, p.amount) for p in pairs if p.amount] == [(0, 1, 6)]


def test_book_example_when_ben_and_ada_are_both_non_declarers():
    # Dan declares; in a negative contract Ben may double Ada (any other player).
    state = choose(dealt(BOOK, declarer=3), "no-queens", {1: "double 0"})
    state, events = play(state, BOOK_TRICKS_DAN_LEADS)
    scored = scored_of(events)
    assert scored.raw == (-12, -6, -6, 0)
    assert scored.adjusted == (-18, 0, -6, 0)
    assert scored.totals == (-18, 0, -6, 0)
    assert events_of(events, DealEndedEarly) == [DealEndedEarly(1, 4)]


def test_book_example_doubled_back_by_ada_is_twice_the_difference():
    # Dan declares, so the doubling order is Ada, Ben, Clara, Dan: Ada doubles Ben first and
    # Ben doubles her back (mutual doubles, "exactly like a redouble"): 2 x 6.
    state = choose(dealt(BOOK, declarer=3), "no-queens", {0: "double 1", 1: "double 0"})
    state, events = play(state, BOOK_TRICKS_DAN_LEADS)
    scored = scored_of(events)
    assert scored.transfers == (-12, 12, 0, 0)
    assert scored.adjusted == (-24, 6, -6, 0)


# ----- contracts: points and totals -------------------------------------------------------
def test_the_raw_totals_of_the_seven_contracts_and_a_block_sums_to_zero():
    expected = {
        Contract.NO_TRICKS: -26,
        Contract.NO_QUEENS: -24,
        Contract.NO_LAST_TWO: -30,
        Contract.NO_HEARTS: -30,
        Contract.NO_KING: -20,
        Contract.TRUMPS: 65,
        Contract.DOMINO: 65,
    }
    assert {c: c.raw_total for c in Contract} == expected
    assert sum(expected.values()) == 0


def test_no_hearts_a_trick_with_the_ace_and_two_other_hearts_costs_ten():
    hands = ("2S 3C", "AH 4C", "5H 5C", "9H 6C")
    state = choose(dealt(hands), "no-hearts")
    state, events = play(state, "2S AH 5H 9H")
    (won,) = events_of(events, TrickWon)
    assert won.winner == 0 and won.points == -10
    assert sorted(won.penalty_cards) == sorted(cards("AH 5H 9H"))


def test_no_king_the_king_discarded_on_another_suit_costs_the_trick_winner_twenty():
    hands = ("2S 3C", "AS 4C", "KH 5C", "3S 6C")
    state = choose(dealt(hands), "no-king")
    state, events = play(state, "2S AS KH 3S")
    assert events_of(events, DealEndedEarly) == [DealEndedEarly(1, 1)]
    assert scored_of(events).raw == (0, -20, 0, 0)


def test_no_queens_a_discarded_queen_is_captured_by_the_trick_winner():
    hands = ("2S 3C", "AS 4C", "QH 5C", "3S 6C")
    state = choose(dealt(hands), "no-queens")
    state, events = play(state, "2S AS QH 3S")
    (won,) = events_of(events, TrickWon)
    assert (won.winner, won.points, won.penalty_cards) == (1, -6, cards("QH"))


def test_no_hearts_penalties_follow_each_capture_and_play_out_keeps_the_total():
    state = choose(dealt(SUIT_HANDS, options={"play_out_all_tricks": True}), "no-hearts")
    ranks = "23456789TJQKA"
    state, events = play(state, " ".join(f"{r}S {r}H {r}D {r}C" for r in ranks))
    assert [t.points for t in events_of(events, TrickWon)] == [-2] * 12 + [-6]
    assert scored_of(events).raw == (-30, 0, 0, 0)


def test_no_king_play_out_all_tricks_continues_after_the_king_and_keeps_minus_twenty():
    hands = ("2S 3C", "AS 4C", "KH 5C", "3S 6C")
    state = choose(dealt(hands, options={"play_out_all_tricks": True}), "no-king")
    state, events = play(state, "2S AS KH 3S")
    assert not events_of(events, DealEndedEarly) and state.phase == "play"
    assert state.points == (0, -20, 0, 0) and GAME.to_act(state) == frozenset({1})


@pytest.mark.parametrize("contract", ["no-hearts", "no-king"])
def test_the_heart_lead_restriction_holds_for_every_lead_not_only_the_first(contract):
    hands = ("2C 3D", "AC 5H 4D", "3C 6H", "4C 7H")
    state = choose(dealt(hands), contract)
    state, _ = play(state, "2C AC 3C 4C")  # seat 1 wins and leads, holding 5H and 4D
    assert codes(state, 1) == ["4D"]
    assert reason(state, 1, "5H") == "barbu.no_heart_lead"


@pytest.mark.parametrize("trump", ["H", "S"])
def test_hearts_may_be_led_freely_in_trumps(trump):
    state = choose(dealt(("2H 2C", "TS 2D", "3S 3D", "4H 4D")), "trumps " + trump)
    assert legal(state, 0) == ["2C", "2H"]


def test_trumps_is_always_played_out_and_splits_65_by_tricks():
    hands = (
        "AS KS QS 2D 3D 4D 5D 6D 7D 8D 9D TD JD",
        "2S 3S 4S 5S 6S 7S 8S 9S TS JS QD KD AD",
        SUIT_HANDS[1],
        SUIT_HANDS[3],
    )
    state = choose(dealt(hands), "trumps S")
    tricks = "AS 2S 2H 2C  KS 3S 3H 3C  QS 4S 4H 4C  2D QD 5H 5C"
    tricks += "  5S 6H 6C 3D  6S 7H 7C 4D  7S 8H 8C 5D  8S 9H 9C 6D  9S TH TC 7D"
    tricks += "  TS JH JC 8D  JS QH QC 9D  KD KH KC TD  AD AH AC JD"
    state, events = play(state, tricks)
    assert [t.winner for t in events_of(events, TrickWon)] == [0] * 3 + [1] * 10
    assert not events_of(events, DealEndedEarly)
    assert scored_of(events).raw == (15, 50, 0, 0)


# ----- trumps: the over-trump and winning-trump duties ------------------------------------
def test_on_a_trump_lead_the_highest_trump_so_far_must_be_beaten_not_only_the_led_one():
    state = choose(dealt(("5S 2C", "JS 2D", "8S QS", "2H 3H")), "trumps S")
    state, _ = play(state, "5S JS")
    assert legal(state, 2) == ["QS"]
    assert reason(state, 2, "8S") == "barbu.must_overtrump"


def test_void_in_a_plain_suit_every_winning_trump_is_legal_and_only_those():
    state = choose(dealt(("KH 2C", "TS 2D", "3S JS QS 5D", "4H 5H")), "trumps S")
    state, _ = play(state, "KH TS")
    assert legal(state, 2) == ["JS", "QS"]
    assert reason(state, 2, "3S") == "barbu.must_trump_to_win"


def test_void_with_no_trump_yet_in_the_trick_any_trump_wins_so_any_trump_is_legal():
    state = choose(dealt(("KH 2C", "2S 9S 2D", "3S", "4H")), "trumps S")
    state, _ = play(state, "KH")
    assert legal(state, 1) == ["2S", "9S"]


def test_a_player_with_the_suit_led_follows_even_if_a_trump_could_win():
    state = choose(dealt(("KH 2C", "QS 2D", "3H AS", "4H 5H")), "trumps S")
    state, _ = play(state, "KH QS")
    assert legal(state, 2) == ["3H"]


# ----- doubles ----------------------------------------------------------------------------
def test_a_pair_with_a_double_in_each_direction_from_two_non_declarers_and_a_redouble():
    # Dan declares No Queens; Ada doubles Dan and Clara; Ben doubles Ada; Clara doubles Ada
    # back; Dan redoubles Ada.
    plan = {0: "double 2 3", 1: "double 0", 2: "double 0", 3: "double 0"}
    state = choose(dealt(BOOK, declarer=3), "no-queens", plan)
    state, events = play(state, BOOK_TRICKS_DAN_LEADS)
    scored = scored_of(events)
    by_pair = {(p.low, p.high): (p.doubles, p.amount) for p in scored.settlements}
    assert by_pair[(0, 1)] == (1, 6)
    assert by_pair[(0, 2)] == (2, 12)
    assert by_pair[(0, 3)] == (2, 24)
    assert scored.transfers == (-42, 6, 12, 24)
    assert scored.adjusted == (-54, 0, 6, 24) and sum(scored.adjusted) == -24


@pytest.mark.parametrize("contract", ["trumps H", "domino 7"])
def test_in_a_positive_contract_the_declarer_redoubles_the_doublers_only(contract):
    state = dealt(SUIT_HANDS)
    state, _ = act(state, 0, "contract " + contract)
    state, _ = act(state, 1, "double 0")
    state, _ = act(state, 2, "pass")
    state, _ = act(state, 3, "double 0")
    assert codes(state, 0) == ["pass", "double 1", "double 3", "double 1 3"]
    assert reason(state, 0, "double 2") == "barbu.redouble_only"


def test_domino_with_a_single_double_and_a_redouble_settles_pairwise():
    hands = ("7H 7S", "8H", "6H 8S", "9H 6S 5S")
    state = choose(dealt(hands), "domino 7", {1: "double 0", 3: "double 0", 0: "double 3"})
    state, events = play(state, "7H 8H 6H 9H 7S 8S")
    scored = scored_of(events)
    assert scored.raw == (20, 45, 5, -5)
    assert scored.transfers == (25, 25, 0, -50)
    assert scored.adjusted == (45, 70, 5, -55) and sum(scored.adjusted) == 65


def test_each_seat_has_exactly_one_doubling_turn_even_after_being_doubled_later():
    # Ada (left of Dan) passes; Clara then doubles her: Ada cannot answer any more.
    state = dealt(BOOK, declarer=3)
    state, _ = act(state, 3, "contract no-queens")
    state, _ = act(state, 0, "pass")
    state, _ = act(state, 1, "pass")
    state, events = act(state, 2, "double 0")
    # Dan, doubled by nobody, passes automatically; Ada gets no second turn to answer.
    assert events[-1] == DoublesDeclared(1, 3, (), True)
    assert state.phase == "play" and state.doubles == ((2, 0),)


# ----- the obligation (two doubles of the declarer per block) -----------------------------
def _next_deal(state):
    """Deal the next deal (SUIT_HANDS) through the public chance interface."""
    deal = state.deal + 1
    declarer = state.declarer if (deal - 1) % 7 else (state.declarer + 1) % 4
    request = GAME.chance(state)
    events = GAME.resolve_chance(state, request, deal_permutation(SUIT_HANDS, declarer))
    return GAME.fold(state, events)


def _play_deals(plans, options=None):
    """Deals 1.. with declarer 0: ``plans[i] = (contract, doubles)``; play by timeouts.
    Returns the state at the contract choice of the deal after the last plan."""
    state = dealt(SUIT_HANDS, options=options)
    for contract, doubles in plans:
        state = choose(state, contract, doubles)
        state, _ = auto_deal(state)
        state = _next_deal(state)
    return state


def test_doubling_other_non_declarers_does_not_count_towards_the_obligation():
    negative = ["no-tricks", "no-queens", "no-last-two", "no-hearts", "no-king"]
    plans = [(c, {1: "double 2 3"}) for c in negative]
    state = _play_deals(plans)
    assert state.deal == 6 and state.declarer == 0
    assert GAME.view(state, None).doubles_owed == (0, 2, 2, 2)
    state, _ = act(state, 0, "contract trumps S")
    assert reason(state, 1, "pass") == "barbu.must_double_declarer"
    assert codes(state, 1) == ["double 0"]


def test_a_forced_doubler_in_a_negative_contract_may_double_others_too():
    state = dealt(SUIT_HANDS, deal=6)
    state, _ = act(state, 0, "contract no-queens")
    assert codes(state, 1) == ["double 0", "double 0 2", "double 0 3", "double 0 2 3"]
    assert reason(state, 1, "double 2 3") == "barbu.must_double_declarer"


def test_one_double_owed_is_not_forced_with_two_turns_left_but_is_with_one():
    negative = ["no-tricks", "no-queens", "no-last-two", "no-hearts"]
    plans = [(negative[0], {1: "double 0"})] + [(c, {}) for c in negative[1:]]
    state = _play_deals(plans)
    assert state.deal == 5
    state = choose(state, "no-king", {2: "double 0", 3: "double 0"})
    state, _ = auto_deal(state)
    state = _next_deal(state)
    assert state.deal == 6
    state, _ = act(state, 0, "contract trumps S")
    assert GAME.view(state, None).doubles_owed == (0, 1, 1, 1)
    assert reason(state, 1, "pass") is None  # 1 owed, 2 turns left
    state, _ = act(state, 1, "pass")
    state, _ = act(state, 2, "pass")
    state, _ = act(state, 3, "pass")
    state, _ = auto_deal(state)
    state = _next_deal(state)
    assert state.deal == 7
    state, _ = act(state, 0, "contract domino 7")
    assert reason(state, 1, "pass") == "barbu.must_double_declarer"


def test_the_declarers_redoubles_do_not_count_and_after_two_doubles_nobody_is_forced():
    plans = [
        ("no-tricks", {1: "double 0", 0: "double 1"}),
        ("no-queens", {1: "double 0", 0: "double 1"}),
    ] + [(c, {}) for c in ["no-last-two", "no-hearts", "no-king"]]
    state = _play_deals(plans)
    assert state.deal == 6
    state, _ = act(state, 0, "contract trumps S")
    assert GAME.view(state, None).doubles_owed == (0, 0, 2, 2)
    assert reason(state, 1, "pass") is None
    state, _ = act(state, 1, "pass")
    assert reason(state, 2, "pass") == "barbu.must_double_declarer"


def test_with_no_doubling_nobody_is_ever_forced_and_no_double_is_possible():
    state = dealt(SUIT_HANDS, deal=7, options={"no_doubling": True})
    state, events = act(state, 0, "contract no-tricks")
    assert not events_of(events, DoublesDeclared)
    assert state.phase == "play" and GAME.view(state, None).doubles_owed == (0, 0, 0, 0)


# ----- Domino -----------------------------------------------------------------------------
def test_domino_other_suits_open_with_their_starting_rank_and_rows_grow_both_ways():
    hands = ("7H 6S", "7S 8H", "6H 8S", "5H 9S")
    state = choose(dealt(hands), "domino 7")
    assert legal(state, 0) == ["7H"]  # 6S waits for 7S
    state, _ = play(state, "7H")
    assert legal(state, 1) == ["7S", "8H"]
    state, _ = play(state, "7S 6H 5H 6S 8H")
    rows = {r.suit.letter: (r.low, r.high) for r in GAME.view(state, None).rows}
    assert rows == {"H": (5, 8), "S": (6, 7)}


def test_domino_a_row_reaching_the_ace_stops_there():
    hands = ("KH 2C", "AH 3C", "2H QH", "4C")
    state = choose(dealt(hands), "domino K")
    state, _ = play(state, "KH AH")
    assert legal(state, 2) == ["QH"]
    assert reason(state, 2, "2H") == "barbu.domino_not_adjacent"


def test_domino_the_seat_left_holding_cards_scores_minus_five_whatever_it_holds():
    hands = ("7H", "8H", "9H", "TH JH QH KH AH 6H 5H 4H")
    state = choose(dealt(hands), "domino 7")
    state, events = play(state, "7H 8H 9H")
    assert events_of(events, WentOut) == [WentOut(0, 1, 45), WentOut(1, 2, 20), WentOut(2, 3, 5)]
    assert scored_of(events).raw == (45, 20, 5, -5)


def test_domino_passes_skip_to_the_next_seat_that_can_play():
    hands = ("7H 2C", "3C", "4C", "8H 5C")
    state = choose(dealt(hands), "domino 7")
    state, events = act(state, 0, "7H")
    assert events_of(events, Passed) == [Passed(1), Passed(2)]
    assert on_turn(state) == 3


# ----- session: order of choice, rotation, end --------------------------------------------
def test_the_declarer_may_choose_the_contracts_in_any_order():
    order = ["domino 7", "trumps H", "no-king", "no-tricks", "no-last-two", "no-hearts"]
    state = dealt(SUIT_HANDS)
    for code in order:
        state = choose(state, code, {s: "double 0" for s in (1, 2, 3)})
        state, _ = auto_deal(state)
        state = _next_deal(state)
    assert state.deal == 7
    assert codes(state, 0) == ["contract no-queens"]


def test_after_seven_deals_the_next_declarer_has_all_seven_contracts_again():
    state = dealt(SUIT_HANDS)
    contracts = ["no-tricks", "no-queens", "no-last-two", "no-hearts", "no-king"]
    contracts += ["trumps S", "domino 7"]
    events = []
    for code in contracts:
        state = choose(state, code, {s: "double 0" for s in (1, 2, 3)})
        state, new = auto_deal(state)
        events += new
        state = _next_deal(state)
    assert state.deal == 8 and state.declarer == 1
    assert state.remaining[0] == ()
    assert len(GAME.legal_actions(state, 1)) == 5 + 4 + 13
    assert GAME.view(state, None).doubles_owed == (2, 0, 2, 2)
    scored = events_of(events, DealScored)
    assert sum(sum(s.raw) for s in scored) == 0
    assert sum(scored[-1].totals) == 0


def test_the_session_winner_is_the_highest_total_over_28_deals():
    from tavola.rules import driver

    out = driver.play_match(GAME, 4, {}, seed=b"r" * 32)
    (ended,) = events_of(out.events, SessionEnded)
    starts = events_of(out.events, DealStarted)
    assert len(starts) == 28
    best = max(ended.totals)
    assert ended.winners == tuple(s for s in range(4) if ended.totals[s] == best)
    assert sum(ended.totals) == 0


# ----- an independent referee written from the rule book, over random sessions ------------
RANKS = "23456789TJQKA"


def _rank(card) -> int:
    return RANKS.index(card.code[0]) + 2


def _suit(card) -> str:
    return card.code[1]


class BookReferee:
    """Checks every event of a session against the rule book, computed independently."""

    def __init__(self, options):
        self.options = options
        self.totals = [0, 0, 0, 0]
        self.deals = 0
        self.declarer = None

    def run(self, events):
        for event in events:
            getattr(self, "on_" + type(event).__name__, lambda e: None)(event)

    def on_DealStarted(self, e):
        self.deals += 1
        assert e.deal == self.deals
        if e.deal > 1 and (e.deal - 1) % 7 == 0:
            assert e.declarer == (self.declarer + 1) % 4  # the role passes left
            self.block_doubles = [0, 0, 0, 0]
            self.used = set()
        elif e.deal == 1:
            self.block_doubles = [0, 0, 0, 0]
            self.used = set()
        else:
            assert e.declarer == self.declarer
        self.declarer = e.declarer
        assert e.dealer == (e.declarer - 1) % 4 and e.cutter == (e.declarer + 2) % 4
        self.hands = {}
        self.doubles = []
        self.doubling_seat = (e.declarer + 1) % 4
        self.points = [0, 0, 0, 0]
        self.trick = []
        self.tricks = 0
        self.rows = {}
        self.out = []
        self.turn = None

    def on_HandDealt(self, e):
        assert len(e.cards) == 13
        self.hands[e.seat] = list(e.cards)

    def on_ContractChosen(self, e):
        assert e.declarer == self.declarer and e.contract not in self.used
        if self.options.get("fixed_order"):
            assert e.contract == min(set(Contract) - self.used)
        self.used.add(e.contract)
        self.contract, self.trump, self.start = e.contract, e.trump, e.start_rank
        self.turn = self.declarer  # declarer leads / plays first

    def on_DoublesDeclared(self, e):
        assert not self.options.get("no_doubling")
        assert e.seat == self.doubling_seat  # one turn each, left of declarer first
        self.doubling_seat = (e.seat + 1) % 4
        d = self.declarer
        for target in e.doubled:
            assert target != e.seat
            if e.seat == d:
                assert (target, d) in self.doubles  # only redoubles
            elif self.contract.positive:
                assert target == d
        if e.seat != d:
            left = 7 - (self.deals - 1) % 7
            owed = max(0, 2 - self.block_doubles[e.seat])
            if d in e.doubled:
                self.block_doubles[e.seat] += 1
            elif owed:
                assert left > owed, "a pass while the obligation made doubling compulsory"
        else:
            assert e.automatic == (not any(b == d for _, b in self.doubles))
        self.doubles += [(e.seat, t) for t in e.doubled]

    def _domino_ok(self, card):
        row = self.rows.get(_suit(card))
        if row is None:
            return _rank(card) == int(self.start)
        return _rank(card) in (row[0] - 1, row[1] + 1)

    def _legal(self, seat):
        hand = self.hands[seat]
        if self.contract == Contract.DOMINO:
            return [c for c in hand if self._domino_ok(c)]
        if not self.trick:
            if self.contract in (Contract.NO_HEARTS, Contract.NO_KING):
                return [c for c in hand if _suit(c) != "H"] or hand
            return hand
        led = _suit(self.trick[0][1])
        follow = [c for c in hand if _suit(c) == led]
        if self.contract != Contract.TRUMPS:
            return follow or hand
        t = self.trump.letter
        in_trick = [_rank(c) for _, c in self.trick if _suit(c) == t]
        best = max(in_trick, default=0)
        if led == t:
            return [c for c in follow if _rank(c) > best] or follow or hand
        if follow:
            return follow
        trumps = [c for c in hand if _suit(c) == t]
        winners = [c for c in trumps if _rank(c) > best]
        if winners:
            return winners
        if self.options.get("void_must_trump") and trumps:
            return trumps
        return hand

    def on_CardPlayed(self, e):
        assert e.seat == self.turn
        assert e.card in self._legal(e.seat), (self.contract, e.card)
        self.hands[e.seat].remove(e.card)
        if self.contract == Contract.DOMINO:
            s, r = _suit(e.card), _rank(e.card)
            lo, hi = self.rows.get(s, (r, r))
            self.rows[s] = (min(lo, r), max(hi, r))
            self._next_domino(e.seat)
        else:
            self.trick.append((e.seat, e.card))
            self.turn = (e.seat + 1) % 4

    def _next_domino(self, seat):
        for step in range(1, 5):
            nxt = (seat + step) % 4
            if self.hands[nxt]:
                self.turn = nxt
                return

    def on_Passed(self, e):
        assert self.contract == Contract.DOMINO and e.seat == self.turn
        assert not self._legal(e.seat)  # you pass only when you cannot play
        self._next_domino(e.seat)

    def on_WentOut(self, e):
        assert not self.hands[e.seat]
        self.out.append(e.seat)
        assert e.points == (45, 20, 5, -5)[len(self.out) - 1]
        self.points[e.seat] += e.points

    def on_TrickWon(self, e):
        self.tricks += 1
        assert e.trick == self.tricks
        led = _suit(self.trick[0][1])
        trump = self.trump.letter if self.contract == Contract.TRUMPS else None
        trumps = [(s, c) for s, c in self.trick if _suit(c) == trump]
        pool = trumps or [(s, c) for s, c in self.trick if _suit(c) == led]
        winner = max(pool, key=lambda sc: _rank(sc[1]))[0]
        assert e.winner == winner
        cards_ = [c.code for _, c in self.trick]
        pts = {
            Contract.NO_TRICKS: -2,
            Contract.NO_QUEENS: -6 * sum(c[0] == "Q" for c in cards_),
            Contract.NO_LAST_TWO: {12: -10, 13: -20}.get(self.tricks, 0),
            Contract.NO_HEARTS: sum(-6 if c == "AH" else -2 for c in cards_ if c[1] == "H"),
            Contract.NO_KING: -20 * ("KH" in cards_),
            Contract.TRUMPS: 5,
        }[self.contract]
        assert e.points == pts
        self.points[winner] += pts
        self.trick = []
        self.turn = winner

    def on_DealEndedEarly(self, e):
        assert not self.options.get("play_out_all_tricks")
        left = [c.code for h in self.hands.values() for c in h]
        if self.contract == Contract.NO_QUEENS:
            assert not any(c[0] == "Q" for c in left)
        elif self.contract == Contract.NO_HEARTS:
            assert not any(c[1] == "H" for c in left)
        else:
            assert self.contract == Contract.NO_KING and "KH" not in left

    def on_DealScored(self, e):
        raw = list(self.points)
        if self.contract == Contract.DOMINO:
            assert len(self.out) == 3
            raw[next(s for s in range(4) if s not in self.out)] += -5
        elif self.tricks < 13:  # only the three contracts with scoring cards end early
            assert self.contract in (Contract.NO_QUEENS, Contract.NO_HEARTS, Contract.NO_KING)
        assert tuple(raw) == e.raw and sum(raw) == self.contract.raw_total
        net = [0, 0, 0, 0]
        for a in range(4):
            for b in range(a + 1, 4):
                n = ((a, b) in self.doubles) + ((b, a) in self.doubles)
                diff = raw[a] - raw[b]
                net[a] += n * diff  # the higher raw score receives
                net[b] -= n * diff
        assert tuple(net) == e.transfers
        adjusted = [r + t for r, t in zip(raw, net, strict=True)]
        assert tuple(adjusted) == e.adjusted
        self.totals = [t + a for t, a in zip(self.totals, adjusted, strict=True)]
        assert tuple(self.totals) == e.totals

    def on_SessionEnded(self, e):
        assert self.deals == 28 and tuple(self.totals) == e.totals
        best = max(self.totals)
        assert e.winners == tuple(s for s in range(4) if self.totals[s] == best)
        for seat in range(4):
            if seat != self.declarer and not self.options.get("no_doubling"):
                assert self.block_doubles[seat] >= 2


REFEREE_OPTIONS = [
    {},
    {"fixed_order": True},
    {"no_doubling": True},
    {"play_out_all_tricks": True, "void_must_trump": True},
]


@pytest.mark.parametrize("seed", range(8))
def test_random_sessions_agree_with_an_independent_referee_from_the_book(seed):
    import random

    from tavola.rules import driver

    options = REFEREE_OPTIONS[seed % 4]
    out = driver.play_match(
        GAME, 4, options, seed=(seed + 500).to_bytes(32, "big"), rng=random.Random(seed)
    )
    referee = BookReferee(options)
    referee.run(out.events)
    assert referee.deals == 28
