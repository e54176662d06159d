"""A small gRPC client of the public API, for the CLI (any client could do the same)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import grpc

from tavola.v1 import game_pb2_grpc, lobby_pb2_grpc, scoring_pb2_grpc

STATE_DIR = Path(".tavola")
RUN_FILE = STATE_DIR / "run.json"
DEFAULT_ADDRESS = "127.0.0.1:50051"


def write_run_info(address: str, database_url: str, nats_url: str) -> None:
    STATE_DIR.mkdir(exist_ok=True)
    RUN_FILE.write_text(
        json.dumps({"address": address, "database_url": database_url, "nats_url": nats_url})
    )


def run_info() -> dict[str, str]:
    try:
        data: dict[str, str] = json.loads(RUN_FILE.read_text())
        return data
    except (OSError, ValueError):
        return {}


def default_address() -> str:
    return os.environ.get("TAVOLA_ADDRESS") or run_info().get("address") or DEFAULT_ADDRESS


def default_database_url() -> str | None:
    return os.environ.get("TAVOLA_DATABASE_URL") or run_info().get("database_url")


@dataclass
class Client:
    channel: grpc.Channel
    lobby: lobby_pb2_grpc.LobbyServiceStub
    game: game_pb2_grpc.GameServiceStub
    scoring: scoring_pb2_grpc.ScoringServiceStub

    @staticmethod
    def connect(address: str) -> Client:
        channel = grpc.insecure_channel(address)
        return Client(
            channel,
            lobby_pb2_grpc.LobbyServiceStub(channel),
            game_pb2_grpc.GameServiceStub(channel),
            scoring_pb2_grpc.ScoringServiceStub(channel),
        )

    def close(self) -> None:
        self.channel.close()
