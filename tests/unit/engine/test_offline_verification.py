"""A finished match verifies offline; any single alteration is caught and named."""

from __future__ import annotations

import dataclasses

import pytest

from support.engine import engine_fixture
from tavola.cli.replay import decode
from tavola.eventlog.chain import verify_chain
from tavola.match.verify import Discrepancy, verify
from tavola.rules.cards import Card


async def finished_records(client_seeds=None):
    fx = engine_fixture()
    await fx.create(players=4, client_seeds=client_seeds)
    await fx.play_to_end("m1")
    stored = await fx.store.read_stream("match-m1")
    return stored, decode(stored)


async def test_a_finished_match_verifies_with_its_chain_intact():
    stored, records = await finished_records({1: b"alice's entropy"})
    assert verify_chain(stored) is None
    verify(records)


async def test_altering_one_dealt_card_is_caught():
    _, records = await finished_records()
    index = next(i for i, r in enumerate(records) if r.event.__class__.__name__ == "HandDealt")
    event = records[index].event
    swapped = (
        Card.parse("2C") if event.cards[0] != Card.parse("2C") else Card.parse("3C"),
        *event.cards[1:],
    )
    records[index] = dataclasses.replace(
        records[index], event=dataclasses.replace(event, cards=swapped)
    )
    with pytest.raises(Discrepancy) as caught:
        verify(records)
    assert caught.value.version == records[index].version


async def test_altering_the_revealed_seed_is_caught():
    _, records = await finished_records()
    last = records[-1]
    records[-1] = dataclasses.replace(
        last, event=dataclasses.replace(last.event, seed_hex="00" * 32)
    )
    with pytest.raises(Discrepancy, match="commitment"):
        verify(records)


async def test_altering_a_client_seed_is_caught():
    _, records = await finished_records({2: b"bob"})
    created = records[0].event
    seats = list(created.seats)
    seats[2] = dataclasses.replace(seats[2], client_seed_hex=b"mallory".hex())
    records[0] = dataclasses.replace(
        records[0], event=dataclasses.replace(created, seats=tuple(seats))
    )
    with pytest.raises(Discrepancy):
        verify(records)


async def test_altering_the_commitment_is_caught():
    _, records = await finished_records()
    records[0] = dataclasses.replace(
        records[0], event=dataclasses.replace(records[0].event, seed_commitment="ab" * 32)
    )
    with pytest.raises(Discrepancy, match="commitment"):
        verify(records)


async def test_altering_a_stored_payload_breaks_the_hash_chain():
    stored, _ = await finished_records()
    tampered = list(stored)
    tampered[10] = dataclasses.replace(tampered[10], payload=tampered[10].payload + b"\x00")
    assert verify_chain(tampered) == tampered[10].version
