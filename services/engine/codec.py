"""Turning decided batches into log events (with cause, turn and salt metadata)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from uuid import UUID

from tavola.eventlog.model import NewEvent
from tavola.match import aggregate
from tavola.match.aggregate import Batch, MatchState
from tavola.protocol import events as codec
from tavola.v1 import events_pb2

SALT_BYTES = 16


def batches_to_new_events(
    state: MatchState | None,
    batches: Sequence[Batch],
    *,
    game: str,
    rules_version: int,
    new_id: Callable[[], UUID],
    salt: Callable[[int], bytes],
    command_id: str = "",
    by_bot: bool = False,
    bot_decision: events_pb2.BotDecision | None = None,
) -> tuple[list[NewEvent], MatchState]:
    """Encode every event of the batches, folding as we go to record who acts next."""
    out: list[NewEvent] = []
    for index, batch in enumerate(batches):
        for position, event in enumerate(batch.events):
            state = aggregate.evolve(state, event)
            audience = event.audience()
            last = index == len(batches) - 1 and position == len(batch.events) - 1
            metadata = codec.Metadata(
                kind=codec.CAUSE_KINDS[batch.kind],
                seat=batch.seat,
                action=batch.action,
                command_id=command_id if batch.kind in ("action", "take_back") else "",
                chance_purpose=batch.chance_purpose,
                reason=batch.reason,
                by_bot=by_bot and batch.kind == "action",
                to_act=tuple(sorted(state.to_act())),
                last_in_batch=last,
                salt=salt(SALT_BYTES) if audience is not None else b"",
                bot_decision=bot_decision if batch.kind == "action" else None,
            )
            out.append(
                NewEvent(
                    event_id=new_id(),
                    type=codec.type_name(game, event),
                    payload=codec.encode_payload(game, event),
                    schema_version=codec.SCHEMA_VERSION,
                    rules_version=rules_version,
                    audience=None if audience is None else tuple(sorted(audience)),
                    metadata=metadata.encode(),
                )
            )
    assert state is not None
    return out, state
