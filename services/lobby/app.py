"""The lobby's application layer; every table is a stream ``table-<id>`` in the log."""

from __future__ import annotations

import asyncio
import hashlib
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import structlog

from services.lobby import metrics
from tavola.eventlog.errors import ConcurrencyConflict, DuplicateCommand
from tavola.eventlog.model import EventStore, NewEvent
from tavola.lobby.table import (
    MatchStarted,
    SeatTaken,
    SeatTokenIssued,
    TableCreated,
    TableState,
    evolve,
    fold,
)
from tavola.match.events import option_entries, option_text
from tavola.protocol import errors
from tavola.protocol import events as codec
from tavola.rules import registry
from tavola.rules.errors import Reason, RulesError
from tavola.rules.interface import Event
from tavola.rules.messages import render
from tavola.rules.registry import UnknownGame
from tavola.v1 import internal_pb2, lobby_pb2

log = structlog.get_logger(__name__)
BOT_LEVELS = ("easy", "medium", "hard", "master")
MAX_NAME = 64
MAX_CLIENT_SEED = 64
MAX_THINK_MS = 60_000  # a bot may think at most a minute per decision


@dataclass
class LobbyPorts:
    store: EventStore
    create_seed: Callable[[str], Awaitable[str]]  # match id -> commitment
    create_match: Callable[[internal_pb2.CreateMatchRequest], Awaitable[Any]]
    new_id: Callable[[], UUID]
    new_token: Callable[[], str]


def stream_of(table_id: str) -> str:
    return f"table-{table_id}"


class Lobby:
    def __init__(self, ports: LobbyPorts) -> None:
        self._ports = ports
        self._locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)

    async def list_games(self, request: lobby_pb2.ListGamesRequest) -> lobby_pb2.ListGamesResponse:
        locale = request.locale or "en"
        return lobby_pb2.ListGamesResponse(
            games=[_game_info(g, locale) for g in registry.all_games()]
        )

    async def create_table(
        self, request: lobby_pb2.CreateTableRequest
    ) -> lobby_pb2.CreateTableResponse:
        try:
            game = registry.get(request.game)
        except UnknownGame as error:
            raise errors.invalid(error.reason.code, **dict(error.reason.params)) from None
        info = game.info
        if not info.min_players <= request.players <= info.max_players:
            raise errors.invalid(
                "table.bad_players", game=info.name, min=info.min_players, max=info.max_players
            )
        try:
            options = game.parse_options(dict(request.options), request.players)
            game.initial_state(request.players, options)  # options that fit this many players
        except RulesError as error:
            raise errors.invalid(error.reason.code, **dict(error.reason.params)) from None
        table_id, match_id = str(self._ports.new_id()), str(self._ports.new_id())
        commitment = await self._ports.create_seed(match_id)
        created = TableCreated(
            table_id=table_id,
            match_id=match_id,
            game=info.name,
            players=request.players,
            options=option_entries(options),
            house_rules=game.house_rules(options),
            seed_commitment=commitment,
        )
        command = f"create-table:{request.command_id}" if request.command_id else None
        try:
            await self._append(table_id, 0, [created], command_id=command, result=table_id.encode())
        except DuplicateCommand as duplicate:
            table_id = duplicate.record.result.decode()
        metrics.TABLES_CREATED.labels(game=info.name).inc()
        log.info("table.created", table_id=table_id, match_id=match_id, game=info.name)
        return lobby_pb2.CreateTableResponse(table=_table_pb(await self.load(table_id)))

    async def load(self, table_id: str) -> TableState:
        if not table_id or len(table_id) > 64:
            raise errors.invalid("request.missing", field="table_id")
        stored = await self._ports.store.read_stream(stream_of(table_id))
        if not stored:
            raise errors.not_found("table.not_found", table_id=table_id)
        return fold([codec.decode_payload("", s.type, s.payload) for s in stored])

    async def get_table(self, request: lobby_pb2.GetTableRequest) -> lobby_pb2.GetTableResponse:
        return lobby_pb2.GetTableResponse(table=_table_pb(await self.load(request.table_id)))

    async def sit_down(self, request: lobby_pb2.SitDownRequest) -> lobby_pb2.SitDownResponse:
        name = request.player_name.strip()
        if not name:
            raise errors.invalid("request.missing", field="player_name")
        if len(name) > MAX_NAME:
            raise errors.invalid("request.too_large", field="player_name", limit=MAX_NAME)
        if len(request.client_seed) > MAX_CLIENT_SEED:
            raise errors.invalid("request.too_large", field="client_seed", limit=MAX_CLIENT_SEED)
        async with self._locks[request.table_id]:
            state = await self.load(request.table_id)
            seat = _choose_seat(state, request.seat)
            token = self._ports.new_token()
            events: list[Event] = [
                SeatTaken(seat, name, request.is_bot, "", request.client_seed.hex()),
                SeatTokenIssued(seat, hashlib.sha256(token.encode()).hexdigest()),
            ]
            await self._append(request.table_id, state.version, events)
            state = fold_more(state, events)
        log.info("seat.taken", table_id=request.table_id, seat=seat)
        return lobby_pb2.SitDownResponse(seat=seat, seat_token=token, table=_table_pb(state))

    async def fill_with_bots(
        self, request: lobby_pb2.FillWithBotsRequest
    ) -> lobby_pb2.FillWithBotsResponse:
        level = request.level or "easy"
        if level not in BOT_LEVELS:
            raise errors.invalid("request.invalid", field="level", detail=level)
        if request.think_ms > MAX_THINK_MS:
            raise errors.invalid(
                "request.invalid", field="think_ms", detail=f"at most {MAX_THINK_MS}"
            )
        async with self._locks[request.table_id]:
            state = await self.load(request.table_id)
            if state.started:
                raise errors.precondition("table.not_open")
            events: list[Event] = [
                SeatTaken(seat, f"Bot {seat + 1} ({level})", True, level, "", request.think_ms)
                for seat in state.free_seats()
            ]
            if events:
                await self._append(request.table_id, state.version, events)
                state = fold_more(state, events)
        return lobby_pb2.FillWithBotsResponse(table=_table_pb(state))

    async def start_match(
        self, request: lobby_pb2.StartMatchRequest
    ) -> lobby_pb2.StartMatchResponse:
        async with self._locks[request.table_id]:
            state = await self.load(request.table_id)
            if state.started:
                return lobby_pb2.StartMatchResponse(
                    match_id=state.created.match_id, table=_table_pb(state)
                )
            free = state.free_seats()
            if free:
                raise errors.precondition("table.not_full", free=len(free))
            await self._ports.create_match(_create_match_request(state))
            started: list[Event] = [MatchStarted(state.created.match_id)]
            await self._append(request.table_id, state.version, started)
            state = fold_more(state, started)
        metrics.MATCHES_STARTED.labels(game=state.created.game).inc()
        log.info("match.started", table_id=request.table_id, match_id=state.created.match_id)
        return lobby_pb2.StartMatchResponse(match_id=state.created.match_id, table=_table_pb(state))

    async def _append(
        self,
        table_id: str,
        expected: int,
        events: list[Event],
        command_id: str | None = None,
        result: bytes = b"",
    ) -> None:
        new = [
            NewEvent(
                event_id=self._ports.new_id(),
                type=codec.type_name("", e),
                payload=codec.encode_payload("", e),
                schema_version=codec.SCHEMA_VERSION,
                audience=None if e.audience() is None else tuple(sorted(e.audience() or ())),
                metadata=codec.Metadata(kind=codec.CAUSE_KINDS["system"]).encode(),
            )
            for e in events
        ]
        try:
            await self._ports.store.append(
                stream_of(table_id), expected, new, command_id=command_id, command_result=result
            )
        except ConcurrencyConflict:
            raise errors.aborted("command.conflict") from None


def fold_more(state: TableState, events: list[Event]) -> TableState:
    for event in events:
        state = evolve(state, event)
    return state


def _choose_seat(state: TableState, wanted: int) -> int:
    if state.started:
        raise errors.precondition("table.not_open")
    free = state.free_seats()
    if wanted < 0:
        if not free:
            raise errors.precondition("seat.none_free")
        return free[0]
    if wanted >= len(state.seats):
        raise errors.invalid("game.no_such_seat", seat=wanted)
    if wanted not in free:
        raise errors.precondition("seat.taken", seat=wanted)
    return wanted


def _create_match_request(state: TableState) -> internal_pb2.CreateMatchRequest:
    created = state.created
    seats = []
    for index, seat in enumerate(state.seats):
        assert seat is not None
        seats.append(
            internal_pb2.MatchSeat(
                seat=index,
                player_name=seat.player_name,
                is_bot=seat.is_bot,
                bot_level=seat.bot_level,
                bot_think_ms=seat.bot_think_ms,
                token_sha256=state.tokens[index],
                client_seed=bytes.fromhex(seat.client_seed_hex),
            )
        )
    return internal_pb2.CreateMatchRequest(
        match_id=created.match_id,
        table_id=created.table_id,
        game=created.game,
        options={o.name: o.value for o in created.options},
        seats=seats,
    )


def _table_pb(state: TableState) -> lobby_pb2.Table:
    created = state.created
    seats = [
        lobby_pb2.Seat(
            seat=i,
            taken=s is not None,
            player_name=s.player_name if s else "",
            is_bot=bool(s and s.is_bot),
            bot_level=s.bot_level if s else "",
            bot_think_ms=s.bot_think_ms if s else 0,
        )
        for i, s in enumerate(state.seats)
    ]
    status = lobby_pb2.TABLE_STATUS_PLAYING if state.started else lobby_pb2.TABLE_STATUS_OPEN
    return lobby_pb2.Table(
        table_id=created.table_id,
        game=created.game,
        options={o.name: o.value for o in created.options},
        house_rules=list(created.house_rules),
        seats=seats,
        status=status,
        match_id=created.match_id,
        seed_commitment=created.seed_commitment,
        version=state.version,
    )


def _game_info(game: Any, locale: str) -> lobby_pb2.GameInfo:
    info = game.info
    kinds = {
        "int": lobby_pb2.OPTION_KIND_INT,
        "bool": lobby_pb2.OPTION_KIND_BOOL,
        "choice": lobby_pb2.OPTION_KIND_CHOICE,
    }
    options = [
        lobby_pb2.OptionSpec(
            name=o.name,
            kind=kinds[o.kind],
            default_value=option_text(o.default),
            choices=list(o.choices),
            minimum=o.minimum or 0,
            maximum=o.maximum or 0,
            house_rule=o.house_rule,
            description=codec.reason_to_pb(
                Reason(o.description), render(Reason(o.description), locale)
            ),
        )
        for o in info.options
    ]
    presets = [
        lobby_pb2.Preset(name=n, options={k: option_text(v) for k, v in p.items()})
        for n, p in info.presets.items()
    ]
    return lobby_pb2.GameInfo(
        name=info.name,
        title=info.title,
        min_players=info.min_players,
        max_players=info.max_players,
        rules_version=info.rules_version,
        options=options,
        presets=presets,
        lower_score_wins=info.lower_score_wins,
    )
