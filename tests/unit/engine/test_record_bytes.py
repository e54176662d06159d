"""The engine encodes every event and view with ``records.record_bytes``, written without
protobuf's constructors: its bytes must be protobuf's own, byte for byte (the hash chain
covers the payload bytes), for every value kind and for random playouts of every game."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from tavola.protocol.records import from_record, record_bytes, to_record
from tavola.rules import driver, registry
from tavola.rules.cards import Card, Rank
from tavola.rules.tiles import Tile
from tavola.v1 import common_pb2 as pb


def by_protobuf(value: object) -> pb.Value:
    """What the plain protobuf constructors make of a value (the reference)."""
    if value is None:
        return pb.Value(null_value=True)
    if isinstance(value, bool):
        return pb.Value(bool_value=value)
    if isinstance(value, int):
        return pb.Value(int_value=value)
    if isinstance(value, str):
        return pb.Value(string_value=value)
    if isinstance(value, tuple):
        return pb.Value(list=pb.ValueList(items=[by_protobuf(v) for v in value]))
    raise AssertionError(value)


@dataclass(frozen=True)
class Sample:
    number: int
    text: str
    items: tuple[object, ...]
    maybe: int | None


@pytest.mark.parametrize(
    "sample",
    [
        Sample(0, "", (), None),
        Sample(-1, "é ♠", (True, False, 0, 2**40, -(2**40)), 7),
        Sample(127, "x" * 200, ((), ((1,),), (None, "a")), -128),
        Sample(2**62, "a", tuple(range(300)), 0),
    ],
)
def test_plain_values_encode_as_protobuf_does(sample: Sample) -> None:
    reference = pb.Record(
        type="Sample",
        fields=[
            pb.Field(name=name, value=by_protobuf(getattr(sample, name)))
            for name in ("number", "text", "items", "maybe")
        ],
    )
    assert record_bytes(sample) == reference.SerializeToString(deterministic=True)


def test_cards_and_tiles_encode_as_protobuf_does() -> None:
    card = Card.parse("QS")
    reference = pb.Value(card=pb.Card(code=card.code, rank=int(card.rank), suit=int(card.suit) + 1))
    tile = Tile(6, 0)

    @dataclass(frozen=True)
    class Hand:
        card: Card
        tile: Tile

    encoded = to_record(Hand(card, tile))
    assert encoded.fields[0].value == reference
    assert encoded.fields[1].value == pb.Value(tile=pb.Tile(high=6, low=0, code=tile.code))


@pytest.mark.parametrize("name", registry.names())
def test_every_game_event_and_view_round_trips_and_reparses_to_the_same_bytes(name: str) -> None:
    game = registry.get(name)
    players = min(4, game.info.max_players)
    out = driver.play_match(game, players, {}, seed=bytes(32), rng=random.Random(3))
    state = game.initial_state(players, {})
    for event in out.events[:400]:
        data = record_bytes(event, f"{name}.{type(event).__name__}")
        parsed = pb.Record.FromString(data)
        assert parsed.SerializeToString(deterministic=True) == data
        assert from_record(type(event), parsed) == event
        state = game.evolve(state, event)
        for seat in (None, *range(players)):
            view = game.view(state, seat)
            data = record_bytes(view)
            assert pb.Record.FromString(data).SerializeToString(deterministic=True) == data


def test_a_tuple_of_leaves_is_written_once_and_a_tuple_holding_records_every_time():
    from tavola.protocol import records

    hand = (Card.parse("QS"), Card.parse("2H"), 7, "x", None)
    holding = (Sample(1, "a", (), None),)
    records._KEPT_LISTS.clear()
    first = record_bytes(Sample(1, "t", hand, None))
    assert records._KEPT_LISTS[id(hand)] == (hand, records._list(hand))
    assert record_bytes(Sample(1, "t", hand, None)) == first  # the kept bytes
    assert record_bytes(Sample(1, "t", tuple(hand), None)) == first
    record_bytes(Sample(2, "u", holding, None))
    assert id(holding) not in records._KEPT_LISTS  # a record inside: not kept
    for n in range(records.KEPT_LISTS + 10):  # bounded
        records._list((n, n + 1))
    assert len(records._KEPT_LISTS) <= records.KEPT_LISTS
    records._KEPT_LISTS.clear()
    assert record_bytes(Sample(1, "t", hand, None)) == first


@dataclass(frozen=True)
class Hinted:
    """Every leaf hint the compiled writer keeps bytes for, and two it does not."""

    seat: int
    flag: bool
    name: str
    card: Card
    tile: Tile
    rank: Rank
    maybe: Card | None
    items: tuple[int, ...]


@pytest.mark.parametrize(
    "value",
    [
        Hinted(0, False, "", Card.parse("AS"), Tile(6, 6), Rank.ACE, None, ()),
        Hinted(3, True, "Ana", Card.parse("2H"), Tile(0, 0), Rank.TWO, Card.parse("TD"), (1, 2)),
        # values of another type than the hint are written by their own type, as before
        Hinted(True, 1, None, None, None, 14, Card.parse("QC"), ()),  # type: ignore[arg-type]
        Hinted(-(2**40), False, "x" * 300, Card.parse("KC"), Tile(5, 1), Rank.KING, None, ()),
    ],
)
def test_the_compiled_writer_keeps_protobufs_bytes_for_every_leaf_and_odd_value(value) -> None:
    reference = to_record(value).SerializeToString(deterministic=True)
    for _ in range(3):  # the first time writes and keeps each field, the others reuse it
        assert record_bytes(value) == reference
        assert record_bytes(value, "game.Hinted") == to_record(
            value, "game.Hinted"
        ).SerializeToString(deterministic=True)


def test_the_fields_kept_per_value_are_bounded():
    from tavola.protocol import records

    for n in range(records._FIELDS_LIMIT * 3):
        record_bytes(Hinted(n, False, str(n), Card.parse("AS"), Tile(1, 0), Rank.TWO, None, ()))
    scope = records._COMPILED[Hinted].__globals__
    assert len(scope["C0"]) <= records._FIELDS_LIMIT and len(scope["C2"]) <= records._FIELDS_LIMIT
