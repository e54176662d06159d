"""The lobby's application layer; every table is a stream ``table-<id>`` in the log.

The account that creates a table is its host: only the host (or an admin) fills it with
bots, invites, changes its options or starts it. A seat is bound to the account that sat
down and shows that account's display name; a bot account's seat is always a bot. Sitting
again at the same table (before the start) gives the seat a new token — the way back for
a client that lost the answer — and the old one stops working.
"""

from __future__ import annotations

import asyncio
import hashlib
import uuid
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import structlog
from google.protobuf.timestamp_pb2 import Timestamp

from services.lobby import metrics
from tavola.accounts.directory import AccountDirectory
from tavola.accounts.model import ADMIN, BOT, HOST, PLAY, Principal
from tavola.eventlog.errors import ConcurrencyConflict
from tavola.lobby.index import TableIndex, TableRow
from tavola.lobby.table import (
    INVITE_ONLY,
    OPEN,
    MatchFinished,
    MatchStarted,
    OptionsChanged,
    PlayerInvited,
    SeatTaken,
    SeatTokenIssued,
    TableCreated,
    TableState,
    evolve,
    fold,
)
from tavola.match.events import option_entries
from tavola.protocol import errors
from tavola.protocol import events as codec
from tavola.protocol.games import game_info
from tavola.rules import registry
from tavola.rules.errors import RulesError
from tavola.rules.interface import Event, Game
from tavola.rules.registry import UnknownGame
from tavola.v1 import internal_pb2, lobby_pb2

log = structlog.get_logger(__name__)
BOT_LEVELS = ("easy", "medium", "hard", "master")
MAX_CLIENT_SEED = 64
MAX_THINK_MS = 60_000  # a bot may think at most a minute per decision
DEFAULT_LIST = 50
TABLE_IDS = uuid.UUID("5d6b1c9e-7f53-4c1e-9a61-2f0b6f3a8e11")  # namespace of derived ids
_ACCESS = {
    lobby_pb2.TABLE_ACCESS_UNSPECIFIED: OPEN,
    lobby_pb2.TABLE_ACCESS_OPEN: OPEN,
    lobby_pb2.TABLE_ACCESS_INVITE_ONLY: INVITE_ONLY,
}
_ACCESS_PB = {OPEN: lobby_pb2.TABLE_ACCESS_OPEN, INVITE_ONLY: lobby_pb2.TABLE_ACCESS_INVITE_ONLY}
_STATUS_PB = {
    "open": lobby_pb2.TABLE_STATUS_OPEN,
    "playing": lobby_pb2.TABLE_STATUS_PLAYING,
    "finished": lobby_pb2.TABLE_STATUS_FINISHED,
}
_PRINTABLE = frozenset(chr(c) for c in range(0x21, 0x7F))


@dataclass
class LobbyPorts:
    tables: TableIndex  # appends to table streams, with their index rows
    store: Any  # EventStore: reads
    accounts: AccountDirectory
    create_seed: Callable[[str], Awaitable[str]]  # match id -> commitment
    create_match: Callable[[internal_pb2.CreateMatchRequest], Awaitable[Any]]
    new_id: Callable[[], UUID]
    new_token: Callable[[], str]
    now_ms: Callable[[], int]
    # (match id, deal group) -> commitment: the group's one seed (duplicate leagues)
    create_group_seed: Callable[[str, str], Awaitable[str]] | None = None
    reveal_seed: Callable[[internal_pb2.RevealSeedRequest], Awaitable[Any]] | None = None


def stream_of(table_id: str) -> str:
    return f"table-{table_id}"


class Lobby:
    def __init__(self, ports: LobbyPorts) -> None:
        self._ports = ports
        self._locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)

    async def list_games(
        self, request: lobby_pb2.ListGamesRequest, _: Principal
    ) -> lobby_pb2.ListGamesResponse:
        locale = request.locale or "en"
        return lobby_pb2.ListGamesResponse(
            games=[game_info(g, locale) for g in registry.all_games()]
        )

    # ----- creating and changing -------------------------------------------------------
    async def create_table(
        self, request: lobby_pb2.CreateTableRequest, principal: Principal, deal_group: str = ""
    ) -> lobby_pb2.CreateTableResponse:
        """``deal_group`` (the platform's league scheduler only; no public request carries
        it): every table of the group gets the same seed and ignores client seeds, so all
        deal the same cards; their seed is revealed when the lobby asks, not at the end."""
        _require(principal, HOST)
        game = _game(request.game)
        info = game.info
        if not info.min_players <= request.players <= info.max_players:
            if info.min_players == info.max_players:
                raise errors.invalid("table.exact_players", game=info.name, n=info.min_players)
            raise errors.invalid(
                "table.bad_players", game=info.name, min=info.min_players, max=info.max_players
            )
        options = _options(game, dict(request.options), request.players)
        access = _ACCESS.get(request.access)
        if access is None:
            raise errors.invalid("request.invalid", field="access", detail=str(request.access))
        if request.command_id:
            if not set(request.command_id) <= _PRINTABLE:
                raise errors.invalid("command.bad_id", field="command_id")
            table_id = str(uuid.uuid5(TABLE_IDS, f"{principal.account_id}/{request.command_id}"))
            existing = await self._load_if_any(table_id)
            if existing is not None:
                return lobby_pb2.CreateTableResponse(table=_table_pb(existing))
        else:
            table_id = str(self._ports.new_id())
        match_id = str(self._ports.new_id())
        commitment = await self._seed(match_id, deal_group)
        created = TableCreated(
            table_id=table_id,
            match_id=match_id,
            game=info.name,
            players=request.players,
            options=option_entries(options),
            house_rules=game.house_rules(options),
            seed_commitment=commitment,
            host_account_id=principal.account_id,
            host_name=principal.name,
            access=access,
            created_at_ms=self._ports.now_ms(),
            deal_group=deal_group,
        )
        try:
            state = await self._append(None, [created])
        except ConcurrencyConflict:  # the same command id, at the same moment
            state = await self.load(table_id)
        metrics.TABLES_CREATED.labels(game=info.name).inc()
        log.info("table.created", table_id=table_id, match_id=match_id, game=info.name)
        return lobby_pb2.CreateTableResponse(table=_table_pb(state))

    async def _seed(self, match_id: str, deal_group: str) -> str:
        if not deal_group:
            return await self._ports.create_seed(match_id)
        if self._ports.create_group_seed is None:
            raise RuntimeError("this lobby was built without the deal groups' seeds")
        return await self._ports.create_group_seed(match_id, deal_group)

    async def change_options(
        self, request: lobby_pb2.ChangeTableOptionsRequest, principal: Principal
    ) -> lobby_pb2.ChangeTableOptionsResponse:
        async with self._locks[request.table_id]:
            state = await self.load(request.table_id)
            _require_host(state, principal)
            _require_open(state)
            if any(s is not None and s.account_id != state.host for s in state.seats):
                raise errors.precondition("table.options_locked")
            game = _game(state.created.game)
            options = _options(game, dict(request.options), state.created.players)
            changed = OptionsChanged(option_entries(options), game.house_rules(options))
            state = await self._append(state, [changed])
        return lobby_pb2.ChangeTableOptionsResponse(table=_table_pb(state))

    async def invite(
        self, request: lobby_pb2.InviteToTableRequest, principal: Principal
    ) -> lobby_pb2.InviteToTableResponse:
        guest = await self._ports.accounts.by_name(request.account_name)
        if guest is None:
            raise errors.not_found("account.not_found", name=request.account_name)
        async with self._locks[request.table_id]:
            state = await self.load(request.table_id)
            _require_host(state, principal)
            _require_open(state)
            seat = request.seat
            if seat >= len(state.seats) or seat < -1:
                raise errors.invalid("game.no_such_seat", seat=seat)
            if seat >= 0:
                holder = state.reserved().get(seat)
                if state.seats[seat] is not None or (
                    holder is not None and holder.account_id != guest.account_id
                ):
                    raise errors.precondition("seat.taken", seat=seat)
            invited = PlayerInvited(guest.account_id, guest.name, seat)
            if state.invitation(guest.account_id) != invited:
                state = await self._append(state, [invited])
        log.info("table.invited", table_id=request.table_id, seat=seat)
        return lobby_pb2.InviteToTableResponse(table=_table_pb(state))

    # ----- seats -------------------------------------------------------------------------
    async def sit_down(
        self, request: lobby_pb2.SitDownRequest, principal: Principal
    ) -> lobby_pb2.SitDownResponse:
        _require(principal, PLAY, BOT)
        if len(request.client_seed) > MAX_CLIENT_SEED:
            raise errors.invalid("request.too_large", field="client_seed", limit=MAX_CLIENT_SEED)
        async with self._locks[request.table_id]:
            state = await self.load(request.table_id)
            _require_open(state)
            token = self._ports.new_token()
            digest = hashlib.sha256(token.encode()).hexdigest()
            already = state.seat_of(principal.account_id)
            events: list[Event]
            if already is not None:  # sitting again: a fresh token for the same seat
                seat = already
                events = [SeatTokenIssued(seat, digest)]
            else:
                seat = _choose_seat(state, request.seat, principal)
                events = [
                    SeatTaken(
                        seat,
                        principal.name,
                        principal.is_bot,
                        "",
                        "" if state.created.deal_group else request.client_seed.hex(),
                        0,
                        principal.account_id,
                    ),
                    SeatTokenIssued(seat, digest),
                ]
            state = await self._append(state, events)
        log.info("seat.taken", table_id=request.table_id, seat=seat)
        return lobby_pb2.SitDownResponse(seat=seat, seat_token=token, table=_table_pb(state))

    async def fill_with_bots(
        self, request: lobby_pb2.FillWithBotsRequest, principal: Principal
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
            _require_host(state, principal)
            _require_open(state)
            reserved = state.reserved()
            events: list[Event] = [
                SeatTaken(seat, f"Bot {seat + 1} ({level})", True, level, "", request.think_ms)
                for seat in state.free_seats()
                if seat not in reserved
            ]
            if events:
                state = await self._append(state, events)
        return lobby_pb2.FillWithBotsResponse(table=_table_pb(state))

    async def start_match(
        self, request: lobby_pb2.StartMatchRequest, principal: Principal
    ) -> lobby_pb2.StartMatchResponse:
        async with self._locks[request.table_id]:
            state = await self.load(request.table_id)
            _require_host(state, principal)
            if state.started:
                return lobby_pb2.StartMatchResponse(
                    match_id=state.created.match_id, table=_table_pb(state)
                )
            free = state.free_seats()
            if free:
                raise errors.precondition("table.not_full", free=len(free))
            await self._ports.create_match(_create_match_request(state))
            state = await self._append(state, [MatchStarted(state.created.match_id)])
        metrics.MATCHES_STARTED.labels(game=state.created.game).inc()
        log.info("match.started", table_id=request.table_id, match_id=state.created.match_id)
        return lobby_pb2.StartMatchResponse(match_id=state.created.match_id, table=_table_pb(state))

    async def reveal_seed(self, match_id: str) -> None:
        """Have the engine reveal a deal group's finished match's seed (the league
        scheduler, once the group's round has ended; idempotent)."""
        if self._ports.reveal_seed is None:
            raise RuntimeError("this lobby was built without the engine's RevealSeed")
        await self._ports.reveal_seed(internal_pb2.RevealSeedRequest(match_id=match_id))

    async def match_finished(self, match_id: str) -> bool:
        """The table's match ended (from the bus): mark the table finished, once."""
        table_id = await self._ports.tables.table_of_match(match_id)
        if table_id is None:
            return False
        async with self._locks[table_id]:
            state = await self.load(table_id)
            if state.finished:
                return False
            await self._append(state, [MatchFinished(match_id)])
        return True

    # ----- reading -----------------------------------------------------------------------
    async def load(self, table_id: str) -> TableState:
        if not table_id:
            raise errors.invalid("request.missing", field="table_id")
        state = await self._load_if_any(table_id)
        if state is None:
            raise errors.not_found("table.not_found", table_id=table_id)
        return state

    async def _load_if_any(self, table_id: str) -> TableState | None:
        stored = await self._ports.store.read_stream(stream_of(table_id))
        if not stored:
            return None
        return fold([codec.decode_payload("", s.type, s.payload) for s in stored])

    async def get_table(
        self, request: lobby_pb2.GetTableRequest, _: Principal
    ) -> lobby_pb2.GetTableResponse:
        return lobby_pb2.GetTableResponse(table=_table_pb(await self.load(request.table_id)))

    async def list_tables(
        self, request: lobby_pb2.ListTablesRequest, principal: Principal
    ) -> lobby_pb2.ListTablesResponse:
        if request.limit < 0:
            raise errors.invalid("request.invalid", field="limit", detail="not negative")
        if request.game:
            _game(request.game)
        names = {v: k for k, v in _STATUS_PB.items()}
        statuses = [names[request.status]] if request.status in names else ["open", "playing"]
        member = principal.account_id if request.mine else ""
        rows = await self._ports.tables.list(
            request.game, statuses, request.limit or DEFAULT_LIST, member
        )
        admin = principal.has(ADMIN)
        shown = [
            r
            for r in rows
            if r.access == OPEN or r.status != "open" or admin or principal.account_id in r.members
        ]
        return lobby_pb2.ListTablesResponse(tables=[_summary_pb(r) for r in shown])

    # ----- writing -----------------------------------------------------------------------
    async def _append(self, state: TableState | None, events: list[Event]) -> TableState:
        after = state
        for event in events:
            after = evolve(after, event)
        assert after is not None
        try:
            await self._ports.tables.append(
                stream_of(after.created.table_id),
                state.version if state else 0,
                codec.system_events(events, self._ports.new_id),
                after,
            )
        except ConcurrencyConflict:
            if state is None:
                raise
            raise errors.aborted("command.conflict") from None
        return after


def _require(principal: Principal, *scopes: str) -> None:
    if not principal.has(*scopes):
        raise errors.denied("auth.scope_missing", scope="|".join(scopes))


def _require_host(state: TableState, principal: Principal) -> None:
    if principal.account_id != state.host and not principal.has(ADMIN):
        raise errors.denied("table.not_host", table_id=state.created.table_id)


def _require_open(state: TableState) -> None:
    if state.started:
        raise errors.precondition("table.not_open")


def _game(name: str) -> Game[Any, Any]:
    try:
        return registry.get(name)
    except UnknownGame as error:
        raise errors.invalid(error.reason.code, **dict(error.reason.params)) from None


def _options(game: Game[Any, Any], given: dict[str, str], players: int) -> Any:
    try:
        options = game.parse_options(given, players)
        game.initial_state(players, options)  # options that fit this many players
    except RulesError as error:
        raise errors.invalid(error.reason.code, **dict(error.reason.params)) from None
    return options


def _choose_seat(state: TableState, wanted: int, principal: Principal) -> int:
    invitation = state.invitation(principal.account_id)
    if (
        state.created.access == INVITE_ONLY
        and invitation is None
        and principal.account_id != state.host
    ):
        raise errors.denied("table.invite_only", table_id=state.created.table_id)
    reserved = state.reserved()
    mine = [s for s, i in reserved.items() if i.account_id == principal.account_id]
    free = [s for s in state.free_seats() if s not in reserved or s in mine]
    if wanted < 0:
        if mine:
            return mine[0]
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
                account_id=seat.account_id,
            )
        )
    return internal_pb2.CreateMatchRequest(
        match_id=created.match_id,
        table_id=created.table_id,
        game=created.game,
        options={o.name: o.value for o in state.options},
        seats=seats,
        deal_group=created.deal_group,
    )


def _table_pb(state: TableState) -> lobby_pb2.Table:
    created = state.created
    reserved = state.reserved()
    seats = [
        lobby_pb2.Seat(
            seat=i,
            taken=s is not None,
            player_name=s.player_name if s else "",
            is_bot=bool(s and s.is_bot),
            bot_level=s.bot_level if s else "",
            bot_think_ms=s.bot_think_ms if s else 0,
            account_id=s.account_id if s else "",
            reserved_for=reserved[i].name if i in reserved else "",
        )
        for i, s in enumerate(state.seats)
    ]
    return lobby_pb2.Table(
        table_id=created.table_id,
        game=created.game,
        options={o.name: o.value for o in state.options},
        house_rules=list(state.house_rules),
        seats=seats,
        status=_STATUS_PB[state.status],
        match_id=created.match_id,
        seed_commitment=created.seed_commitment,
        version=state.version,
        host=created.host_name,
        host_account_id=created.host_account_id,
        access=_ACCESS_PB.get(created.access, lobby_pb2.TABLE_ACCESS_OPEN),
        invited=[i.name for i in state.invited],
    )


def _summary_pb(row: TableRow) -> lobby_pb2.TableSummary:
    created = Timestamp()
    created.FromMilliseconds(row.created_at_ms)
    return lobby_pb2.TableSummary(
        table_id=row.table_id,
        game=row.game,
        status=_STATUS_PB[row.status],
        players=row.players,
        free_seats=row.free_seats,
        host=row.host_name,
        match_id=row.match_id,
        house_rules=list(row.house_rules),
        access=_ACCESS_PB.get(row.access, lobby_pb2.TABLE_ACCESS_OPEN),
        created_at=created,
    )
