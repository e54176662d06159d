"""Mapping the match to protobuf responses, and small request checks (engine-internal)."""

from __future__ import annotations

import functools
import hashlib
from typing import Any, TypeVar

from google.protobuf.timestamp_pb2 import Timestamp

from tavola.match.aggregate import MatchState
from tavola.match.events import DeadlineSet
from tavola.protocol import errors
from tavola.protocol import events as codec
from tavola.protocol.records import embedded, text
from tavola.rules.errors import Reason, RulesError
from tavola.rules.interface import Game
from tavola.rules.messages import render
from tavola.v1 import game_pb2


def stream_of(match_id: str) -> str:
    return f"match-{match_id}"


MAX_ID = 128
MAX_ACTION = 64
FINGERPRINT = 32


def standings_pb(state: MatchState) -> list[game_pb2.SeatStanding]:
    out = []
    for s in state.game.standings(state.game_state):
        info = state.seat(s.seat)
        out.append(
            game_pb2.SeatStanding(
                seat=s.seat,
                score=s.score,
                rank=s.rank,
                player_name=info.player_name,
                is_bot=info.is_bot,
            )
        )
    return out


BLOCKED_FIELD = game_pb2.GetViewResponse.DESCRIPTOR.fields_by_name["blocked"].number


def blocked_bytes(
    state: MatchState, seat: int, legal_codes: set[str], locale: str, view: object
) -> list[bytes]:
    """The seat's own cards/tiles it cannot play now (in ``view``, the seat's own view),
    each with the reason (help), as the ``blocked`` field of a ``GetViewResponse``
    writes it (the reason's bytes made once per reason and locale)."""
    game, game_state = state.game, state.game_state
    why = game.why_illegal
    out = []
    for item in getattr(view, "hand", ()):
        code = getattr(item, "code", None)
        if code is None or code in legal_codes:
            continue
        action = _decoded(game, code)
        if action is None:
            continue
        reason = why(game_state, seat, action)
        if reason is not None:
            out.append(_blocked_bytes(code, reason, locale))
    return out


@functools.lru_cache(maxsize=4096)
def _decoded(game: Game[Any, Any], code: str) -> Any:
    """``game.decode_action(code)`` (None: not an action), decoded once: a game's codes
    mean the same in every match (its options live in the state), and the same few dozen
    cards are in the hands of every view."""
    try:
        return game.decode_action(code)
    except RulesError:
        return None


@functools.lru_cache(maxsize=16384)
def _blocked_bytes(code: str, reason: Reason, locale: str) -> bytes:
    """One ``blocked`` entry as it is serialized, made once per card, reason and locale:
    a seat not on turn has every card blocked for the same reason, version after version."""
    return embedded(BLOCKED_FIELD, text(1, code) + embedded(2, _shown_bytes(reason, locale)))


@functools.lru_cache(maxsize=4096)
def _shown_bytes(reason: Reason, locale: str) -> bytes:
    """A reason with its text in ``locale``, serialized once: the same few reasons block
    the same cards move after move."""
    return codec.reason_to_pb(reason, render(reason, locale)).SerializeToString()


def deadline_pb(deadline: DeadlineSet) -> game_pb2.SeatDeadline:
    stamp = Timestamp()
    stamp.FromMilliseconds(deadline.deadline_ms)
    return game_pb2.SeatDeadline(seat=deadline.seat, deadline=stamp, seconds=deadline.seconds)


def request_fingerprint(request: game_pb2.SubmitActionRequest) -> bytes:
    text = f"{request.match_id}|{request.seat}|{request.action}"
    return hashlib.sha256(text.encode()).digest()


def take_back_fingerprint(request: game_pb2.TakeBackRequest) -> bytes:
    text = f"take_back|{request.match_id}|{request.seat}"
    return hashlib.sha256(text.encode()).digest()


Answer = TypeVar("Answer", game_pb2.SubmitActionResponse, game_pb2.TakeBackResponse)


def duplicate_response(
    result: bytes,
    fingerprint: bytes,
    command_id: str,
    answer: type[Answer] = game_pb2.SubmitActionResponse,  # type: ignore[assignment]
) -> Answer:
    """The recorded answer of a command applied before, marked ``duplicate``; ALREADY_EXISTS
    if the id was used for another command (its fingerprint differs)."""
    if result[:FINGERPRINT] != fingerprint:
        raise errors.exists("command.reused", command_id=command_id)
    original = answer.FromString(result[FINGERPRINT:])
    original.duplicate = True
    return original


def check_id(field: str, value: str) -> None:
    check_text(field, value, MAX_ID)


def check_text(field: str, value: str, limit: int) -> None:
    if not value:
        raise errors.invalid("request.missing", field=field)
    if len(value) > limit:
        raise errors.invalid("request.too_large", field=field, limit=limit)
