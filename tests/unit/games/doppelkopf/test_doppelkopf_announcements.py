"""Announcements and denials: deadlines, skipped levels, the reply rule, the shifts
without nines and after a late wedding, and announcing out of turn."""

from __future__ import annotations

import pytest

from tavola.games.doppelkopf import GAME
from tavola.games.doppelkopf import events as ev
from tavola.games.doppelkopf.model import Call, Party, SeatParty
from tavola.rules.errors import IllegalAction

NO_NINES = (
    "QC TH JC AD KD AC TC KC AS KH",
    "QC QS JS TD AC TS KS AH KH KC",
    "TH QS QH JH AD KD TC AS TS AH",
    "QH QD QD JC JS JH JD JD TD KS",
)


def refused(doko, state, seat, code):
    """The action is refused by ``decide`` (state unchanged); returns the rules' reason."""
    before = state
    action = GAME.decode_action(code)
    with pytest.raises(IllegalAction):
        GAME.decide(state, seat, action)
    assert state == before
    reason = GAME.why_illegal(state, seat, action)
    assert reason is not None
    return reason


def test_re_may_be_announced_with_twelve_or_eleven_cards_but_not_ten(doko):
    state = doko.normal_game()
    assert Call.RE in [a.call for a in GAME.legal_actions(state, 0)[-6:] if hasattr(a, "call")]
    state = doko.play(state, "AC")  # seat 0 now holds 11
    doko.act(state, 0, "re")
    state = doko.tricks(doko.normal_game(), 2)
    assert len(state.deal.hands[0]) == 10
    reason = refused(doko, state, 0, "re")
    assert reason.code == "doppelkopf.too_late" and reason.param_dict()["cards"] == 11


def test_a_kontra_player_cannot_say_re(doko):
    state = doko.normal_game()
    assert refused(doko, state, 2, "re").code == "doppelkopf.wrong_party"


def test_a_seat_holding_a_legal_announcement_may_act_out_of_turn(doko):
    state = doko.normal_game()
    assert GAME.to_act(state) == frozenset({0, 1, 2, 3})
    codes = [GAME.encode_action(a) for a in GAME.legal_actions(state, 2)]
    assert codes == ["kontra", "no 90", "no 60", "no 30", "schwarz", "wait"]
    assert refused(doko, state, 2, "TH").code == "doppelkopf.not_your_turn_to_play"
    state = doko.act(state, 2, "kontra")
    assert state.deal.turn == 0 and state.deal.levels == (0, 1)


def test_an_announcement_marks_only_its_maker(doko):
    state = doko.act(doko.normal_game(), 1, "re")
    assert GAME.view(state, 2).known_parties == (SeatParty(1, Party.RE),)
    assert GAME.view(state, None).known_parties == (SeatParty(1, Party.RE),)
    assert GAME.view(state, 0).my_party == Party.RE


def test_a_denial_may_skip_levels_and_the_skipped_ones_count_as_announced(doko):
    state = doko.normal_game()
    events = doko.events(state, 0, "no 60")
    assert events == [ev.Announced(0, Party.RE, Call.NO_60, 3, False)]
    state = GAME.fold(state, events)
    assert state.deal.levels == (3, 0)
    assert refused(doko, state, 1, "no 90").code == "doppelkopf.already_announced"


def test_each_denial_needs_one_card_fewer(doko):
    state = doko.act(doko.normal_game(), 0, "re")
    for level, code in enumerate(["no 90", "no 60", "no 30", "schwarz"], start=2):
        state = doko.tricks(state, 1)
        assert len(state.deal.hands[0]) == 12 - level + 1
        state = doko.act(state, 0, code)  # in time with 12 - level + 1 cards ...
    state = doko.act(doko.normal_game(), 0, "re")
    state = doko.tricks(state, 3)  # nine cards: no 90 (needs 10) is too late
    reason = refused(doko, state, 0, "no 90")
    assert reason.code == "doppelkopf.too_late" and reason.param_dict()["cards"] == 10
    # skipping to no 60 (needs 9) is not allowed either: no 90 is skipped and too late
    assert refused(doko, state, 0, "no 60").code == "doppelkopf.too_late"


def test_the_deadlines_count_the_announcers_own_cards(doko):
    state = doko.tricks(doko.normal_game(), 1)
    leader = state.deal.turn
    code = GAME.encode_action(GAME.legal_actions(state, leader)[0])
    state = doko.act(state, leader, code)  # the leader of trick 2 now holds ten cards
    assert len(state.deal.hands[leader]) == 10
    assert leader not in GAME.to_act(state)
    assert all(s in GAME.to_act(state) for s in state.deal.seats if s != leader)


def test_a_reply_is_allowed_with_one_card_fewer_than_the_opposing_call_required(doko):
    state = doko.act(doko.normal_game(), 0, "re")  # Re required 11
    state = doko.tricks(state, 2)  # everyone holds 10
    events = doko.events(state, 2, "kontra")
    assert events == [ev.Announced(2, Party.KONTRA, Call.KONTRA, 1, True)]
    state = GAME.fold(state, events)
    reason = refused(doko, state, 3, "no 90")
    assert reason.code == "doppelkopf.no_denial_after_reply"


def test_no_reply_once_one_card_fewer_has_passed(doko):
    state = doko.act(doko.normal_game(), 0, "re")
    state = doko.tricks(state, 3)  # nine cards
    assert refused(doko, state, 2, "kontra").code == "doppelkopf.too_late"


def test_a_reply_answers_the_opposing_partys_last_call(doko):
    state = doko.act(doko.normal_game(), 0, "no 60")  # no 60 required 9
    state = doko.tricks(state, 4)  # eight cards: a reply is still possible
    state = doko.act(state, 3, "kontra")
    assert state.deal.replied == (False, True)
    state = doko.act(doko.normal_game(), 0, "no 60")
    state = doko.tricks(state, 5)
    assert refused(doko, state, 3, "kontra").code == "doppelkopf.too_late"


def test_a_reply_made_while_still_in_time_allows_denials(doko):
    state = doko.act(doko.normal_game(), 0, "re")
    state = doko.act(state, 2, "kontra")
    assert state.deal.replied == (False, False)
    state = doko.act(state, 3, "no 90")
    assert state.deal.levels == (1, 2)


def test_without_nines_every_deadline_is_two_cards_lower(doko):
    state = doko.healthy(doko.start(NO_NINES, options={"without_nines": True}))
    assert len(state.deal.hands[0]) == 10
    state = doko.tricks(state, 1)
    doko.act(state, 0, "re")  # nine cards: in time
    state = doko.tricks(state, 1)
    assert refused(doko, state, 0, "re").param_dict()["cards"] == 9


def test_no_announcement_before_the_wedding_is_clarified(doko):
    state = doko.declare(doko.start(doko.WEDDING), s0="wedding")
    assert GAME.to_act(state) == frozenset({0})
    assert refused(doko, state, 0, "re").code == "doppelkopf.wedding_unclarified"


def test_a_late_wedding_clarification_moves_the_deadlines_by_as_many_tricks(doko):
    state = doko.declare(doko.start(doko.WEDDING), s0="wedding")
    state = doko.play(state, "AC AC TC KC")
    state = doko.play(state, "9H AH 9H JD")  # partner seat 3 in the second trick
    assert state.deal.shift == 1 and len(state.deal.hands[0]) == 10
    state2 = doko.act(state, 0, "re")  # ten cards: in time after a shift of one
    assert state2.deal.levels == (1, 0)
    state = doko.tricks(state, 1)  # nine cards
    assert refused(doko, state, 1, "kontra").param_dict()["cards"] == 10
    assert refused(doko, state, 3, "no 90").param_dict()["cards"] == 10  # Re skipped late
    state2 = doko.tricks(state2, 1)
    doko.act(state2, 3, "no 90")  # Re was made in time; no 90 needs nine after the shift


def test_the_wedding_partner_is_shown_once_known(doko):
    state = doko.declare(doko.start(doko.WEDDING), s0="wedding")
    view = GAME.view(state, 2)
    assert view.known_parties == (SeatParty(0, Party.RE),) and view.my_party is None
    state = doko.play(state, "9H AH 9H QD")
    view = GAME.view(state, 2)
    assert view.partner == 3 and SeatParty(3, Party.RE) in view.known_parties
    assert view.my_party == Party.KONTRA
