"""Owners of tables, seats bound to accounts and invitations, in the lobby's application
layer over the in-memory log."""

from __future__ import annotations

import itertools
import uuid

import pytest

from services.lobby.app import Lobby, LobbyPorts
from support.engine import FixedClock
from tavola.accounts.directory import AccountDirectory, DirectoryPorts
from tavola.accounts.model import KIND_SCOPES, Kind, Principal
from tavola.eventlog.memory import InMemoryEventStore
from tavola.lobby.index import InMemoryTableIndex
from tavola.protocol.errors import ServiceError
from tavola.v1 import lobby_pb2


def principal(name: str, kind: Kind, scopes: frozenset[str] | None = None) -> Principal:
    account = str(uuid.uuid5(uuid.NAMESPACE_URL, f"tavola-test:{name}"))
    return Principal(account, name, kind, scopes or KIND_SCOPES[kind], "t")


HOST = principal("host", Kind.HOST)
ANA = principal("ana", Kind.PLAYER)
BIA = principal("bia", Kind.PLAYER)
ADMIN = principal("admin", Kind.ADMIN)
READER = principal("reader", Kind.PLAYER, frozenset({"read"}))
ROBOT = principal("robot", Kind.BOT)


class Started:
    def __init__(self) -> None:
        self.requests: list = []

    async def __call__(self, request):  # type: ignore[no-untyped-def]
        self.requests.append(request)


async def lobby() -> tuple[Lobby, Started, AccountDirectory]:
    store = InMemoryEventStore(FixedClock())
    ids = itertools.count(1)
    tokens = itertools.count(1)
    directory = AccountDirectory(
        DirectoryPorts(
            store=store,
            new_id=lambda: uuid.UUID(int=next(ids)),
            new_secret=lambda: "s" * 43,
            new_token_id=lambda: f"{next(tokens):012x}",
            now_ms=lambda: 0,
        )
    )
    started = Started()

    async def seed(_match: str) -> str:
        return "c" * 64

    app = Lobby(
        LobbyPorts(
            tables=InMemoryTableIndex(store),
            store=store,
            accounts=directory,
            create_seed=seed,
            create_match=started,
            new_id=lambda: uuid.UUID(int=10_000 + next(ids)),
            new_token=lambda: f"seat-{next(tokens)}",
            now_ms=lambda: 0,
        )
    )
    return app, started, directory


async def table(app: Lobby, host: Principal = HOST, **fields) -> lobby_pb2.Table:
    request = lobby_pb2.CreateTableRequest(game="fan-tan", players=4, **fields)
    return (await app.create_table(request, host)).table


async def refused(call, request, who) -> ServiceError:  # type: ignore[no-untyped-def]
    with pytest.raises(ServiceError) as caught:
        await call(request, who)
    return caught.value


async def test_only_the_host_or_an_admin_fills_starts_invites_or_changes_a_table():
    app, _, _ = await lobby()
    made = await table(app)
    fill = lobby_pb2.FillWithBotsRequest(table_id=made.table_id)
    for call, request in (
        (app.fill_with_bots, fill),
        (app.start_match, lobby_pb2.StartMatchRequest(table_id=made.table_id)),
        (
            app.change_options,
            lobby_pb2.ChangeTableOptionsRequest(table_id=made.table_id, options={"hands": "1"}),
        ),
    ):
        error = await refused(call, request, ANA)
        assert error.code.name == "PERMISSION_DENIED" and error.reason.code == "table.not_host"
    assert all(s.taken for s in (await app.fill_with_bots(fill, ADMIN)).table.seats)


async def test_a_player_cannot_create_a_table_and_a_reader_cannot_sit():
    app, _, _ = await lobby()
    error = await refused(app.create_table, lobby_pb2.CreateTableRequest(game="fan-tan"), ANA)
    assert error.reason.code == "auth.scope_missing"
    made = await table(app)
    error = await refused(app.sit_down, lobby_pb2.SitDownRequest(table_id=made.table_id), READER)
    assert error.code.name == "PERMISSION_DENIED"


async def test_a_seat_shows_the_accounts_name_and_a_bot_account_is_always_a_bot():
    app, _, _ = await lobby()
    made = await table(app)
    sat = await app.sit_down(
        lobby_pb2.SitDownRequest(table_id=made.table_id, seat=-1, player_name="BIA"), ANA
    )
    assert sat.table.seats[sat.seat].player_name == "ana"
    assert not sat.table.seats[sat.seat].is_bot
    bot = await app.sit_down(lobby_pb2.SitDownRequest(table_id=made.table_id, seat=-1), ROBOT)
    assert bot.table.seats[bot.seat].is_bot and bot.table.seats[bot.seat].account_id


async def test_sitting_again_rotates_the_seat_token_and_takes_no_second_seat():
    app, _, _ = await lobby()
    made = await table(app)
    first = await app.sit_down(lobby_pb2.SitDownRequest(table_id=made.table_id, seat=2), ANA)
    again = await app.sit_down(lobby_pb2.SitDownRequest(table_id=made.table_id, seat=0), ANA)
    assert (first.seat, again.seat) == (2, 2) and first.seat_token != again.seat_token
    assert sum(s.taken for s in again.table.seats) == 1


async def test_a_seat_reserved_by_an_invitation_is_kept_for_its_guest():
    app, _, directory = await lobby()
    await directory.create("bia", Kind.PLAYER)
    made = await table(app, access=lobby_pb2.TABLE_ACCESS_INVITE_ONLY)
    error = await refused(app.sit_down, lobby_pb2.SitDownRequest(table_id=made.table_id), ANA)
    assert error.reason.code == "table.invite_only"
    invited = await app.invite(
        lobby_pb2.InviteToTableRequest(table_id=made.table_id, account_name="BIA", seat=3), HOST
    )
    assert invited.table.seats[3].reserved_for == "bia"
    filled = await app.fill_with_bots(lobby_pb2.FillWithBotsRequest(table_id=made.table_id), HOST)
    assert not filled.table.seats[3].taken  # the bots leave the reserved seat free


async def test_a_hosts_command_id_makes_creation_idempotent_for_that_host_only():
    app, _, _ = await lobby()
    one = await table(app, command_id="round-1")
    again = await table(app, command_id="round-1")
    other = await table(app, ADMIN, command_id="round-1")
    assert one.table_id == again.table_id != other.table_id


async def test_the_listing_shows_invitation_tables_only_to_their_members():
    app, _, _ = await lobby()
    public = await table(app)
    private = await table(app, access=lobby_pb2.TABLE_ACCESS_INVITE_ONLY)
    seen = await app.list_tables(lobby_pb2.ListTablesRequest(), ANA)
    ids = {t.table_id for t in seen.tables}
    assert public.table_id in ids and private.table_id not in ids
    mine = await app.list_tables(lobby_pb2.ListTablesRequest(mine=True), HOST)
    assert {t.table_id for t in mine.tables} == {public.table_id, private.table_id}
