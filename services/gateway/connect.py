"""The Connect protocol's wire pieces (https://connectrpc.com/docs/protocol), pure.

Content types: a unary call is ``application/json`` or ``application/proto``; a server
stream is ``application/connect+json`` or ``application/connect+proto``, whose request and
response bodies are *envelopes*: one flags byte, a 4-byte big-endian length, the message. A
stream ends with an envelope whose flags have bit ``0x02`` set and whose body is the JSON
*end-stream* message ``{"error": {...}, "metadata": {...}}`` (the gRPC trailers). A unary
error is the same error JSON as the body of an HTTP status chosen by its code.
"""

from __future__ import annotations

import base64
import json
import struct
from dataclasses import dataclass
from typing import Any

import grpc
from google.protobuf import json_format
from google.protobuf.message import DecodeError, Message
from google.rpc import error_details_pb2, status_pb2

END_STREAM = 0x02
COMPRESSED = 0x01
HEADER = struct.Struct(">BI")
STATUS_DETAILS = "grpc-status-details-bin"

# gRPC code -> (Connect's name, the HTTP status of a unary error), as the spec maps them
CODES: dict[grpc.StatusCode, tuple[str, int]] = {
    grpc.StatusCode.CANCELLED: ("canceled", 499),
    grpc.StatusCode.UNKNOWN: ("unknown", 500),
    grpc.StatusCode.INVALID_ARGUMENT: ("invalid_argument", 400),
    grpc.StatusCode.DEADLINE_EXCEEDED: ("deadline_exceeded", 504),
    grpc.StatusCode.NOT_FOUND: ("not_found", 404),
    grpc.StatusCode.ALREADY_EXISTS: ("already_exists", 409),
    grpc.StatusCode.PERMISSION_DENIED: ("permission_denied", 403),
    grpc.StatusCode.RESOURCE_EXHAUSTED: ("resource_exhausted", 429),
    grpc.StatusCode.FAILED_PRECONDITION: ("failed_precondition", 400),
    grpc.StatusCode.ABORTED: ("aborted", 409),
    grpc.StatusCode.OUT_OF_RANGE: ("out_of_range", 400),
    grpc.StatusCode.UNIMPLEMENTED: ("unimplemented", 501),
    grpc.StatusCode.INTERNAL: ("internal", 500),
    grpc.StatusCode.UNAVAILABLE: ("unavailable", 503),
    grpc.StatusCode.DATA_LOSS: ("data_loss", 500),
    grpc.StatusCode.UNAUTHENTICATED: ("unauthenticated", 401),
}
# details whose content is also shown readably (the spec's optional "debug")
_KNOWN_DETAILS: dict[str, type[Message]] = {
    "google.rpc.ErrorInfo": error_details_pb2.ErrorInfo,
    "google.rpc.RetryInfo": error_details_pb2.RetryInfo,
}


class ProtocolError(ValueError):
    """The request does not follow the protocol (answered INVALID_ARGUMENT or UNIMPLEMENTED)."""

    def __init__(self, code: grpc.StatusCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Codec:
    """How a call's messages are written: JSON or binary, enveloped (a stream) or not."""

    binary: bool
    stream: bool

    @property
    def content_type(self) -> str:
        kind = "proto" if self.binary else "json"
        return f"application/connect+{kind}" if self.stream else f"application/{kind}"

    def decode(self, data: bytes, message: Message) -> Message:
        try:
            if self.binary:
                message.ParseFromString(data)
            else:
                json_format.Parse(data.decode("utf-8") or "{}", message, ignore_unknown_fields=True)
        except (DecodeError, json_format.ParseError, UnicodeDecodeError, ValueError) as error:
            raise ProtocolError(
                grpc.StatusCode.INVALID_ARGUMENT, f"the request does not decode: {error}"
            ) from None
        return message

    def encode(self, message: Message) -> bytes:
        if self.binary:
            return bytes(message.SerializeToString())
        return json_format.MessageToJson(message, indent=None).encode()


def codec_of(content_type: str) -> Codec | None:
    """The codec a request's ``Content-Type`` asks for, or None (not Connect)."""
    kind = content_type.split(";", 1)[0].strip().lower()
    return {
        "application/json": Codec(binary=False, stream=False),
        "application/proto": Codec(binary=True, stream=False),
        "application/connect+json": Codec(binary=False, stream=True),
        "application/connect+proto": Codec(binary=True, stream=True),
    }.get(kind)


def envelope(data: bytes, flags: int = 0) -> bytes:
    return HEADER.pack(flags, len(data)) + data


def read_envelope(body: bytes, max_bytes: int) -> bytes:
    """The one message of a stream request's body (a client stream is not offered)."""
    if len(body) < HEADER.size:
        raise ProtocolError(grpc.StatusCode.INVALID_ARGUMENT, "the request has no envelope")
    flags, length = HEADER.unpack_from(body)
    if flags & COMPRESSED:
        raise ProtocolError(grpc.StatusCode.UNIMPLEMENTED, "compressed messages are not accepted")
    if length > max_bytes:
        raise ProtocolError(grpc.StatusCode.RESOURCE_EXHAUSTED, "the request is too large")
    if len(body) != HEADER.size + length:
        raise ProtocolError(
            grpc.StatusCode.INVALID_ARGUMENT, "a server stream takes exactly one request message"
        )
    return body[HEADER.size :]


def timeout_of(header: str | None) -> float | None:
    """``Connect-Timeout-Ms`` in seconds (None: no deadline); at most 10 digits."""
    if header is None:
        return None
    if not header.isdigit() or len(header) > 10:
        raise ProtocolError(grpc.StatusCode.INVALID_ARGUMENT, "Connect-Timeout-Ms is not valid")
    return int(header) / 1000


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode().rstrip("=")


def details_of(trailers: tuple[tuple[str, str | bytes], ...]) -> list[dict[str, Any]]:
    """The rich error details a gRPC status carries (``grpc-status-details-bin``) as
    Connect's ``details``: each ``type`` (the message's full name) and its binary ``value``,
    base64 without padding, with a readable ``debug`` copy for ErrorInfo and RetryInfo."""
    raw = next((value for key, value in trailers if key == STATUS_DETAILS), None)
    if not isinstance(raw, bytes):
        return []
    status = status_pb2.Status()
    try:
        status.ParseFromString(raw)
    except DecodeError:
        return []
    out = []
    for detail in status.details:
        name = detail.type_url.rsplit("/", 1)[-1]
        item: dict[str, Any] = {"type": name, "value": _b64(detail.value)}
        known = _KNOWN_DETAILS.get(name)
        if known is not None:
            message = known()
            if detail.Unpack(message):
                item["debug"] = json_format.MessageToDict(message)
        out.append(item)
    return out


def error_json(
    code: grpc.StatusCode, message: str, details: list[dict[str, Any]]
) -> dict[str, Any]:
    error: dict[str, Any] = {"code": CODES.get(code, ("unknown", 500))[0]}
    if message:
        error["message"] = message
    if details:
        error["details"] = details
    return error


def http_status(code: grpc.StatusCode) -> int:
    return CODES.get(code, ("unknown", 500))[1]


def metadata_json(pairs: tuple[tuple[str, str | bytes], ...]) -> dict[str, list[str]]:
    """gRPC metadata as Connect's end-stream ``metadata`` (binary values in base64)."""
    out: dict[str, list[str]] = {}
    for key, value in pairs:
        if key == STATUS_DETAILS:
            continue
        text = _b64(value) if isinstance(value, bytes) else value
        out.setdefault(key, []).append(text)
    return out


def end_stream(error: dict[str, Any] | None, metadata: dict[str, list[str]]) -> bytes:
    message: dict[str, Any] = {}
    if error is not None:
        message["error"] = error
    if metadata:
        message["metadata"] = metadata
    return envelope(json.dumps(message, separators=(",", ":")).encode(), END_STREAM)
