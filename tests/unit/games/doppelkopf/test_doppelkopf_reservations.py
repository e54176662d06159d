"""Reservations: simultaneous and hidden declarations, priority, Hochzeit, silent wedding,
solos, Armut, Schmeißen and Pflichtsolo."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from tavola.games.doppelkopf import GAME
from tavola.games.doppelkopf import events as ev
from tavola.games.doppelkopf.model import Contract, Party, Reservation
from tavola.games.doppelkopf.trumps import deck
from tavola.rules.cards import card, cards
from tavola.rules.driver import resolve_all_chance
from tavola.rules.errors import IllegalAction

NORMAL_DEAL = (
    "QC TH JC AD KD 9D AC TC KC AS 9H KH",
    "QC QS JS TD 9D AC 9C TS KS AH KH 9S",
    "TH QS QH JH AD KD TC 9C AS TS AH 9H",
    "QH QD QD JC JS JH JD JD TD KC KS 9S",
)
WEDDING_DEAL = (
    "QC QC TH JC AD KD 9D AC TC KC AS 9H",
    "KH QS JS TD 9D AC 9C TS KS AH KH 9S",
    "TH QS QH JH AD KD TC 9C AS TS AH 9H",
    "QH QD QD JC JS JH JD JD TD KC KS 9S",
)
POOR_DEAL = (
    "QC TH JC AD KD 9D AC TC KC AS 9H KH",
    "QC TD 9D AC 9C TS KS AH KH 9S KC KS",  # seat 1: three trumps (QC TD 9D)
    "TH QS QH JH AD KD TC 9C AS TS AH 9H",
    "QH QD QD JC JS JH JD JD TD QS JS 9S",
)
NINES_DEAL = (
    "QC TH JC AD KD 9D AC TC KC AS 9H KH",
    "QC QS JS TD KD AC AS TS TS KS AH KH",
    "TH QS QH JH AD 9D TC 9C 9C 9S AH 9H",  # seat 2: five nines
    "QH QD QD JC JS JH JD JD TD KC KS 9S",
)


@pytest.mark.parametrize("deal", [POOR_DEAL, NINES_DEAL])
def test_the_scenario_deals_are_complete_decks(deal):
    assert Counter(c for h in deal for c in cards(h)) == Counter(deck())


def test_every_seat_declares_at_once(doko):
    state = doko.start()
    assert GAME.to_act(state) == frozenset({0, 1, 2, 3})
    state = doko.act(state, 2, "healthy")
    assert GAME.to_act(state) == frozenset({0, 1, 3})


def test_a_declaration_stays_private_until_everyone_has_declared(doko):
    state = doko.start(WEDDING_DEAL)
    events = doko.events(state, 0, "wedding")
    private = [e for e in events if isinstance(e, ev.ReservationChosen)]
    assert private and private[0].audience() == frozenset({0})
    assert [e for e in events if e.audience() is None] == [ev.SeatDeclared(0)]
    after = GAME.fold(state, events)
    assert GAME.view(after, 1).my_reservation is None
    assert GAME.view(after, 0).my_reservation == Reservation.WEDDING


def test_only_the_winning_reservation_is_made_public(doko):
    state = doko.start(WEDDING_DEAL)
    state = doko.act(state, 0, "wedding")
    state = doko.act(state, 1, "healthy")
    state = doko.act(state, 2, "solo Q")
    events = doko.events(state, 3, "healthy")
    public = [e for e in events if e.audience() is None]
    assert ev.ReservationsShown((True, False, True, False)) in public
    assert ev.ContractChosen(Contract.QUEEN_SOLO, 2, False) in public
    assert not any(getattr(e, "reservation", None) == Reservation.WEDDING for e in public)


def test_all_healthy_is_a_normal_game_led_from_the_dealers_left(doko):
    state = doko.normal_game()
    deal = state.deal
    assert state.phase == "play" and deal.contract == Contract.NORMAL
    assert deal.turn == 0
    assert [deal.party(s) for s in range(4)] == [Party.RE, Party.RE, Party.KONTRA, Party.KONTRA]


def test_a_solo_beats_a_wedding_whatever_the_seats(doko):
    state = doko.declare(doko.start(WEDDING_DEAL), s0="wedding", s3="solo J")
    assert (state.deal.contract, state.deal.declarer) == (Contract.JACK_SOLO, 3)


def test_among_equal_reservations_the_seat_nearer_the_dealers_left_wins(doko):
    state = doko.declare(doko.start(dealer=1), s3="solo F", s0="solo Q")
    # dealer 1: order from the left is 2, 3, 0 — seat 3 is nearer than seat 0
    assert (state.deal.contract, state.deal.declarer) == (Contract.FLEISCHLOS, 3)


def test_a_voluntary_solo_is_led_by_the_dealers_left_and_the_soloist_is_re_alone(doko):
    state = doko.declare(doko.start(), s2="solo C")
    deal = state.deal
    assert deal.turn == 0 and not deal.compulsory
    assert [deal.party(s) for s in range(4)] == [Party.KONTRA, Party.KONTRA, Party.RE, Party.KONTRA]


def test_a_wedding_needs_both_club_queens(doko):
    state = doko.start()
    with pytest.raises(IllegalAction) as err:
        doko.act(state, 0, "wedding")
    assert err.value.reason.code == "doppelkopf.wedding_needs_both_queens"


def test_the_wedding_partner_is_the_first_other_player_to_win_a_trick(doko):
    state = doko.declare(doko.start(WEDDING_DEAL), s0="wedding")
    assert state.deal.wedding_open
    state = doko.play(state, "9H AH 9H QD")  # seat 3 trumps the first trick
    deal = state.deal
    assert not deal.wedding_open and deal.partner == 3 and deal.shift == 0
    assert [deal.party(s) for s in range(4)] == [Party.RE, Party.KONTRA, Party.KONTRA, Party.RE]


def test_a_wedding_clarified_in_the_second_trick_moves_the_deadlines_one_card(doko):
    state = doko.declare(doko.start(WEDDING_DEAL), s0="wedding")
    state = doko.play(state, "AC AC TC KC")  # the first of two ♣A wins: the wedding player
    assert state.deal.wedding_open
    state = doko.play(state, "9H AH 9H JD")
    assert state.deal.partner == 3 and state.deal.shift == 1


def test_a_wedding_nobody_else_clarifies_is_played_alone_as_a_solo(doko):
    state = doko.declare(doko.start(WEDDING_DEAL), s0="wedding")
    state = doko.play(state, "AC AC TC KC")
    state = doko.play(state, "TH QS TH QD")
    events = []
    for code in ["QC", "JS", "QH", "JC"]:
        events = doko.events(state, state.deal.turn, code)
        state = GAME.fold(state, events)
    assert ev.WeddingAlone(0) in events
    assert state.deal.alone and state.deal.shift == 2
    state = doko.finish(state)
    scored = state.last_scores
    assert scored[0] == -3 * scored[1] and scored[1] == scored[2] == scored[3]
    assert state.dealer == 0  # not a compulsory solo: the deal passes on


def test_a_failed_wedding_has_no_special_points(doko):
    state = doko.declare(doko.start(WEDDING_DEAL), s0="wedding")
    state = doko.play(state, "AC AC TC KC TH QS TH QD QC JS QH JC")
    state, scored = doko.finish_scored(state)
    labels = {line.label.split(".")[-1] for line in scored.lines}
    assert not labels & {"doppelkopf", "fox", "karlchen", "against_the_old"}


def test_the_silent_wedding_is_played_alone_and_scored_as_a_solo(doko):
    state = doko.healthy(doko.start(WEDDING_DEAL))
    deal = state.deal
    assert deal.contract == Contract.NORMAL and deal.alone
    assert [deal.party(s) for s in range(4)] == [Party.RE, Party.KONTRA, Party.KONTRA, Party.KONTRA]
    assert GAME.view(state, 1).known_parties == ()
    state = doko.finish(state)
    assert state.last_scores[0] == -3 * state.last_scores[1]


def test_armut_is_a_house_rule(doko):
    state = doko.start(POOR_DEAL)
    with pytest.raises(IllegalAction) as err:
        doko.act(state, 1, "poverty")
    assert err.value.reason.code == "doppelkopf.house_rule_off"


def test_armut_needs_three_trumps_or_fewer(doko):
    state = doko.start(POOR_DEAL, options={"armut": True})
    with pytest.raises(IllegalAction) as err:
        doko.act(state, 0, "poverty")
    assert err.value.reason.code == "doppelkopf.poverty_too_many_trumps"


def test_an_accepted_armut_swaps_the_trumps_for_as_many_cards_and_makes_the_two_re(doko):
    state = doko.declare(doko.start(POOR_DEAL, options={"armut": True}), s1="poverty")
    assert state.phase == "poverty_offer" and GAME.to_act(state) == {2}
    state = doko.act(state, 2, "decline")
    events = doko.events(state, 3, "accept")
    handed = next(e for e in events if isinstance(e, ev.TrumpsHandedOver))
    assert sorted(handed.cards) == sorted(cards("QC TD 9D"))
    assert handed.audience() == frozenset({1, 3})
    assert ev.TrumpsCounted(1, 3, 3) in events
    state = GAME.fold(state, events)
    assert state.phase == "poverty_return" and GAME.to_act(state) == {3}
    state = doko.act(state, 3, "give 9S")
    state = doko.act(state, 3, "give JS")
    assert state.phase == "poverty_return"
    state = doko.act(state, 3, "give QC")
    deal = state.deal
    assert state.phase == "play" and deal.turn == 0
    assert len(deal.hands[1]) == len(deal.hands[3]) == 12
    assert sorted(deal.hands[1]) == sorted(cards("QC JS 9S AC 9C TS KS AH KH 9S KC KS"))
    assert [deal.party(s) for s in range(4)] == [Party.KONTRA, Party.RE, Party.KONTRA, Party.RE]
    assert GAME.view(state, 0).known_parties[1].party == Party.RE


def test_an_armut_nobody_accepts_is_dealt_again_by_the_same_dealer(doko):
    state = doko.declare(doko.start(POOR_DEAL, options={"armut": True}), s1="poverty")
    state = doko.act(state, 2, "decline")
    state = doko.act(state, 3, "decline")
    events = doko.events(state, 0, "decline")
    assert ev.DealCancelled(1, "doppelkopf.redeal.poverty_refused") in events
    state = GAME.fold(state, events)
    assert GAME.chance(state).purpose == "deal/2"
    state, _ = resolve_all_chance(GAME, state, b"\x01" * 32)
    assert state.dealer == 3 and state.games == 0


def test_a_solo_beats_armut_and_armut_beats_a_wedding(doko):
    deal = list(POOR_DEAL)
    state = doko.declare(doko.start(deal, options={"armut": True}), s1="poverty", s2="solo H")
    assert state.deal.contract == Contract.HEARTS_SOLO
    wedding_and_poor = (
        "QC QC 9C AC TC KC AS 9H KH KS TS 9S",
        "TH JC AD KD 9D QS JS TD 9D AC 9C AH",
        "TH QS QH JH AD KD TC KC AS TS AH 9H",
        "QH QD QD JC JS JH JD JD TD KH KS 9S",
    )
    assert Counter(c for h in wedding_and_poor for c in cards(h)) == Counter(deck())
    state = doko.declare(
        doko.start(wedding_and_poor, options={"armut": True}), s0="wedding", s3="healthy"
    )
    assert state.deal.contract == Contract.WEDDING
    state = doko.start(wedding_and_poor, options={"armut": True})
    state = doko.declare(state, s0="wedding", s1="healthy")
    assert state.deal.contract == Contract.WEDDING
    state = doko.start(wedding_and_poor, options={"armut": True})
    state = doko.declare(state, s0="poverty")
    assert state.deal.contract == Contract.POVERTY and state.deal.declarer == 0


def test_armut_outranks_a_wedding_of_another_seat(doko):
    poor_and_wedding = (
        "QC QC TH JC AD KD 9D AC TC KC AS 9H",
        "KH QS 9C TS KS AH KH 9S TC 9C AS AH",
        "TH QS QH JH AD KD JS TD 9D AC TS 9H",
        "QH QD QD JC JS JH JD JD TD KC KS 9S",
    )
    assert Counter(c for h in poor_and_wedding for c in cards(h)) == Counter(deck())
    state = doko.start(poor_and_wedding, options={"armut": True})
    state = doko.declare(state, s0="wedding", s1="poverty")
    assert (state.deal.contract, state.deal.declarer) == (Contract.POVERTY, 1)


def test_schmeissen_needs_the_house_rule_and_five_nines(doko):
    state = doko.start(NINES_DEAL)
    with pytest.raises(IllegalAction) as err:
        doko.act(state, 2, "throw")
    assert err.value.reason.code == "doppelkopf.house_rule_off"
    state = doko.start(NINES_DEAL, options={"schmeissen": True})
    with pytest.raises(IllegalAction) as err:
        doko.act(state, 0, "throw")
    assert err.value.reason.code == "doppelkopf.throw_needs_five_nines"


def test_a_thrown_hand_is_dealt_again_and_does_not_count(doko):
    state = doko.start(NINES_DEAL, options={"schmeissen": True})
    state = doko.act(state, 0, "solo Q")
    state = doko.act(state, 1, "healthy")
    state = doko.act(state, 2, "throw")
    events = doko.events(state, 3, "healthy")
    assert ev.HandThrown(2, 5) in events
    state = GAME.fold(state, events)
    assert state.phase == "deal" and state.games == 0 and state.dealer == 3
    assert GAME.chance(state).purpose == "deal/2"


def test_a_compulsory_solo_is_led_by_the_soloist_and_the_same_dealer_deals_again(doko):
    options = {"pflichtsolo": True, "match": "2_rounds"}
    state = doko.declare(doko.start(options=options), s2="solo D")
    deal = state.deal
    assert deal.compulsory and deal.turn == 2
    state = doko.finish(state)
    assert state.dealer == 3 and state.solo_owed == (True, True, False, True)
    state, events = resolve_all_chance(GAME, state, b"\x02" * 32)
    assert events[0].dealer == 3


def test_a_compulsory_solo_outranks_a_voluntary_one(doko):
    state = doko.start(options={"pflichtsolo": True, "match": "2_rounds"})
    state = replace(state, solo_owed=(False, True, True, True))  # seat 0 played one
    state = doko.declare(state, s0="solo Q", s1="solo J")
    assert (state.deal.declarer, state.deal.compulsory) == (1, True)


def test_a_player_owing_a_solo_in_the_last_round_must_declare_it_when_leading(doko):
    state = GAME.initial_state(4, {"pflichtsolo": True, "match": "1_round"})
    state, events = resolve_all_chance(GAME, state, b"\x03" * 32)
    started = next(e for e in events if isinstance(e, ev.GameStarted))
    lead = started.seats[0]
    assert started.forced_solo == lead
    with pytest.raises(IllegalAction) as err:
        GAME.decide(state, lead, GAME.decode_action("healthy"))
    assert err.value.reason.code == "doppelkopf.must_declare_solo"
    assert all(a.reservation.is_solo for a in GAME.legal_actions(state, lead))
    action, reason = GAME.automatic_action(state, lead)
    assert action.reservation.is_solo and reason.code == "doppelkopf.auto.forced_solo"


def test_pflichtsolo_needs_a_match_by_rounds():
    with pytest.raises(IllegalAction) as err:
        GAME.initial_state(4, {"pflichtsolo": True, "match": "to_20"})
    assert err.value.reason.code == "doppelkopf.pflichtsolo_needs_rounds"


def test_the_view_shows_who_still_owes_a_solo(doko):
    state = doko.start(options={"pflichtsolo": True, "match": "2_rounds"})
    assert GAME.view(state, None).solo_owed == (True,) * 4
    assert card("QC") in state.deal.hands[0]
