"""Limits on every field of every request, checked at the edge before any work.

Text may not hold control characters (NUL included) and has a length limit; bytes, lists
and maps have sizes; integers stay within what the log can store (a version or a count
above 2^31 - 1 cannot exist). A field not named in ``TEXT_LIMITS`` gets the default limit.
Protobuf itself refuses text that is not UTF-8 (the request does not decode).
"""

from __future__ import annotations

import unicodedata

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from tavola.protocol import errors
from tavola.protocol.errors import ServiceError

DEFAULT_TEXT = 256
TEXT_LIMITS = {
    "match_id": 64,
    "table_id": 64,
    "account_id": 64,
    "seat_token": 128,
    "command_id": 128,
    "action": 64,
    "locale": 16,
    "game": 32,
    "level": 16,
    "name": 64,
    "account_name": 64,
    "player_name": 64,
    "label": 64,
    "token_id": 32,
    "token_label": 64,
    "reason": 500,  # a referee's correction (AuditService.FileCorrection)
}
MAX_BYTES = 1024
BYTES_LIMITS = {"chunk": 48 * 1024}  # a part of an imported match record (ImportRecord)
MAX_ITEMS = 64
MAX_INT = 2**31 - 1
MIN_INT = -(2**31)
_WIDE = (
    FieldDescriptor.TYPE_INT64,
    FieldDescriptor.TYPE_UINT64,
    FieldDescriptor.TYPE_SINT64,
    FieldDescriptor.TYPE_FIXED64,
    FieldDescriptor.TYPE_SFIXED64,
)
_MAX_DEPTH = 4


def check_request(message: Message) -> None:
    """Raise INVALID_ARGUMENT (with the field's name) for the first field out of bounds."""
    problem = _problem(message, "", 0)
    if problem is not None:
        raise problem


def text_problem(field: str, value: str, limit: int | None = None) -> ServiceError | None:
    limit = limit or TEXT_LIMITS.get(field.rsplit(".", 1)[-1], DEFAULT_TEXT)
    if len(value) > limit:
        return errors.invalid("request.too_large", field=field, limit=limit)
    if value.isascii() and value.isprintable():  # the usual id or token: nothing to look up
        return None
    if any(unicodedata.category(c) in ("Cc", "Cs", "Co", "Cn") for c in value):
        return errors.invalid("request.bad_text", field=field)
    return None


def _problem(message: Message, prefix: str, depth: int) -> ServiceError | None:
    if depth > _MAX_DEPTH:
        return errors.invalid("request.too_deep", field=prefix or "message")
    for field, value in message.ListFields():
        name = f"{prefix}{field.name}"
        if _repeated(field):
            if len(value) > MAX_ITEMS:
                return errors.invalid("request.too_large", field=name, limit=MAX_ITEMS)
            items = value.values() if _is_map(field) else value
            if _is_map(field):
                for key in value:
                    if isinstance(key, str) and (found := text_problem(name, key)):
                        return found
            for item in items:
                if found := _value_problem(field, name, item, depth):
                    return found
        elif found := _value_problem(field, name, value, depth):
            return found
    return None


def _value_problem(
    field: FieldDescriptor, name: str, value: object, depth: int
) -> ServiceError | None:
    if isinstance(value, Message):
        return _problem(value, f"{name}.", depth + 1)
    if isinstance(value, str):
        return text_problem(name, value)
    if isinstance(value, bytes):
        limit = BYTES_LIMITS.get(name, MAX_BYTES)
        if len(value) > limit:
            return errors.invalid("request.too_large", field=name, limit=limit)
        return None
    wide = isinstance(value, int) and not isinstance(value, bool) and field.type in _WIDE
    if wide and not MIN_INT <= value <= MAX_INT:  # type: ignore[operator]
        return errors.invalid("request.out_of_range", field=name, limit=MAX_INT)
    return None


def _repeated(field: FieldDescriptor) -> bool:
    flag = getattr(field, "is_repeated", None)  # protobuf >= 5.29; `label` before
    if flag is None:
        return bool(field.label == FieldDescriptor.LABEL_REPEATED)  # type: ignore[attr-defined]
    return bool(flag)


def _is_map(field: FieldDescriptor) -> bool:
    entry = field.message_type
    return entry is not None and entry.GetOptions().map_entry
