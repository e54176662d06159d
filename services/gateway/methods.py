"""The public methods the gateway relays: every method of the four public services, read
from their descriptors (nothing to keep in step by hand)."""

from __future__ import annotations

from dataclasses import dataclass

from google.protobuf import message_factory
from google.protobuf.message import Message

from tavola.v1 import account_pb2, game_pb2, lobby_pb2, scoring_pb2

PUBLIC_SERVICES = (
    (game_pb2, "GameService"),
    (lobby_pb2, "LobbyService"),
    (account_pb2, "AccountService"),
    (scoring_pb2, "ScoringService"),
)


@dataclass(frozen=True, slots=True)
class Method:
    path: str  # "/tavola.v1.GameService/GetView", the same for gRPC and Connect
    request: type[Message]
    response: type[Message]
    server_streaming: bool

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1]


def public_methods() -> dict[str, Method]:
    table = {}
    for module, service_name in PUBLIC_SERVICES:
        service = module.DESCRIPTOR.services_by_name[service_name]
        for method in service.methods:
            if method.client_streaming:
                continue  # none today; Connect over HTTP/1.1 could not carry one anyway
            path = f"/{service.full_name}/{method.name}"
            table[path] = Method(
                path,
                message_factory.GetMessageClass(method.input_type),
                message_factory.GetMessageClass(method.output_type),
                method.server_streaming,
            )
    return table
