"""The engine encodes every event and view with ``records.record_bytes``, written without
protobuf's constructors: its bytes must be protobuf's own, byte for byte (the hash chain
covers the payload bytes), for every value kind and for random playouts of every game."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from tavola.protocol.records import from_record, record_bytes, to_record
from tavola.rules import driver, registry
from tavola.rules.cards import Card
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
