"""Spades against the platform contract: messages, event and view types, purity."""

from __future__ import annotations

import ast
import dataclasses
import string
import types
import typing
from enum import IntEnum
from pathlib import Path

import pytest

from tavola.games import spades
from tavola.games.spades import GAME, SpadesView
from tavola.rules.cards import Card, PlayedCard
from tavola.rules.errors import Reason
from tavola.rules.interface import Event
from tavola.rules.tiles import Tile

PACKAGE = Path(spades.__file__).parent
RAISED = {
    "spades.players": {"players": 3},
    "spades.not_in_hand": {"card": "AH"},
    "spades.must_follow_clubs": {"card": "2D", "suit": "C"},
    "spades.must_follow_diamonds": {"card": "2C", "suit": "D"},
    "spades.must_follow_hearts": {"card": "2D", "suit": "H"},
    "spades.must_follow_spades": {"card": "2D", "suit": "S"},
    "spades.spades_not_broken": {"card": "AS"},
    "spades.bid_out_of_range": {"bid": 14},
    "spades.no_blind_nil": {},
    "spades.bid_first": {"card": "AS"},
    "spades.bidding_over": {},
    "spades.auto.bid": {"bid": 4},
    "spades.auto.card": {"card": "2C"},
}


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_code_the_game_raises_is_in_the_catalogue_in_english_and_portuguese():
    catalogue = GAME.messages()
    rules_codes = {
        code for code in catalogue if not code.startswith(("spades.hint.", "spades.option."))
    }
    assert set(RAISED) == rules_codes  # hint texts are the bots' (test_spades_bots checks them)
    for code, params in RAISED.items():
        for language in ("en", "pt"):
            text = catalogue[code][language]
            assert placeholders(text) <= set(params), (code, language)
            assert text.format(**params)


def test_every_reason_code_in_the_source_is_in_the_catalogue():
    source = "\n".join(p.read_text() for p in PACKAGE.glob("*.py"))
    codes = {
        node.value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value.startswith("spades.")
    }
    codes |= {f"spades.must_follow_{s}" for s in ("clubs", "diamonds", "hearts", "spades")}
    codes.discard("spades.must_follow_")
    assert codes <= set(GAME.messages())


ALLOWED_LEAVES = (int, str, bool, Card, Tile)


def check_type(hint: object, where: str) -> None:
    origin = typing.get_origin(hint)
    if origin in (types.UnionType, typing.Union):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        assert len(args) == 1, where
        check_type(args[0], where)
    elif origin is tuple:
        for arg in typing.get_args(hint):
            if arg is not Ellipsis:
                check_type(arg, where)
    elif (isinstance(hint, type) and issubclass(hint, IntEnum)) or hint in ALLOWED_LEAVES:
        pass
    elif dataclasses.is_dataclass(hint):
        check_dataclass(hint)
    else:
        pytest.fail(f"{where}: type {hint!r} is not allowed")


def check_dataclass(cls: type) -> None:
    params = cls.__dataclass_params__  # type: ignore[attr-defined]
    assert params.frozen, cls
    for name, hint in typing.get_type_hints(cls).items():
        check_type(hint, f"{cls.__name__}.{name}")


@pytest.mark.parametrize("event_type", GAME.info.event_types, ids=lambda t: t.__name__)
def test_events_use_only_the_mapped_field_types(event_type):
    assert issubclass(event_type, Event)
    assert "__slots__" in event_type.__dict__
    check_dataclass(event_type)


def test_the_view_uses_only_the_mapped_field_types():
    check_dataclass(SpadesView)
    check_dataclass(PlayedCard)


FORBIDDEN = {
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
}


def test_the_rules_import_no_io_clock_or_global_randomness():
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in FORBIDDEN, (path.name, name)


def test_reasons_are_reason_values():
    state = GAME.initial_state(4, {})
    assert GAME.why_illegal(state, 0, GAME.decode_action("bid 3")) == Reason.of(
        "game.not_your_turn", seat=0, on_turn=""
    )
