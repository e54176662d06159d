"""The interface contract: messages, timeouts, views, action codes, options, event types."""

from __future__ import annotations

import dataclasses
import string
import typing

import pytest
from fantan_kit import GAME, act, deal

from tavola.games.fantan import Pass, Play
from tavola.games.fantan.views import FanTanView, RowView
from tavola.rules.cards import Card, card, standard_deck
from tavola.rules.errors import IllegalAction, MalformedAction, Reason

RAISED_CODES = {
    "fantan.not_in_hand": {"card"},
    "fantan.seven_of_diamonds_first": {"card"},
    "fantan.seven_first": {"card"},
    "fantan.row_not_open": {"card", "suit"},
    "fantan.not_adjacent": {"card", "low", "high"},
    "fantan.must_play": set(),
    "fantan.auto.safe_card": {"card"},
}


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("code", sorted(RAISED_CODES))
def test_every_reason_code_is_in_the_catalogue_in_english_and_portuguese(code):
    entry = GAME.messages()[code]
    assert set(entry) >= {"en", "pt"}
    for locale in ("en", "pt"):
        assert placeholders(entry[locale]) <= RAISED_CODES[code]
        entry[locale].format(card="7D", suit="D", low="6D", high="9D")


def test_every_option_description_is_in_the_catalogue():
    for spec in GAME.info.options:
        assert {"en", "pt"} <= set(GAME.messages()[spec.description])


def test_every_message_code_is_prefixed_with_the_game_name():
    assert all(code.startswith("fantan.") for code in GAME.messages())


def test_the_timeout_move_is_a_legal_card_avoiding_sevens_and_far_from_the_centre():
    state = deal(["KH", "7D 8D 7C 6D 2S", "5D 8S"], dealer=0)
    action, reason = GAME.automatic_action(state, 1)
    assert action == Play(card("7D")) and reason == Reason.of("fantan.auto.safe_card", card="7D")
    state, _ = act(state, 1, "7D")
    state, _ = act(state, 1, "6D")  # seat 2 and 0 pass; seat 1 holds 8D 7C 2S
    action, reason = GAME.automatic_action(state, 2)
    assert action == Play(card("5D"))
    state, _ = act(state, 2, "5D")
    action, reason = GAME.automatic_action(state, 1)
    assert action == Play(card("8D"))  # not the seven of clubs
    assert reason.code == "fantan.auto.safe_card"
    assert GAME.why_illegal(state, 1, action) is None


def test_the_view_of_a_seat_shows_its_own_hand_and_only_counts_of_the_others():
    state = deal(["KH QH", "7D 9D 6D 7C", "8D KS"], dealer=0)
    state, _ = act(state, 1, "7D")
    view = GAME.view(state, 2)
    assert isinstance(view, FanTanView)
    assert view.hand == (card("8D"), card("KS"))
    assert view.card_counts == (2, 3, 2)
    assert view.rows == (RowView(card("7D").suit, "7D", "7D"),)
    assert view.turn == 2 and view.dealer == 0 and view.hand_number == 1
    assert view.totals == (0, 0, 0) and view.phase == "play"


def test_a_spectator_sees_no_hand():
    state = deal(["KH QH", "7D 9D 6D 7C", "8D KS"], dealer=0)
    view = GAME.view(state, None)
    assert view.seat is None and view.hand == ()
    assert view.card_counts == (2, 4, 2)


def test_the_view_before_any_deal_is_empty():
    view = GAME.view(GAME.initial_state(4, {}), 0)
    assert view.hand == () and view.card_counts == () and view.phase == "draw_dealer"


@pytest.mark.parametrize("deck_card", standard_deck())
def test_every_card_code_round_trips(deck_card):
    action = Play(deck_card)
    code = GAME.encode_action(action)
    assert code == deck_card.code
    assert GAME.decode_action(code) == action
    assert GAME.describe_action(action) == deck_card.label


def test_pass_round_trips_and_other_spellings_of_a_card_decode():
    assert GAME.decode_action(GAME.encode_action(Pass())) == Pass()
    assert GAME.decode_action("10H") == Play(card("TH"))
    assert GAME.decode_action("7♦") == Play(card("7D"))
    assert GAME.decode_action(" pass ") == Pass()


@pytest.mark.parametrize("code", ["", "7", "7X", "1D", "pas", "7D 8D", "bid 4", "ZZ", "11H"])
def test_malformed_codes_raise_malformed_action(code):
    with pytest.raises(MalformedAction) as caught:
        GAME.decode_action(code)
    assert caught.value.reason.code == "action.malformed"
    assert caught.value.reason.param_dict() == {"code": code, "game": "fan-tan"}


def test_options_are_declared_with_their_house_rule_flags():
    specs = {spec.name: spec for spec in GAME.info.options}
    assert set(specs) == {
        "penalty",
        "face_cards_ten",
        "any_seven_starts",
        "equal_hands",
        "hands",
        "penalty_limit",
        "timers",
        "timer_card",
    }
    assert specs["penalty"].choices == ("per_card", "card_value")
    assert {n for n, s in specs.items() if s.house_rule} == {
        "face_cards_ten",
        "any_seven_starts",
        "equal_hands",
    }
    assert GAME.house_rules({"any_seven_starts": True, "hands": 3}) == ("any_seven_starts",)
    assert GAME.info.rules_version == 1 and not GAME.info.teams
    assert (GAME.info.min_players, GAME.info.max_players) == (3, 7)


def test_options_are_parsed_from_strings_and_bad_ones_are_refused():
    state = GAME.initial_state(4, {"penalty": "card_value", "hands": "2", "equal_hands": "yes"})
    assert state.options.penalty == "card_value" and state.options.hands == 2
    assert state.options.equal_hands
    with pytest.raises(IllegalAction) as caught:
        GAME.initial_state(4, {"penalty": "per_suit"})
    assert caught.value.reason.code == "options.invalid"
    with pytest.raises(IllegalAction) as caught:
        GAME.initial_state(4, {"jokers": True})
    assert caught.value.reason.code == "options.unknown"


@pytest.mark.parametrize("players", [2, 8])
def test_fan_tan_is_played_by_three_to_seven(players):
    with pytest.raises(IllegalAction) as caught:
        GAME.initial_state(players, {})
    assert caught.value.reason.code == "table.bad_players"


ALLOWED = (int, str, bool, Card)


def check_type(hint: object) -> None:
    origin = typing.get_origin(hint)
    if origin in (tuple, typing.Union) or str(origin) == "<class 'types.UnionType'>":
        for arg in typing.get_args(hint):
            if arg is not Ellipsis:
                check_type(arg)
    elif hint is type(None):
        return
    elif dataclasses.is_dataclass(hint):
        for value in typing.get_type_hints(hint).values():
            check_type(value)
    else:
        assert isinstance(hint, type) and issubclass(hint, ALLOWED), hint


@pytest.mark.parametrize("kind", [*GAME.info.event_types, FanTanView])
def test_events_and_the_view_use_only_the_allowed_field_types(kind):
    assert dataclasses.is_dataclass(kind)
    assert kind.__dataclass_params__.frozen
    assert hasattr(kind, "__slots__")
    check_type(kind)
