"""Every event's metadata (cause, seats to act, last of its batch, salt) is written
directly, without protobuf's constructors; the hash chain covers these bytes, so they are
protobuf's own, byte for byte, for every field at and off its default."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tavola.protocol.events import CAUSE_KINDS, Metadata
from tavola.rules.errors import Reason
from tavola.v1 import events_pb2


def protobufs(metadata: Metadata) -> bytes:
    return metadata.to_pb().SerializeToString(deterministic=True)


DECISION = events_pb2.BotDecision(level="master", policy_version=3, rng_seed=2**63 + 5, samples=80)


@pytest.mark.parametrize(
    "metadata",
    [
        Metadata(kind=0),
        Metadata(kind=CAUSE_KINDS["system"]),
        Metadata(kind=CAUSE_KINDS["action"], seat=0, action="7D", command_id="bot:m:0:9"),
        Metadata(kind=CAUSE_KINDS["chance"], chance_purpose="deal/2", salt=bytes(16)),
        Metadata(
            kind=CAUSE_KINDS["timeout"],
            seat=3,
            action="pass",
            reason=Reason.of("fan-tan.auto_pass", seat=3, card="7H"),
            to_act=(0, 1, 2, 3),
            last_in_batch=True,
        ),
        Metadata(kind=CAUSE_KINDS["action"], seat=2, by_bot=True, bot_decision=DECISION),
        Metadata(kind=CAUSE_KINDS["action"], bot_decision=events_pb2.BotDecision()),
        Metadata(kind=CAUSE_KINDS["leave"], seat=-7, action="é ♠" * 70, to_act=(200, 1)),
    ],
)
def test_metadata_is_written_as_protobuf_writes_it(metadata: Metadata) -> None:
    assert metadata.encode() == protobufs(metadata)


@given(
    kind=st.sampled_from(sorted(CAUSE_KINDS.values())),
    seat=st.integers(-(2**31), 2**31 - 1),
    action=st.text(max_size=200),
    command_id=st.text(max_size=40),
    to_act=st.lists(st.integers(0, 2**31 - 1), max_size=6).map(tuple),
    last=st.booleans(),
    salt=st.binary(max_size=40),
    by_bot=st.booleans(),
)
def test_any_metadata_is_protobufs_bytes(
    kind, seat, action, command_id, to_act, last, salt, by_bot
):  # type: ignore[no-untyped-def]
    metadata = Metadata(
        kind=kind,
        seat=seat,
        action=action,
        command_id=command_id,
        to_act=to_act,
        last_in_batch=last,
        salt=salt,
        by_bot=by_bot,
    )
    assert metadata.encode() == protobufs(metadata)


def test_every_kind_and_seat_of_a_table():
    for kind, seat in itertools.product(CAUSE_KINDS.values(), range(-1, 6)):
        metadata = Metadata(kind=kind, seat=seat, to_act=(seat,) if seat >= 0 else ())
        assert metadata.encode() == protobufs(metadata)
