"""Trust at the public edge, with the services as processes over real Postgres, NATS and
gRPC: accounts and tokens, owners of tables, seats bound to accounts, command ids that no
one can squat, bad input that changes nothing (docs/security.md)."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Iterator

import asyncpg
import grpc
import pytest
from google.rpc import error_details_pb2, status_pb2

from support.accounts import new_account, token_with
from support.platform import eventually, match_state
from tavola.accounts.model import Kind
from tavola.cli.client import Client
from tavola.cli.platform import Platform
from tavola.v1 import account_pb2, game_pb2, lobby_pb2

pytestmark = pytest.mark.e2e


def refused(call, *args, **kwargs) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as caught:
        call(*args, timeout=15, **kwargs)
    return caught.value


def reason_of(error: grpc.RpcError) -> str:
    for key, value in error.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            status = status_pb2.Status.FromString(value)
            for detail in status.details:
                info = error_details_pb2.ErrorInfo()
                if detail.Unpack(info):
                    return info.reason
    return ""


def event_count(platform: Platform, *streams: str) -> int:
    """Events in the log (in ``streams`` only, when named)."""

    async def count() -> int:
        conn = await asyncpg.connect(platform.database_url)
        try:
            if streams:
                query = "SELECT count(*) FROM events WHERE stream_id = ANY($1::text[])"
                return int(await conn.fetchval(query, list(streams)))
            return int(await conn.fetchval("SELECT count(*) FROM events"))
        finally:
            await conn.close()

    return asyncio.run(count())


@pytest.fixture
def host(client: Client) -> Iterator[Client]:
    connected, _ = new_account(client, "host", Kind.HOST)
    yield connected
    connected.close()


@pytest.fixture
def player(client: Client) -> Iterator[Client]:
    connected, _ = new_account(client, "player")
    yield connected
    connected.close()


def open_table(host: Client, players: int = 4, **fields) -> lobby_pb2.Table:
    """A Fan Tan table without turn timers (a person on turn waits for the test)."""
    return host.lobby.CreateTable(
        lobby_pb2.CreateTableRequest(
            game="fan-tan", players=players, options={"timers": "false"}, **fields
        ),
        timeout=15,
    ).table


def practice_match(who: Client, host: Client | None = None) -> tuple[str, str]:
    """A started Fan Tan match: ``who`` at seat 0, bots elsewhere; (match id, seat token)."""
    owner = host or who
    table = open_table(owner)
    sat = who.lobby.SitDown(lobby_pb2.SitDownRequest(table_id=table.table_id, seat=0), timeout=15)
    owner.lobby.FillWithBots(lobby_pb2.FillWithBotsRequest(table_id=table.table_id), timeout=15)
    started = owner.lobby.StartMatch(
        lobby_pb2.StartMatchRequest(table_id=table.table_id), timeout=15
    )
    return started.match_id, sat.seat_token


def my_turn(who: Client, match_id: str, token: str) -> game_pb2.GetViewResponse:
    def ready() -> game_pb2.GetViewResponse | None:
        view = who.game.GetView(
            game_pb2.GetViewRequest(match_id=match_id, seat=0, seat_token=token), timeout=10
        )
        return view if view.legal_actions or view.finished else None

    return eventually(ready, timeout=60)


# ----- accounts and tokens ---------------------------------------------------------------
def test_a_call_without_a_token_is_unauthenticated_and_changes_nothing(platform):
    before = event_count(platform)
    anonymous = Client.connect(platform.address, "")
    error = refused(
        anonymous.lobby.CreateTable, lobby_pb2.CreateTableRequest(game="fan-tan", players=4)
    )
    assert error.code() == grpc.StatusCode.UNAUTHENTICATED
    assert reason_of(error) == "auth.missing"
    forged = Client.connect(platform.address, "tvl1_" + "0" * 32 + "_" + "0" * 12 + "_" + "A" * 43)
    error = refused(forged.game.GetMatch, game_pb2.GetMatchRequest(match_id="x"))
    assert error.code() == grpc.StatusCode.UNAUTHENTICATED and reason_of(error) == "auth.invalid"
    assert event_count(platform) == before


def test_a_revoked_token_stops_working_and_a_new_one_does(client, player):
    second = token_with(player, "read")
    me = second.accounts.WhoAmI(account_pb2.WhoAmIRequest(), timeout=10)
    assert list(me.scopes) == ["read"]
    player.accounts.RevokeToken(account_pb2.RevokeTokenRequest(token_id=me.token_id), timeout=10)

    def refused_now() -> bool:
        try:
            second.lobby.ListGames(lobby_pb2.ListGamesRequest(), timeout=5)
            return False
        except grpc.RpcError as error:
            return error.code() == grpc.StatusCode.UNAUTHENTICATED

    eventually(refused_now, timeout=10)
    assert player.lobby.ListGames(lobby_pb2.ListGamesRequest(), timeout=10).games


def test_a_token_cannot_be_issued_with_more_scopes_than_its_own(player):
    narrow = token_with(player, "read")
    error = refused(
        narrow.accounts.IssueToken, account_pb2.IssueTokenRequest(scopes=["play"], label="x")
    )
    assert error.code() == grpc.StatusCode.PERMISSION_DENIED
    error = refused(
        player.accounts.IssueToken, account_pb2.IssueTokenRequest(scopes=["host"], label="x")
    )
    assert error.code() == grpc.StatusCode.PERMISSION_DENIED


def test_display_names_are_unique_regardless_of_case_and_accents(client):
    _, name = new_account(client, "Zoé")
    error = refused(
        client.accounts.CreateAccount, account_pb2.CreateAccountRequest(name=name.upper())
    )
    assert error.code() == grpc.StatusCode.ALREADY_EXISTS
    error = refused(
        client.accounts.CreateAccount,
        account_pb2.CreateAccountRequest(name=name.replace("é", "e")),
    )
    assert error.code() == grpc.StatusCode.ALREADY_EXISTS
    error = refused(
        client.accounts.CreateAccount, account_pb2.CreateAccountRequest(name="Bot 2 (easy)")
    )
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT


def test_only_an_admin_creates_accounts(player):
    error = refused(
        player.accounts.CreateAccount, account_pb2.CreateAccountRequest(name="someone-else")
    )
    assert error.code() == grpc.StatusCode.PERMISSION_DENIED


# ----- owners of tables ----------------------------------------------------------------------
def test_a_player_cannot_fill_start_or_change_another_hosts_table(platform, client, host, player):
    table = open_table(host)
    before = event_count(platform, f"table-{table.table_id}")
    for call, request in (
        (player.lobby.FillWithBots, lobby_pb2.FillWithBotsRequest(table_id=table.table_id)),
        (player.lobby.StartMatch, lobby_pb2.StartMatchRequest(table_id=table.table_id)),
        (
            player.lobby.ChangeTableOptions,
            lobby_pb2.ChangeTableOptionsRequest(table_id=table.table_id, options={"hands": "1"}),
        ),
        (
            player.lobby.InviteToTable,
            lobby_pb2.InviteToTableRequest(table_id=table.table_id, account_name="x", seat=-1),
        ),
        (player.lobby.CreateTable, lobby_pb2.CreateTableRequest(game="fan-tan", players=4)),
    ):
        assert refused(call, request).code() == grpc.StatusCode.PERMISSION_DENIED
    assert event_count(platform, f"table-{table.table_id}") == before
    other_host, _ = new_account(client, "rival", Kind.HOST)
    error = refused(
        other_host.lobby.FillWithBots, lobby_pb2.FillWithBotsRequest(table_id=table.table_id)
    )
    assert (
        error.code() == grpc.StatusCode.PERMISSION_DENIED and reason_of(error) == "table.not_host"
    )
    filled = host.lobby.FillWithBots(
        lobby_pb2.FillWithBotsRequest(table_id=table.table_id), timeout=10
    )
    assert all(seat.taken for seat in filled.table.seats)


def test_a_token_without_play_cannot_sit(client, host, player):
    table = open_table(host)
    reader = token_with(player, "read")
    error = refused(reader.lobby.SitDown, lobby_pb2.SitDownRequest(table_id=table.table_id))
    assert error.code() == grpc.StatusCode.PERMISSION_DENIED
    referee, _ = new_account(client, "ref", Kind.REFEREE)
    error = refused(referee.lobby.SitDown, lobby_pb2.SitDownRequest(table_id=table.table_id))
    assert error.code() == grpc.StatusCode.PERMISSION_DENIED


def test_a_seat_shows_its_accounts_name_and_an_account_sits_once(host, player):
    table = open_table(host)
    me = player.accounts.WhoAmI(account_pb2.WhoAmIRequest(), timeout=10).account
    first = player.lobby.SitDown(
        lobby_pb2.SitDownRequest(table_id=table.table_id, player_name="impostor"), timeout=10
    )
    assert first.table.seats[first.seat].player_name == me.name
    again = player.lobby.SitDown(lobby_pb2.SitDownRequest(table_id=table.table_id), timeout=10)
    assert again.seat == first.seat and again.seat_token != first.seat_token
    assert sum(s.account_id == me.account_id for s in again.table.seats) == 1


def test_an_invitation_only_table_seats_only_the_invited(client, host, player):
    table = open_table(host, access=lobby_pb2.TABLE_ACCESS_INVITE_ONLY)
    error = refused(player.lobby.SitDown, lobby_pb2.SitDownRequest(table_id=table.table_id))
    assert error.code() == grpc.StatusCode.PERMISSION_DENIED
    name = player.accounts.WhoAmI(account_pb2.WhoAmIRequest(), timeout=10).account.name
    host.lobby.InviteToTable(
        lobby_pb2.InviteToTableRequest(table_id=table.table_id, account_name=name, seat=2),
        timeout=10,
    )
    sat = player.lobby.SitDown(
        lobby_pb2.SitDownRequest(table_id=table.table_id, seat=-1), timeout=10
    )
    assert sat.seat == 2  # the seat reserved for the invitation
    listed = host.lobby.ListTables(lobby_pb2.ListTablesRequest(mine=True), timeout=10)
    assert table.table_id in [t.table_id for t in listed.tables]


# ----- seats ---------------------------------------------------------------------------------
def test_a_seat_token_cannot_act_for_another_seat_or_table(host, player):
    match_id, token = practice_match(player, host)
    other_match, _ = practice_match(host)
    view = my_turn(player, match_id, token)
    code = view.legal_actions[0].code if view.legal_actions else "7D"
    for request in (
        game_pb2.SubmitActionRequest(
            match_id=match_id, seat=1, seat_token=token, command_id="a", action=code
        ),
        game_pb2.SubmitActionRequest(
            match_id=other_match, seat=0, seat_token=token, command_id="b", action=code
        ),
    ):
        assert (
            refused(player.game.SubmitAction, request).code() == grpc.StatusCode.PERMISSION_DENIED
        )
    # another account holding the stolen seat token cannot use it either
    error = refused(
        host.game.SubmitAction,
        game_pb2.SubmitActionRequest(
            match_id=match_id, seat=0, seat_token=token, command_id="c", action=code
        ),
    )
    assert (
        error.code() == grpc.StatusCode.PERMISSION_DENIED and reason_of(error) == "seat.not_yours"
    )


def test_a_referee_reads_any_seat_only_once_the_match_has_ended(client, host, player):
    referee, _ = new_account(client, "referee", Kind.REFEREE)
    match_id, token = practice_match(player, host)
    error = refused(referee.game.GetView, game_pb2.GetViewRequest(match_id=match_id, seat=1))
    assert error.code() == grpc.StatusCode.PERMISSION_DENIED
    player.game.LeaveMatch(
        game_pb2.LeaveMatchRequest(match_id=match_id, seat=0, seat_token=token), timeout=10
    )
    eventually(lambda: match_state(player, match_id).finished, timeout=120)
    view = referee.game.GetView(game_pb2.GetViewRequest(match_id=match_id, seat=1), timeout=10)
    assert view.finished and view.view.fields


# ----- command ids ---------------------------------------------------------------------------
PLATFORM_IDS = (
    "create:{m}",
    "bot:{m}:1:2",
    "timeout:{m}:0:1",
    "leave:{m}:0",
    "resume:{m}:deal/2",
    "p/create",
    "p/timeout/0/1",
    "p/leave/0",
    "p/resume/deal/2",
    "b/1/bot:{m}:1:13",
    "c/1/x",
)


def test_client_command_ids_equal_to_platform_ids_block_alter_or_reveal_nothing(
    platform, client, host, player
):
    """Every kind of id the platform uses, for another match and for the player's own, sent
    by a player with legal moves: each is the player's own command; the other table still
    starts and plays to its end, the player can still leave, and a caller that is not the
    seat's gets PERMISSION_DENIED (never ALREADY_EXISTS) for an id that exists."""
    victim = open_table(host)
    victim_match = victim.match_id
    match_id, token = practice_match(player, host)
    used = []
    for template in PLATFORM_IDS:
        view = my_turn(player, match_id, token)
        if view.finished:
            break
        command_id = template.format(m=victim_match)
        answer = player.game.SubmitAction(
            game_pb2.SubmitActionRequest(
                match_id=match_id,
                seat=0,
                seat_token=token,
                command_id=command_id,
                action=view.legal_actions[0].code,
            ),
            timeout=10,
        )
        assert not answer.duplicate
        used.append(command_id)
    assert len(used) >= 3
    host.lobby.FillWithBots(lobby_pb2.FillWithBotsRequest(table_id=victim.table_id), timeout=10)
    started = host.lobby.StartMatch(
        lobby_pb2.StartMatchRequest(table_id=victim.table_id), timeout=10
    )
    assert started.match_id == victim_match
    eventually(lambda: match_state(host, victim_match).finished, timeout=120)
    left = player.game.LeaveMatch(
        game_pb2.LeaveMatchRequest(match_id=match_id, seat=0, seat_token=token), timeout=10
    )
    assert left.replaced_by
    for command_id in used:  # probing someone else's ids reveals nothing
        error = refused(
            host.game.SubmitAction,
            game_pb2.SubmitActionRequest(
                match_id=match_id, seat=0, seat_token="guess", command_id=command_id, action="7D"
            ),
        )
        assert error.code() == grpc.StatusCode.PERMISSION_DENIED


def test_the_same_command_id_in_two_matches_is_two_commands(host, player):
    requests = []
    for match_id, token in (practice_match(player, host), practice_match(player, host)):
        view = my_turn(player, match_id, token)
        requests.append(
            game_pb2.SubmitActionRequest(
                match_id=match_id,
                seat=0,
                seat_token=token,
                command_id="same-id",
                action=view.legal_actions[0].code,
            )
        )
    answers = [player.game.SubmitAction(r, timeout=10) for r in requests]
    assert not any(a.duplicate for a in answers)
    retried = player.game.SubmitAction(requests[1], timeout=10)  # a retry: its own answer
    assert retried.duplicate and retried.version == answers[1].version


def test_a_created_table_is_idempotent_by_its_hosts_command_id(host, client):
    other, _ = new_account(client, "host2", Kind.HOST)
    one = open_table(host, command_id="league-round-1")
    again = open_table(host, command_id="league-round-1")
    theirs = open_table(other, command_id="league-round-1")
    assert one.table_id == again.table_id != theirs.table_id


# ----- bad input -----------------------------------------------------------------------------
def test_every_bad_input_class_gets_invalid_argument_and_leaves_the_log_unchanged(
    platform, host, player
):
    match_id, token = practice_match(player, host)
    my_turn(player, match_id, token)
    cases = {
        "NUL in a command id": game_pb2.SubmitActionRequest(
            match_id=match_id, seat=0, seat_token=token, command_id="a\x00b", action="7D"
        ),
        "NUL in an action": game_pb2.SubmitActionRequest(
            match_id=match_id, seat=0, seat_token=token, command_id="n1", action="7\x00D"
        ),
        "control character in a match id": game_pb2.SubmitActionRequest(
            match_id=match_id + "\x07", seat=0, seat_token=token, command_id="n2", action="7D"
        ),
        "a version of 2^64-1": game_pb2.SubmitActionRequest(
            match_id=match_id,
            seat=0,
            seat_token=token,
            command_id="n3",
            action="7D",
            expected_version=2**64 - 1,
        ),
        "an oversized action": game_pb2.SubmitActionRequest(
            match_id=match_id, seat=0, seat_token=token, command_id="n4", action="7" * 1000
        ),
        "an oversized command id": game_pb2.SubmitActionRequest(
            match_id=match_id, seat=0, seat_token=token, command_id="x" * 500, action="7D"
        ),
        "a seat that does not exist": game_pb2.SubmitActionRequest(
            match_id=match_id, seat=2**31 - 1, seat_token=token, command_id="n5", action="7D"
        ),
    }
    before = event_count(platform, f"match-{match_id}")
    for name, request in cases.items():
        error = refused(player.game.SubmitAction, request)
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, name
        assert reason_of(error), name
        assert "Error" not in error.details() and "asyncpg" not in error.details(), name
    for request in (
        game_pb2.GetViewRequest(match_id=match_id, seat=0, seat_token=token, at_version=2**63),
        game_pb2.StreamEventsRequest(match_id=match_id, seat=-1, after_version=2**64 - 1),
    ):
        call = player.game.GetView if isinstance(request, game_pb2.GetViewRequest) else None
        if call is not None:
            assert refused(call, request).code() == grpc.StatusCode.INVALID_ARGUMENT
        else:
            error = refused(lambda r, **k: list(player.game.StreamEvents(r, **k)), request)
            assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    raw = player.channel.unary_unary(
        "/tavola.v1.GameService/SubmitAction",
        request_serializer=lambda b: b,
        response_deserializer=lambda b: b,
    )
    invalid_utf8 = b"\x0a\x03\xff\xfe\xfd"  # field 1 (match_id) with bytes that are not UTF-8
    error = refused(raw, invalid_utf8)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    error = refused(
        player.lobby.SitDown,
        lobby_pb2.SitDownRequest(table_id=str(uuid.uuid4()), client_seed=b"x" * 5000),
    )
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert event_count(platform, f"match-{match_id}") == before


def test_the_lobby_down_is_unavailable_with_a_retry_hint(platform, client):
    platform.kill("lobby")
    try:
        error = refused(client.lobby.ListGames, lobby_pb2.ListGamesRequest())
        assert error.code() == grpc.StatusCode.UNAVAILABLE
        assert reason_of(error) == "service.unavailable"
        assert "NoResponders" not in error.details()
        trailers = dict(error.trailing_metadata() or ())
        assert int(trailers["retry-after-ms"]) > 0
    finally:
        platform.start("lobby")
        time.sleep(0.5)
        eventually(lambda: client.lobby.ListGames(lobby_pb2.ListGamesRequest(), timeout=5))
