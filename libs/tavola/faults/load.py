"""The load: tables of every game played through the real services while faults happen.

Three kinds of tables take turns, game after game of the registry: ``bots`` (every seat the
platform's easy bot), ``mixed`` (one or two seats the harness's players, the rest bots) and
``people`` (every seat a harness player: a rated match). Options keep matches short
(``short_options``); turn timers are the game's own. The admin account (the platform's,
made by the suite) hosts every table; each harness seat is an account of its own, created
through ``AccountService`` by the admin. Setting a table up is retried like everything a
client does. The load runs in a process of its own (``tavola.faults.worker``).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import grpc

from tavola.faults.ledger import Command, Ledger
from tavola.faults.players import CALL_TIMEOUT, Answers, Api, SeatPlayer, patiently
from tavola.rules import registry
from tavola.v1 import account_pb2, game_pb2, lobby_pb2

KINDS = ("bots", "mixed", "people")
ACCOUNT_PREFIX = "player-"


def short_options(game: str) -> dict[str, str]:
    """Options that keep a match of ``game`` short, read from its option specs: one hand,
    one block, one game, the lowest target."""
    options: dict[str, str] = {}
    for spec in registry.get(game).info.options:
        if spec.name == "hands" and spec.kind == "int":
            options["hands"] = str(max(1, spec.minimum or 0))
        elif spec.name in ("target", "blocks") and spec.kind == "int" and spec.minimum:
            options[spec.name] = str(spec.minimum)
        elif spec.name == "match" and "one_game" in spec.choices:
            options["match"] = "one_game"
    return options


def players_for(game: str) -> int:
    info = registry.get(game).info
    return min(max(4, info.min_players), info.max_players)


@dataclass
class Account:
    name: str
    token: str
    api: Api


@dataclass(frozen=True)
class SeatRecord:
    """What the checks need of one harness seat once the load is over (plain data: it
    crosses from the load's process to the suite's)."""

    match_id: str
    seat: int
    seat_token: str
    account_token: str
    received: tuple[bytes, ...]  # every event its stream delivered, serialized
    stream_faults: tuple[str, ...]
    reconnects: int
    streamed_to_end: bool
    finished: bool


@dataclass(frozen=True)
class TableRecord:
    number: int
    game: str
    players: int
    kind: str
    table_id: str
    match_id: str
    status: str
    error: str
    seats: tuple[SeatRecord, ...]


@dataclass(frozen=True)
class LoadResult:
    tables: tuple[TableRecord, ...]
    commands: tuple[Command, ...]
    retried_on: Counter[str]
    statuses: Counter[str]
    surprises: tuple[str, ...]
    failure: str = ""  # the load itself broke (a harness bug)


@dataclass
class TableRun:
    number: int
    game: str
    players: int
    options: dict[str, str]
    kind: str
    people: dict[int, str] = field(default_factory=dict)  # seat -> account name
    table_id: str = ""
    match_id: str = ""
    status: str = "setting up"  # playing | finished | refused | abandoned
    error: str = ""
    seats: list[SeatPlayer] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class LoadSettings:
    concurrent_tables: int
    accounts: int
    think_ms: int


class Load:
    def __init__(
        self, address: str, admin_token: str, settings: LoadSettings, seed: int, ledger: Ledger
    ) -> None:
        self._address = address
        self._admin_token = admin_token
        self._settings = settings
        self._rng = random.Random(seed)
        self._seed = seed
        self.ledger = ledger
        self.answers = Answers()
        self.tables: list[TableRun] = []
        self.accounts: list[Account] = []
        self.creating = True  # new tables are started while set
        self._games = registry.names()

    def counts(self) -> Counter[str]:
        """Tables by status: setting up, playing, finished, refused, abandoned."""
        return Counter(t.status for t in self.tables)

    def result(self, failure: str = "") -> LoadResult:
        """Everything the checks need, as plain data."""
        return LoadResult(
            tables=tuple(_record(t) for t in self.tables),
            commands=tuple(self.ledger.snapshot()),
            retried_on=Counter(self.ledger.retried_on),
            statuses=Counter(self.answers.codes),
            surprises=tuple(self.answers.surprises),
            failure=failure,
        )

    # ----- the loop --------------------------------------------------------------------------
    async def run(self, stop: asyncio.Event) -> None:
        admin = Api(self._address, self._admin_token)
        active: set[asyncio.Task[None]] = set()
        try:
            self.accounts = await self._make_accounts(admin)
            while not stop.is_set():
                while self.creating and len(active) < self._settings.concurrent_tables:
                    task = asyncio.create_task(self._table(admin, self._next_table(), stop))
                    active.add(task)
                    task.add_done_callback(active.discard)
                if not self.creating and not active:
                    break
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), 0.2)
            await asyncio.gather(*active, return_exceptions=True)
        finally:
            for account in self.accounts:
                await account.api.close()
            await admin.close()

    def _next_table(self) -> TableRun:
        number = len(self.tables)
        game = self._games[number % len(self._games)]
        kind = KINDS[(number // len(self._games)) % len(KINDS)]
        players = players_for(game)
        run = TableRun(number, game, players, short_options(game), kind)
        if kind != "bots":
            count = players if kind == "people" else self._rng.choice((1, 2))
            seats = sorted(self._rng.sample(range(players), count))
            names = self._rng.sample([a.name for a in self.accounts], count)
            run.people = dict(zip(seats, names, strict=True))
        self.tables.append(run)
        return run

    async def _make_accounts(self, admin: Api) -> list[Account]:
        accounts = []
        for number in range(self._settings.accounts):
            name = f"{ACCOUNT_PREFIX}{number:03d}"
            token = await self._account_token(admin, name)
            accounts.append(Account(name, token, Api(self._address, token)))
        return accounts

    async def _account_token(self, admin: Api, name: str) -> str:
        """A new player account's token; if the account was made by an attempt whose answer
        was lost (its name now taken), a new token for it."""
        request = account_pb2.CreateAccountRequest(
            name=name, kind=account_pb2.ACCOUNT_KIND_PLAYER, token_label="faults"
        )
        try:
            created = await patiently(
                lambda: admin.accounts.CreateAccount(
                    request, timeout=CALL_TIMEOUT, metadata=admin.metadata
                ),
                self.answers,
                "CreateAccount",
            )
            return str(created.token)
        except grpc.aio.AioRpcError as error:
            if error.code() != grpc.StatusCode.ALREADY_EXISTS:
                raise
        issued = await patiently(
            lambda: admin.accounts.IssueToken(
                account_pb2.IssueTokenRequest(account_name=name, label="faults"),
                timeout=CALL_TIMEOUT,
                metadata=admin.metadata,
            ),
            self.answers,
            "IssueToken",
        )
        return str(issued.token)

    # ----- one table -------------------------------------------------------------------------
    async def _table(self, admin: Api, run: TableRun, stop: asyncio.Event) -> None:
        try:
            tokens = await self._set_up(admin, run)
        except grpc.aio.AioRpcError as error:
            run.status, run.error = "refused", f"{error.code().name} {error.details()}"
            return
        except Exception as error:  # a harness bug: reported as a violation, not hidden
            run.status, run.error = "abandoned", repr(error)
            return
        run.status = "playing"
        try:
            if run.people:
                await self._play(run, tokens, stop)
            else:
                await self._watch(admin, run, stop)
        except Exception as error:
            run.status, run.error = "abandoned", repr(error)

    async def _set_up(self, admin: Api, run: TableRun) -> dict[int, str]:
        async def call(what: str, method: Any, request: Any, api: Api = admin) -> Any:
            return await patiently(
                lambda: method(request, timeout=CALL_TIMEOUT, metadata=api.metadata),
                self.answers,
                what,
            )

        created = await call(
            "CreateTable",
            admin.lobby.CreateTable,
            lobby_pb2.CreateTableRequest(
                game=run.game,
                players=run.players,
                options=run.options,
                command_id=f"table-{self._seed}-{run.number}",
            ),
        )
        run.table_id, run.match_id = created.table.table_id, created.table.match_id
        by_name = {a.name: a for a in self.accounts}
        tokens: dict[int, str] = {}
        for seat, name in run.people.items():
            api = by_name[name].api
            sat = await call(
                "SitDown",
                api.lobby.SitDown,
                lobby_pb2.SitDownRequest(
                    table_id=run.table_id,
                    seat=seat,
                    client_seed=random.Random(f"{self._seed}/{run.number}/{seat}").randbytes(16),
                ),
                api,
            )
            tokens[seat] = sat.seat_token
        if len(run.people) < run.players:
            await call(
                "FillWithBots",
                admin.lobby.FillWithBots,
                lobby_pb2.FillWithBotsRequest(
                    table_id=run.table_id, level="easy", think_ms=self._settings.think_ms
                ),
            )
        await call(
            "StartMatch", admin.lobby.StartMatch, lobby_pb2.StartMatchRequest(table_id=run.table_id)
        )
        return tokens

    async def _play(self, run: TableRun, tokens: dict[int, str], stop: asyncio.Event) -> None:
        by_name = {a.name: a for a in self.accounts}
        run.seats = [
            SeatPlayer(
                by_name[name].api,
                run.match_id,
                seat,
                tokens[seat],
                ledger=self.ledger,
                answers=self.answers,
                rng=random.Random(f"{self._seed}/{run.number}/{seat}"),
                prefix=f"t{run.number}s{seat}",
            )
            for seat, name in run.people.items()
        ]
        await asyncio.gather(*(player.run(stop) for player in run.seats))
        if all(player.finished for player in run.seats):
            run.status = "finished"

    async def _watch(self, admin: Api, run: TableRun, stop: asyncio.Event) -> None:
        """A table of bots: nothing to play, only to see it end."""
        request = game_pb2.GetMatchRequest(match_id=run.match_id)
        while not stop.is_set():
            with contextlib.suppress(grpc.aio.AioRpcError):
                match = await admin.game.GetMatch(
                    request, timeout=CALL_TIMEOUT, metadata=admin.metadata
                )
                if match.finished:
                    run.status = "finished"
                    return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 2.0)


def _record(run: TableRun) -> TableRecord:
    return TableRecord(
        number=run.number,
        game=run.game,
        players=run.players,
        kind=run.kind,
        table_id=run.table_id,
        match_id=run.match_id,
        status=run.status,
        error=run.error,
        seats=tuple(
            SeatRecord(
                match_id=p.match_id,
                seat=p.seat,
                seat_token=p.seat_token,
                account_token=p.api.token,
                received=tuple(e.SerializeToString(deterministic=True) for e in p.received),
                stream_faults=tuple(p.stream_faults),
                reconnects=p.reconnects,
                streamed_to_end=p.streamed_to_end,
                finished=p.finished,
            )
            for p in run.seats
        ),
    )
