"""Action codes, errors, timeouts, the message catalogue and the per-seat views."""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from barbu_kit import GAME, SUIT_HANDS, act, choose, dealt, play

from tavola.games.barbu import ChooseContract, Contract, Double, PlayCard
from tavola.rules.cards import Rank, Suit, card, cards
from tavola.rules.errors import GameOver, IllegalAction, MalformedAction, NotYourTurn

PACKAGE = Path(__file__).parents[4] / "libs" / "tavola" / "games" / "barbu"


@pytest.mark.parametrize(
    ("code", "action", "label"),
    [
        ("contract no-tricks", ChooseContract(Contract.NO_TRICKS), "No Tricks"),
        ("contract no-king", ChooseContract(Contract.NO_KING), "No King of Hearts"),
        ("contract trumps H", ChooseContract(Contract.TRUMPS, trump=Suit.HEARTS), "Trumps ♥"),
        (
            "contract domino T",
            ChooseContract(Contract.DOMINO, start_rank=Rank.TEN),
            "Domino from 10",
        ),
        ("pass", Double(()), "pass"),
        ("double 1 3", Double((1, 3)), "double 1, 3"),
        ("QS", PlayCard(card("QS")), "Q♠"),
    ],
)
def test_action_codes_round_trip_and_have_human_labels(code, action, label):
    assert GAME.decode_action(code) == action
    assert GAME.encode_action(action) == code
    assert GAME.describe_action(action) == label


def test_decoding_is_lenient_on_case_order_and_ten():
    assert GAME.decode_action("DOUBLE 3 1") == Double((1, 3))
    assert GAME.decode_action("contract domino 10") == GAME.decode_action("contract domino T")
    assert GAME.decode_action("contract Trumps s") == ChooseContract(
        Contract.TRUMPS, trump=Suit.SPADES
    )


@pytest.mark.parametrize(
    "code",
    [
        "",
        "bid 4",
        "double",
        "double 4",
        "double 1 1",
        "contract",
        "contract trumps",
        "contract trumps X",
        "contract domino 1",
        "contract domino",
        "contract no-queens H",
        "contract barbu",
        "ZZ",
        "QS KS",
        "pass 2",
    ],
)
def test_unparseable_codes_are_malformed(code):
    with pytest.raises(MalformedAction) as caught:
        GAME.decode_action(code)
    assert caught.value.reason.code == "action.malformed"
    assert caught.value.reason.param_dict() == {"code": code, "game": "barbu"}


def test_an_illegal_action_raises_with_its_reason_and_changes_nothing():
    state = choose(dealt(SUIT_HANDS), "no-tricks")
    before = state
    with pytest.raises(IllegalAction) as caught:
        GAME.decide(state, 0, GAME.decode_action("2H"))
    assert caught.value.reason.code == "barbu.not_in_hand"
    with pytest.raises(NotYourTurn):
        GAME.decide(state, 1, GAME.decode_action("2H"))
    with pytest.raises(IllegalAction) as caught:
        GAME.decide(state, 0, GAME.decode_action("contract no-queens"))
    assert caught.value.reason.code == "barbu.expected_card"
    assert state == before


def test_actions_of_the_wrong_phase_are_refused_with_a_reason():
    state = dealt(SUIT_HANDS)
    assert GAME.why_illegal(state, 0, GAME.decode_action("pass")).code == (
        "barbu.expected_contract"
    )
    assert GAME.why_illegal(state, 1, GAME.decode_action("pass")).code == "barbu.not_on_turn"
    bad = ChooseContract(Contract.TRUMPS)
    assert GAME.why_illegal(state, 0, bad).code == "barbu.contract_parameter"
    state, _ = act(state, 0, "contract no-tricks")
    assert GAME.why_illegal(state, 1, GAME.decode_action("2H")).code == ("barbu.expected_double")
    assert GAME.why_illegal(state, 1, Double((3, 2))).code == "barbu.bad_double_list"


def test_no_action_is_accepted_once_the_session_is_over():
    state = replace(dealt(SUIT_HANDS), phase="over", turn=None)
    with pytest.raises(GameOver):
        GAME.decide(state, 0, GAME.decode_action("pass"))


def test_a_timed_out_declarer_takes_the_first_remaining_contract():
    state = dealt(SUIT_HANDS)
    action, why = GAME.automatic_action(state, 0)
    assert GAME.encode_action(action) == "contract no-tricks"
    assert why.code == "barbu.auto.contract"
    later = replace(state, remaining=((Contract.TRUMPS, Contract.DOMINO),) * 4)
    action, _ = GAME.automatic_action(later, 0)
    assert GAME.encode_action(action) == "contract trumps S"  # the longest suit
    last = replace(state, remaining=((Contract.DOMINO,),) * 4)
    uneven = dealt(("7S 7H 7D 2C 3C", "", "", ""))
    action, _ = GAME.automatic_action(replace(uneven, remaining=last.remaining), 0)
    assert GAME.encode_action(action) == "contract domino 7"  # the rank held most


def test_a_timed_out_player_plays_the_lowest_legal_card():
    state = choose(dealt(("AS 2C 5H", "3H 3C 4D", "2S 4C 6H", "KS 5C 7H")), "no-hearts")
    action, why = GAME.automatic_action(state, 0)
    assert GAME.encode_action(action) == "2C" and why.code == "barbu.auto.card"
    state, _ = play(state, "AS 3H")
    action, _ = GAME.automatic_action(state, 2)
    assert GAME.encode_action(action) == "2S"


def test_every_reason_code_in_the_package_has_english_and_portuguese_text():
    catalogue = GAME.messages()
    source = "\n".join(p.read_text() for p in PACKAGE.glob("*.py"))
    used = set(re.findall(r'"(barbu\.[a-z_.\-]+)"', source)) - {"barbu.contract"}
    assert used <= set(catalogue), used - set(catalogue)
    assert {o.description for o in GAME.info.options} <= set(catalogue)
    for code, texts in catalogue.items():
        assert {"en", "pt"} <= set(texts) <= {"en", "pt", "pt-PT"}, code
        assert re.findall(r"{(\w+)}", texts["en"]) == re.findall(r"{(\w+)}", texts["pt"]) or (
            set(re.findall(r"{(\w+)}", texts["en"])) == set(re.findall(r"{(\w+)}", texts["pt"]))
        ), code
    for contract in Contract:
        assert f"barbu.contract.{contract.code}" in catalogue


def test_a_seat_sees_its_own_hand_and_a_spectator_sees_none():
    state = choose(dealt(SUIT_HANDS, declarer=1), "trumps H")
    view = GAME.view(state, 2)
    assert view.hand == cards(SUIT_HANDS[2]) and view.hand_counts == (13,) * 4
    assert GAME.view(state, None).hand == ()
    assert view.declarer == 1 and view.dealer == 0 and view.cutter == 3
    assert view.contract == Contract.TRUMPS and view.trump == Suit.HEARTS
    assert Contract.TRUMPS not in view.remaining_contracts
    assert len(view.remaining_contracts) == 6
    state, _ = play(state, "2H 2D")
    view = GAME.view(state, 0)
    assert view.trick_leader == 1
    assert [(p.seat, p.card.code) for p in view.trick] == [(1, "2H"), (2, "2D")]


def test_the_package_imports_nothing_impure():
    forbidden = (
        "grpc",
        "nats",
        "asyncpg",
        "structlog",
        "prometheus_client",
        "time",
        "datetime",
        "uuid",
        "random",
        "os",
        "io",
    )
    code = (
        "import sys; import tavola.games.barbu; "
        f"bad = [m for m in {forbidden!r} if m in sys.modules and m not in BEFORE]; "
        "print(','.join(bad))"
    )
    probe = "import sys; BEFORE = set(sys.modules); " + code
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == ""
    for path in PACKAGE.glob("*.py"):
        for line in path.read_text().splitlines():
            match = re.match(r"\s*(?:from|import)\s+([\w.]+)", line)
            if match:
                assert match.group(1).split(".")[0] not in forbidden, (path.name, line)


def _allowed(hint) -> bool:
    import dataclasses
    import enum
    import types
    import typing

    from tavola.rules.cards import Card

    if hint in (int, str, bool, Card, type(None)):
        return True
    if isinstance(hint, type) and issubclass(hint, enum.IntEnum):
        return True
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return all(_allowed(arg) for arg in typing.get_args(hint))
    if origin is tuple:
        return all(_allowed(arg) for arg in typing.get_args(hint) if arg is not Ellipsis)
    if dataclasses.is_dataclass(hint):
        params = hint.__dataclass_params__
        hints = typing.get_type_hints(hint)
        return params.frozen and all(_allowed(h) for h in hints.values())
    return False


def test_events_and_views_use_only_the_mappable_field_types():
    from tavola.games.barbu import BarbuView

    for kind in (*GAME.info.event_types, BarbuView):
        assert _allowed(kind), kind
        assert "__slots__" in vars(kind), kind
