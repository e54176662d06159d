"""Rule-book review (``shared/rules/doppelkopf.md``): statements and worked scoring cases the
other Doppelkopf test files did not pin down."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from tavola.games.doppelkopf import GAME
from tavola.games.doppelkopf import events as ev
from tavola.games.doppelkopf.model import Call, Contract, Party, ScoreLine, TrickRecord
from tavola.games.doppelkopf.scoring import (
    SpecialRules,
    Tally,
    seat_scores,
    settle,
    special_lines,
    value_of,
    winner_of,
)
from tavola.games.doppelkopf.trumps import card_rules, deck, trick_winner, trump_order
from tavola.rules.cards import PlayedCard, cards
from tavola.rules.driver import resolve_all_chance
from tavola.rules.errors import IllegalAction

RE, KO = Party.RE, Party.KONTRA
NO90, NO60, NO30, SCHWARZ = 2, 3, 4, 5
RE_SEATS = (True, True, False, False)


def ddv(re_points, levels=(0, 0), tricks=(6, 6), specials=()):
    """A settlement from the tally, with "against the old ones" added as the engine does."""
    t = Tally((re_points, 240 - re_points), tricks)
    lines = special_lines([], RE_SEATS, winner_of(t, levels), SpecialRules())
    return value_of(t, levels, [*lines, *specials])


def labels(result):
    return sorted(
        (line.label.removeprefix("doppelkopf.line."), line.party, line.value)
        for line in result.lines
    )


def trick(number, text, winner, first=0):
    plays = tuple(PlayedCard((first + i) % 4, c) for i, c in enumerate(cards(text)))
    return TrickRecord(number, plays, winner)


def refused(state, seat, code):
    action = GAME.decode_action(code)
    with pytest.raises(IllegalAction):
        GAME.decide(state, seat, action)
    reason = GAME.why_illegal(state, seat, action)
    assert reason is not None
    return reason


# --- Who wins / game value: worked cases (DDV 7.1, 7.2) ---------------------------------------
def test_ddv_case_kontra_announced_and_won_with_160_is_worth_five():
    # won 1, Re below 90 1, Kontra announced 2, against the old ones 1
    result = ddv(80, levels=(0, 1))
    assert result.winner == KO and result.value == -5
    assert labels(result) == sorted(
        [
            ("won", KO, 1),
            ("below_90", KO, 1),
            ("kontra_announced", KO, 2),
            ("against_the_old", KO, 1),
        ]
    )


def test_ddv_case_re_no_60_made_with_only_130_gives_kontra_seven():
    # Re: Re, no 90, no 60 and 130 points; Kontra (110) reached 90 against "no 60"
    result = ddv(130, levels=(NO60, 0))
    assert result.winner == KO and result.value == -7
    assert ("reached_90", KO, 1) in labels(result)
    assert ("reached_120", KO, 1) not in labels(result)


def test_kontra_denial_without_saying_kontra_counts_kontra_as_announced():
    # Kontra skipped straight to "no 90" and kept Re to 85
    result = ddv(85, levels=(0, NO90))
    assert result.winner == KO and result.value == -(1 + 1 + 2 + 1 + 1)


def test_re_reaching_90_wins_against_kontra_no_90():
    result = ddv(90, levels=(0, NO90))
    assert result.winner == RE and result.value == 1 + 2 + 1
    assert ddv(89, levels=(0, NO90)).winner == KO


def test_kontra_no_60_met_with_re_below_60():
    result = ddv(50, levels=(0, NO60))
    # won, below 90, below 60; Kontra 2, no 90, no 60; against the old ones
    assert result.value == -(3 + 2 + 1 + 1 + 1)


def test_reaching_30_against_schwarz_scores_for_the_winner():
    result = ddv(205, levels=(SCHWARZ, 0), tricks=(11, 1))
    assert result.winner == KO
    assert ("reached_30", KO, 1) in labels(result)
    # won 1; Re 2 + four denials; reached 30; against the old ones
    assert result.value == -(1 + 2 + 4 + 1 + 1)


def test_only_kontra_announced_re_wins_at_120_without_against_the_old_ones():
    result = ddv(120, levels=(0, 1))
    assert result.winner == RE and result.value == 3
    assert not any(ln.label.endswith("against_the_old") for ln in result.lines)


def test_both_announced_re_wins_with_121_is_worth_five():
    assert ddv(121, levels=(1, 1)).value == 1 + 2 + 2


def test_both_denials_met_is_impossible_and_a_met_denial_wins_all_calls():
    # Re "no 90" met (Kontra 85) while Kontra said "no 90": Re collects both parties' calls
    result = ddv(155, levels=(NO90, NO90))
    assert result.winner == RE
    # won, below 90; Re 2 + no 90; Kontra 2 + no 90; 120 reached against Kontra's no 90
    assert result.value == 1 + 1 + 2 + 1 + 2 + 1 + 1


def test_nobody_wins_special_points_still_count_and_are_netted():
    doko_ko = ScoreLine("doppelkopf.line.doppelkopf", KO, 1)
    fox_ko = ScoreLine("doppelkopf.line.fox", KO, 1)
    result = ddv(130, levels=(NO90, NO90), specials=[doko_ko, fox_ko])
    assert result.winner is None
    assert result.value == 1 - 2  # Re reached 120 against "no 90"; Kontra 2 special points
    assert not any(ln.label.endswith(("_announced", "won")) for ln in result.lines)


def test_winners_can_end_negative_and_the_four_scores_still_sum_to_zero():
    specials = [ScoreLine("doppelkopf.line.fox", KO, 1)] * 3
    result = ddv(125, specials=specials)
    assert result.winner == RE and result.value == -2
    scores = seat_scores(4, (0, 1, 2, 3), RE_SEATS, result.value, solo=False)
    assert scores == (-2, -2, 2, 2) and sum(scores) == 0


def test_a_solo_with_announcements_counts_three_times_for_the_soloist():
    # soloist (seat 2) said Re; Kontra answered; soloist lost with 110
    t = Tally((110, 130), (5, 7))
    result = value_of(t, (1, 1), [])
    assert result.value == -(1 + 2 + 2)
    re = (False, False, True, False)
    assert seat_scores(4, (0, 1, 2, 3), re, result.value, solo=True) == (5, 5, -15, 5)


def test_a_solo_at_a_table_of_five_leaves_the_dealer_at_zero():
    re = (False, False, False, True, False)
    scores = seat_scores(5, (1, 2, 3, 4), re, 2, solo=True)
    assert scores == (0, -2, -2, 6, -2) and sum(scores) == 0


# --- special points -----------------------------------------------------------------------
def test_karlchen_when_the_first_of_two_club_jacks_wins_the_last_trick():
    tricks = [trick(1, "9S JC JC KD", 1)]  # seat 1 (Re) before seat 2 (Kontra)
    lines = settle(tricks, RE_SEATS, (0, 0), SpecialRules(True)).lines
    assert ScoreLine("doppelkopf.line.karlchen", RE, 1) in lines


def test_two_foxes_caught_in_one_trick_score_two():
    tricks = [trick(1, "AD QC AD 9D", 1)]  # seat 0 and seat 2: one fox each side
    lines = settle(tricks, (False, True, False, False), (0, 0), SpecialRules(True)).lines
    assert lines.count(ScoreLine("doppelkopf.line.fox", RE, 1)) == 2


def test_house_rule_special_points_do_not_count_in_a_solo():
    tricks = [trick(1, "JC AD QD 9D", 2)]
    rules = SpecialRules(False, fuchs_am_end=True, karlchen_fangen=True)
    lines = settle(tricks, RE_SEATS, (0, 0), rules).lines
    assert not any("karlchen" in ln.label or "fox" in ln.label for ln in lines)


def test_against_the_old_ones_in_a_wedding_that_became_normal(doko):
    state = doko.declare(doko.start(doko.WEDDING), s0="wedding")
    state = doko.play(state, "9H AH 9H QD")  # seat 3 becomes the partner
    assert not state.deal.alone and state.deal.contract == Contract.WEDDING
    state, scored = doko.finish_scored(state)
    old = [ln for ln in scored.lines if ln.label.endswith("against_the_old")]
    assert old == (
        [ScoreLine("doppelkopf.line.against_the_old", KO, 1)] if scored.winner == KO else []
    )
    assert scored.scores[0] == scored.scores[3] == -scored.scores[1]


# --- card order ------------------------------------------------------------------------
def test_in_a_suit_solo_diamonds_become_a_plain_suit_ace_ten_king_nine():
    rules = card_rules(Contract.CLUBS_SOLO)
    plays = tuple(PlayedCard(i, c) for i, c in enumerate(cards("KD AD TD 9D")))
    assert trick_winner(plays, rules, False) == 1
    plays = tuple(PlayedCard(i, c) for i, c in enumerate(cards("AD QD TD 9D")))
    assert trick_winner(plays, rules, False) == 1  # the ♦Q is a trump


def test_second_dulle_house_rule_in_a_hearts_solo_and_not_in_a_queen_solo():
    plays = tuple(PlayedCard(i, c) for i, c in enumerate(cards("TH TH 9H KH")))
    assert trick_winner(plays, card_rules(Contract.HEARTS_SOLO), True) == 1
    assert trick_winner(plays, card_rules(Contract.QUEEN_SOLO), True) == 0  # a plain ten


def test_without_nines_the_diamond_trumps_are_ace_ten_king():
    order = [c for c in trump_order(Contract.NORMAL) if c in deck(without_nines=True)]
    assert tuple(order[-3:]) == cards("AD TD KD")


# --- the Hochzeit and announcement deadlines --------------------------------------------
NO_NINES_WEDDING = (
    "QC QC TH JC AD KD AC TC KC AS",
    "KH QS JS TD AC TS KS AH KH KC",
    "TH QS QH JH AD KD TC AS TS AH",
    "QH QD QD JC JS JH JD JD TD KS",
)


def test_the_no_nines_wedding_deal_is_a_complete_deck():
    assert Counter(c for h in NO_NINES_WEDDING for c in cards(h)) == Counter(
        deck(without_nines=True)
    )


def test_a_wedding_clarified_in_the_third_trick_moves_the_deadlines_two_cards(doko):
    state = doko.declare(doko.start(doko.WEDDING), s0="wedding")
    state = doko.play(state, "AC AC TC KC")  # seat 0
    state = doko.play(state, "AS 9S TS KS")  # seat 0 (first ♠A)
    assert state.deal.wedding_open
    state = doko.play(state, "9H AH 9H JD")  # seat 3 trumps: the partner, third trick
    assert state.deal.partner == 3 and state.deal.shift == 2
    assert len(state.deal.hands[1]) == 9
    assert doko.act(state, 0, "re").deal.levels == (1, 0)  # nine cards: in time (11 - 2)
    state = doko.act(state, 1, "kontra")  # nine cards: in time
    assert state.deal.replied == (False, False)
    state = doko.tricks(state, 1)  # eight cards
    assert refused(state, 0, "no 90").param_dict()["cards"] == 9  # Re skipped, too late
    state = doko.act(state, 2, "no 90")  # Kontra's "no 90" needs 10 - 2 = 8: in time
    state = doko.act(state, 3, "re")  # Re now only as a reply (Kontra's call needed 8)
    assert state.deal.levels == (1, 2) and state.deal.replied == (True, False)


def test_a_reply_after_a_late_wedding_uses_the_shifted_deadline(doko):
    state = doko.declare(doko.start(doko.WEDDING), s0="wedding")
    state = doko.play(state, "AC AC TC KC")
    state = doko.play(state, "9H AH 9H JD")  # partner seat 3 in trick 2: shift 1
    state = doko.act(state, 0, "re")  # ten cards
    state = doko.tricks(state, 1)  # nine cards: Kontra would have needed ten
    late = doko.tricks(state, 1)  # eight cards
    state = doko.act(state, 1, "kontra")  # a reply: one card fewer than Re required
    assert state.deal.replied == (False, True)
    assert refused(state, 2, "no 90").code == "doppelkopf.no_denial_after_reply"
    assert refused(late, 1, "kontra").code == "doppelkopf.too_late"


def test_without_nines_and_a_late_wedding_both_shifts_add_up(doko):
    start = doko.start(NO_NINES_WEDDING, options={"without_nines": True})
    state = doko.declare(start, s0="wedding")
    state = doko.play(state, "AS KS TS KS")  # seat 0 (first ♠A)
    state = doko.play(state, "AC AC TC JD")  # seat 3 trumps: partner in trick 2
    assert state.deal.partner == 3 and state.deal.shift == 1
    assert len(state.deal.hands[0]) == 8
    state = doko.act(state, 0, "re")  # 12 - 1 - 2 - 1 = 8 cards: in time
    assert state.deal.levels == (1, 0)
    state = doko.tricks(state, 1)  # seven cards
    assert refused(state, 2, "no 90").param_dict()["cards"] == 8  # Kontra skipped late
    doko.act(state, 3, "no 90")  # Re in time: "no 90" needs 7


def test_a_failed_wedding_allows_announcements_with_nine_cards(doko):
    state = doko.declare(doko.start(doko.WEDDING), s0="wedding")
    state = doko.play(state, "AC AC TC KC TH QS TH QD QC JS QH JC")
    assert state.deal.alone and state.deal.shift == 2
    state = doko.act(state, 0, "re")
    state = doko.act(state, 2, "kontra")
    assert state.deal.levels == (1, 1) and state.deal.replied == (False, False)


def test_announcements_are_made_only_after_the_reservations(doko):
    state = doko.start()
    assert refused(state, 0, "re").code == "doppelkopf.not_now"


def test_a_party_may_not_announce_the_same_call_twice(doko):
    state = doko.act(doko.normal_game(), 0, "re")
    assert refused(state, 1, "re").code == "doppelkopf.already_announced"
    assert [a.call for a in GAME.legal_actions(state, 1) if hasattr(a, "call")] == [
        Call.NO_90,
        Call.NO_60,
        Call.NO_30,
        Call.SCHWARZ,
    ]


def test_the_player_sitting_out_may_not_announce():
    state = GAME.initial_state(5, {"match": "1_round"})
    state, _ = resolve_all_chance(GAME, state, b"\x41" * 32)
    for seat in state.deal.seats:
        state = GAME.fold(state, GAME.decide(state, seat, GAME.decode_action("healthy")))
    assert state.phase == "play"
    assert state.dealer not in GAME.to_act(state)
    assert GAME.why_illegal(state, state.dealer, GAME.decode_action("kontra")) is not None


# --- reservations ---------------------------------------------------------------------------
def test_a_voluntary_solo_beats_a_wedding_of_a_seat_nearer_the_dealers_left(doko):
    state = doko.declare(doko.start(doko.WEDDING), s0="wedding", s2="solo F")
    assert (state.deal.contract, state.deal.declarer) == (Contract.FLEISCHLOS, 2)
    assert state.deal.turn == 0  # a voluntary solo: the dealer's left leads


# --- match: compulsory solos, rounds, Bock, leaving -------------------------------------------
def _play_round(state, solo_in_first_game=False):
    """Deal and play games until the dealer has gone once round; returns GameStarted events."""
    started = []
    first = True
    rounds = state.rounds_done
    while True:
        state, events = resolve_all_chance(GAME, state, bytes([state.deals + 1]) * 32)
        game = next(e for e in events if isinstance(e, ev.GameStarted))
        started.append(game)
        if first and solo_in_first_game:
            state = declare_all(state, game.seats[0], "solo Q")
        else:
            state = declare_all(state, None, "")
        first = False
        while state.phase == "play":
            action, _ = GAME.automatic_action(state, state.deal.turn)
            state = GAME.fold(state, GAME.decide(state, state.deal.turn, action))
        if state.rounds_done > rounds or GAME.is_over(state):
            return state, started


def declare_all(state, soloist, code):
    for seat in state.deal.seats:
        choice = code if seat == soloist else "healthy"
        state = GAME.fold(state, GAME.decide(state, seat, GAME.decode_action(choice)))
    return state


def test_a_round_with_a_compulsory_solo_has_one_game_more():
    state = GAME.initial_state(4, {"pflichtsolo": True, "match": "2_rounds"})
    state = GAME.fold(state, [ev.DealerDrawn(2)])
    state, started = _play_round(state, solo_in_first_game=True)
    assert [g.dealer for g in started] == [2, 2, 3, 0, 1]
    assert state.rounds_done == 1 and state.games == 5 and state.dealer == 2


def test_pflichtsolo_is_forced_only_in_the_last_round():
    state = GAME.initial_state(4, {"pflichtsolo": True, "match": "2_rounds"})
    state = GAME.fold(state, [ev.DealerDrawn(0)])
    state, started = _play_round(state)
    assert all(g.forced_solo is None for g in started)
    state, events = resolve_all_chance(GAME, state, b"\x51" * 32)
    game = next(e for e in events if isinstance(e, ev.GameStarted))
    assert game.forced_solo == game.seats[0]


def test_a_bock_round_covers_the_whole_round_even_with_a_compulsory_solo():
    state = GAME.initial_state(4, {"pflichtsolo": True, "match": "2_rounds"})
    state = replace(state, bock_pending=1)  # a Bock round earned before this round
    state = GAME.fold(state, [ev.DealerDrawn(0)])
    state, started = _play_round(state, solo_in_first_game=True)
    assert [g.dealer for g in started] == [0, 0, 1, 2, 3]
    assert [g.bock for g in started] == [True] * 5


def test_a_player_leaving_keeps_the_games_already_scored(doko):
    state = doko.finish(doko.normal_game(match="2_rounds"))
    scored = state.totals
    assert any(scored)
    state, _ = resolve_all_chance(GAME, state, b"\x61" * 32)
    state = doko.healthy(state)
    state = GAME.fold(state, GAME.seat_left(state, state.deal.seats[0]))
    assert GAME.is_over(state) and state.interrupted
    assert state.totals == scored


def test_a_redeal_does_not_count_as_a_game_of_the_round(doko):
    nines = (
        "QC TH JC AD KD 9D AC TC KC AS 9H KH",
        "QC QS JS TD KD AC AS TS TS KS AH KH",
        "TH QS QH JH AD 9D TC 9C 9C 9S AH 9H",
        "QH QD QD JC JS JH JD JD TD KC KS 9S",
    )
    state = doko.declare(doko.start(nines, options={"schmeissen": True}), s2="throw")
    assert state.phase == "deal" and state.deals_in_round == 0 and state.games == 0
