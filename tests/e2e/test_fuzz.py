"""A fuzz of the public API: thousands of requests across every RPC of every service, with
random and malformed fields (NUL bytes, huge numbers, oversized and foreign text, bytes
that are not a message), other accounts' tokens, garbage tokens and none. No answer may be
UNKNOWN or INTERNAL, and a refused call must leave the log exactly as it was.

``TAVOLA_FUZZ_REQUESTS`` sets how many (CI's short form: 5,000)."""

from __future__ import annotations

import asyncio
import os
import random
import uuid
from collections import Counter
from collections.abc import Iterator
from typing import Any

import asyncpg
import grpc
import pytest
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from support.accounts import new_account
from support.platform import bot_table, eventually, match_state, running_platform
from tavola.accounts.model import Kind
from tavola.cli.client import Client
from tavola.cli.platform import Platform
from tavola.infra.local import LocalInfra
from tavola.v1 import account_pb2, game_pb2, lobby_pb2, scoring_pb2

pytestmark = pytest.mark.e2e
REQUESTS = int(os.environ.get("TAVOLA_FUZZ_REQUESTS", "5000"))
UNLIMITED = ",".join(
    f"{name}=off"
    for name in (
        "act",
        "read",
        "help",
        "lobby",
        "create_table",
        "account",
        "stream_open",
        "address",
        "unauthenticated",
    )
)
SERVICES = [
    game_pb2.DESCRIPTOR.services_by_name["GameService"],
    lobby_pb2.DESCRIPTOR.services_by_name["LobbyService"],
    account_pb2.DESCRIPTOR.services_by_name["AccountService"],
    scoring_pb2.DESCRIPTOR.services_by_name["ScoringService"],
]
MESSAGES = {
    **{n: getattr(game_pb2, n) for n in game_pb2.DESCRIPTOR.message_types_by_name},
    **{n: getattr(lobby_pb2, n) for n in lobby_pb2.DESCRIPTOR.message_types_by_name},
    **{n: getattr(account_pb2, n) for n in account_pb2.DESCRIPTOR.message_types_by_name},
    **{n: getattr(scoring_pb2, n) for n in scoring_pb2.DESCRIPTOR.message_types_by_name},
}


@pytest.fixture(scope="module")
def open_platform(
    infra: LocalInfra, database_url: str, nats_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Platform]:
    with running_platform(
        database_url,
        nats_url,
        tmp_path_factory.mktemp("fuzz"),
        infra.nats_service_urls(),
        extra_env={"TAVOLA_LIMITS": UNLIMITED},
    ) as running:
        yield running


class World:
    """Real ids, tokens and seats for the fuzzer to mix with garbage."""

    def __init__(self, platform: Platform) -> None:
        admin = Client.connect(platform.address, platform.token, patient=False)
        host, self.host_name = new_account(admin, "fuzzhost", Kind.HOST)
        players = [new_account(admin, "fuzzer") for _ in range(2)]
        bot, _ = new_account(admin, "fuzzbot", Kind.BOT)
        referee, _ = new_account(admin, "fuzzref", Kind.REFEREE)
        self.clients = {"admin": admin, "host": host, "bot": bot, "referee": referee}
        self.clients.update({f"p{i}": c for i, (c, _) in enumerate(players)})
        self.names = [self.host_name, *(n for _, n in players)]
        # a match of people only (nothing moves but what the fuzzer's accepted calls do)
        table = host.lobby.CreateTable(
            lobby_pb2.CreateTableRequest(game="fan-tan", players=3, options={"timers": "false"})
        ).table
        self.seat_tokens = []
        for who in (host, players[0][0], players[1][0]):
            sat = who.lobby.SitDown(lobby_pb2.SitDownRequest(table_id=table.table_id, seat=-1))
            self.seat_tokens.append(sat.seat_token)
        self.match = host.lobby.StartMatch(
            lobby_pb2.StartMatchRequest(table_id=table.table_id)
        ).match_id
        self.finished, _ = bot_table(admin, "fan-tan", 3, {"hands": "1"})
        eventually(lambda: match_state(admin, self.finished).finished, timeout=120)
        finished_table = admin.game.GetMatch(game_pb2.GetMatchRequest(match_id=self.finished))
        eventually(  # the lobby has marked its table finished: nothing more will change
            lambda: (
                admin.lobby.GetTable(
                    lobby_pb2.GetTableRequest(table_id=finished_table.table_id)
                ).table.status
                == lobby_pb2.TABLE_STATUS_FINISHED
            )
        )
        self.tables = [table.table_id, finished_table.table_id]
        self.moving: set[str] = set()  # streams that move on their own (a bot took a seat)

    def text(self, rng: random.Random, field: str) -> str:
        choice = rng.random()
        real = {
            "match_id": [self.match, self.finished],
            "table_id": self.tables,
            "seat_token": self.seat_tokens,
            "account_name": self.names,
            "name": self.names,
            "player_name": self.names,
            "game": ["fan-tan", "spades", "barbu", "dominoes", "doppelkopf"],
            "action": ["7D", "pass", "bid 3", "6-4 L", "re", "QC"],
            "level": ["easy", "master"],
            "locale": ["en", "pt"],
        }.get(field)
        if real and choice < 0.45:
            return rng.choice(real)
        if choice < 0.55:
            return str(uuid.UUID(int=rng.getrandbits(128)))
        if choice < 0.65:
            return "a\x00b" * rng.randint(1, 3)
        if choice < 0.72:
            return "x" * rng.choice([65, 129, 257, 5000, 60_000])
        if choice < 0.8:
            return rng.choice(["", " ", "\u202e", "é" * 40, "🂡" * 20, "\x07", "\ud7ff"])
        if choice < 0.9:
            return rng.choice(["c/1/x", "p/timeout/0/1", "create:x", "bot:x:1:2", "../../"])
        return "".join(chr(rng.randint(32, 0x2FFF)) for _ in range(rng.randint(1, 20)))

    def number(self, rng: random.Random, field: FieldDescriptor) -> int:
        unsigned = field.type in (FieldDescriptor.TYPE_UINT32, FieldDescriptor.TYPE_UINT64)
        wide = field.type in (FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_UINT64)
        top = (
            (2**64 - 1 if unsigned else 2**63 - 1)
            if wide
            else (2**32 - 1 if unsigned else 2**31 - 1)
        )
        low = 0 if unsigned else -(top + 1)
        value = rng.choice([0, 1, 2, 3, -1, 7, 60_001, top, low, rng.randint(low, top)])
        return min(max(value, low), top)

    def fill(self, rng: random.Random, message: Message, depth: int = 0) -> Message:
        for field in message.DESCRIPTOR.fields:
            if rng.random() < 0.25:
                continue
            if field.message_type is not None:
                if field.message_type.GetOptions().map_entry:
                    target = getattr(message, field.name)
                    for _ in range(rng.choice([0, 1, 2, 70])):
                        target[self.text(rng, "key")] = self.text(rng, "value")
                elif depth < 2 and not repeated(field):
                    self.fill(rng, getattr(message, field.name), depth + 1)
                continue
            value = self.value(rng, field)
            if repeated(field):
                getattr(message, field.name).extend([value] * rng.choice([1, 2, 80]))
            else:
                setattr(message, field.name, value)
        return message

    def value(self, rng: random.Random, field: FieldDescriptor) -> Any:
        if field.type == FieldDescriptor.TYPE_STRING:
            return self.text(rng, field.name)
        if field.type == FieldDescriptor.TYPE_BYTES:
            return rng.randbytes(rng.choice([0, 8, 64, 65, 2000]))
        if field.type == FieldDescriptor.TYPE_BOOL:
            return rng.random() < 0.5
        if field.type == FieldDescriptor.TYPE_ENUM:
            return rng.choice([v.number for v in field.enum_type.values] + [99])
        if field.type in (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT):
            return rng.random()
        return self.number(rng, field)

    def token(self, rng: random.Random) -> str | None:
        choice = rng.random()
        if choice < 0.75:
            return None  # one of the accounts (chosen by the caller)
        return rng.choice(
            ["", "Bearer", "Bearer x", "tvl1_" + "0" * 90, "Basic abc", "Bearer tvl1_x_y_z"]
        )


def repeated(field: FieldDescriptor) -> bool:
    flag = getattr(field, "is_repeated", None)
    return bool(flag) if flag is not None else field.label == FieldDescriptor.LABEL_REPEATED  # type: ignore[attr-defined]


class LogCounter:
    """Counts the log's events over one connection (but for the streams that move alone)."""

    def __init__(self, database_url: str) -> None:
        self._loop = asyncio.new_event_loop()
        self._conn = self._loop.run_until_complete(asyncpg.connect(database_url))

    def __call__(self, moving: set[str]) -> int:
        query = "SELECT count(*) FROM events WHERE NOT stream_id = ANY($1::text[])"
        return int(self._loop.run_until_complete(self._conn.fetchval(query, sorted(moving))))

    def close(self) -> None:
        self._loop.run_until_complete(self._conn.close())
        self._loop.close()


def test_thousands_of_random_and_malformed_requests_get_only_documented_answers(open_platform):
    world = World(open_platform)
    rng = random.Random(int(os.environ.get("TAVOLA_FUZZ_SEED", "20261201")))
    channel = grpc.insecure_channel(open_platform.address)
    methods = [(service, method) for service in SERVICES for method in service.methods]
    codes: Counter[str] = Counter()
    per_method: Counter[str] = Counter()
    tokens = {name: client_token(client) for name, client in world.clients.items()}
    log_size = LogCounter(open_platform.database_url)
    for number in range(REQUESTS):
        service, method = rng.choice(methods)
        path = f"/{service.full_name}/{method.name}"
        request = world.fill(rng, MESSAGES[method.input_type.name]())
        body = request.SerializeToString()
        if rng.random() < 0.05:
            body = rng.randbytes(rng.randint(1, 200))  # not a message at all
        header = world.token(rng)
        if header is None:
            header = f"Bearer {tokens[rng.choice(sorted(tokens))]}"
        metadata = (("authorization", header),) if header else ()
        before = log_size(world.moving)
        code, details = call(channel, path, method.server_streaming, body, metadata)
        codes[code.name] += 1
        per_method[method.name] += 1
        assert code not in (grpc.StatusCode.UNKNOWN, grpc.StatusCode.INTERNAL), (
            number,
            path,
            details,
            body[:80],
            header,
        )
        if code != grpc.StatusCode.OK:
            assert log_size(world.moving) == before, (number, path, code, request)
        elif method.name == "LeaveMatch":  # a bot now plays that seat: the match moves alone
            world.moving.add(f"match-{request.match_id}")
            world.moving.update(f"table-{t}" for t in world.tables)
    log_size.close()
    print(f"fuzz: {REQUESTS} requests over {len(per_method)} methods: {dict(codes)}")
    assert len(per_method) == len(methods)  # every RPC was tried
    assert codes["OK"] > 0 and codes["INVALID_ARGUMENT"] > 0 and codes["UNAUTHENTICATED"] > 0


def client_token(client: Client) -> str:
    whoami = client.accounts.WhoAmI  # the token lives in the client's interceptor
    interceptor = client.channel._interceptor  # type: ignore[attr-defined]
    del whoami
    return str(interceptor._metadata[1].removeprefix("Bearer "))


def call(
    channel: grpc.Channel, path: str, streaming: bool, body: bytes, metadata: tuple
) -> tuple[grpc.StatusCode, str]:
    try:
        if streaming:
            stream = channel.unary_stream(path, request_serializer=None, response_deserializer=None)
            responses = stream(body, metadata=metadata, timeout=0.5)
            for _ in range(2):
                next(responses)
            responses.cancel()
            return grpc.StatusCode.OK, ""
        unary = channel.unary_unary(path, request_serializer=None, response_deserializer=None)
        unary(body, metadata=metadata, timeout=10)
        return grpc.StatusCode.OK, ""
    except StopIteration:
        return grpc.StatusCode.OK, ""
    except grpc.RpcError as error:
        code = error.code()
        if streaming and code in (grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.CANCELLED):
            return grpc.StatusCode.OK, ""  # a live stream that was still open: fine
        return code, str(error.details())
