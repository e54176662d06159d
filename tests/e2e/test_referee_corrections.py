"""A referee's corrections on the running platform: void a game of a finished match and
the standings and ratings follow — and equal a rebuild from the log; ``tavola verify``
still passes and lists the correction apart from play; GetMatch shows it; ``tavola
audit`` finds nothing on a clean log; only a referee (or an admin) may correct, only a
finished match; a record of a match played here is not imported over it.

Three player accounts play two short Fan Tan matches against each other through the
public API (any legal action), so both are rated (no platform bot at the table).
"""

from __future__ import annotations

import subprocess
import sys
import uuid

import grpc
import pytest
from google.protobuf import json_format

from support.accounts import new_account
from support.platform import bot_table, eventually
from tavola.accounts.model import Kind
from tavola.cli.client import Client
from tavola.cli.errors import reason_of
from tavola.cli.main import main
from tavola.v1 import audit_pb2, audit_pb2_grpc, game_pb2, lobby_pb2, scoring_pb2

pytestmark = pytest.mark.e2e
GAME = "fan-tan"


def play_match(host: Client, players: list[Client]) -> str:
    """A finished match of ``players`` (seat i: players[i]), each playing its first legal
    action when on turn."""
    table = host.lobby.CreateTable(
        lobby_pb2.CreateTableRequest(game=GAME, players=len(players), options={"hands": "1"})
    ).table
    tokens = []
    for seat, player in enumerate(players):
        sat = player.lobby.SitDown(
            lobby_pb2.SitDownRequest(table_id=table.table_id, seat=seat, client_seed=b"e%d" % seat)
        )
        tokens.append(sat.seat_token)
    match_id = host.lobby.StartMatch(lobby_pb2.StartMatchRequest(table_id=table.table_id)).match_id
    for _ in range(2000):
        match = host.game.GetMatch(game_pb2.GetMatchRequest(match_id=match_id), timeout=10)
        if match.finished:
            return match_id
        spectator = host.game.GetView(game_pb2.GetViewRequest(match_id=match_id, seat=-1))
        for seat in spectator.to_act:
            view = players[seat].game.GetView(
                game_pb2.GetViewRequest(match_id=match_id, seat=seat, seat_token=tokens[seat])
            )
            if not view.legal_actions:
                continue
            try:
                players[seat].game.SubmitAction(
                    game_pb2.SubmitActionRequest(
                        match_id=match_id,
                        seat=seat,
                        seat_token=tokens[seat],
                        command_id=str(uuid.uuid4()),
                        expected_version=view.version,
                        action=view.legal_actions[0].code,
                    )
                )
            except grpc.RpcError as error:  # the table moved on: look again
                if error.code() != grpc.StatusCode.ABORTED:
                    raise
    raise AssertionError("the match did not end")


def scores(client: Client, match_id: str) -> scoring_pb2.GetMatchStandingsResponse:
    return client.scoring.GetMatchStandings(scoring_pb2.GetMatchStandingsRequest(match_id=match_id))


def ladder(client: Client) -> list[tuple[str, float, float, int]]:
    rated = client.scoring.GetRatings(scoring_pb2.GetRatingsRequest(game=GAME)).ratings
    return sorted((r.account_id, r.mu, r.sigma, r.matches) for r in rated)


def totals(client: Client, names: list[str]) -> list[tuple[int, int, int]]:
    out = []
    for name in names:
        found = client.scoring.GetPlayerStandings(
            scoring_pb2.GetPlayerStandingsRequest(player_name=name, game=GAME)
        )
        out.append((found.matches, found.wins, found.rank_sum))
    return out


def test_a_voided_game_counts_for_nothing_and_a_rebuild_agrees(client, platform, tmp_path, capsys):
    referee, _ = new_account(client, "referee", Kind.REFEREE)
    players, names = [], []
    for i in range(3):
        player, name = new_account(client, f"corr{i}")
        players.append(player)
        names.append(name)
    voided, kept = play_match(client, players), play_match(client, players)
    eventually(lambda: scores(client, voided) and scores(client, kept), timeout=120)
    eventually(lambda: all(m == 2 for *_, m in ladder(client)) and len(ladder(client)) == 3)
    assert totals(client, names)[0][0] == 2
    before = ladder(client)

    desk = audit_pb2_grpc.AuditServiceStub(referee.channel)
    player_desk = audit_pb2_grpc.AuditServiceStub(players[0].channel)
    request = audit_pb2.FileCorrectionRequest(
        match_id=voided, kind="void_game", reason="a seat was shared", command_id="c1"
    )
    with pytest.raises(grpc.RpcError) as caught:  # a player may not correct
        player_desk.FileCorrection(request)
    assert caught.value.code() == grpc.StatusCode.PERMISSION_DENIED
    running, _ = bot_table(client, GAME, 3, humans=1)
    with pytest.raises(grpc.RpcError) as caught:  # nor may anyone correct a running match
        desk.FileCorrection(
            audit_pb2.FileCorrectionRequest(match_id=running, kind="void_game", reason="x")
        )
    assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert reason_of(caught.value)[0] == "correction.not_finished"
    with pytest.raises(grpc.RpcError) as caught:
        desk.FileCorrection(
            audit_pb2.FileCorrectionRequest(
                match_id=voided, kind="void_hand", hand=9, reason="x", locale="pt"
            )
        )
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert reason_of(caught.value)[0] == "correction.no_such_hand"
    assert "mão 9" in (caught.value.details() or "")

    filed = desk.FileCorrection(request)
    assert desk.FileCorrection(request).duplicate  # a retry files nothing new
    match = client.game.GetMatch(game_pb2.GetMatchRequest(match_id=voided))
    assert [(c.kind, c.reason, c.version) for c in match.corrections] == [
        ("void_game", "a seat was shared", filed.correction.version)
    ]

    eventually(lambda: scores(client, voided).voided, timeout=60)
    eventually(lambda: [m for *_, m in ladder(client)] == [1, 1, 1], timeout=60)
    assert [t[0] for t in totals(client, names)] == [1, 1, 1]
    after = ladder(client)
    assert after != before
    live = (scores(client, voided), scores(client, kept), after, totals(client, names))

    done = subprocess.run(
        [sys.executable, "-m", "services.scoring", "rebuild"],
        env=platform.env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    rebuilt = (scores(client, voided), scores(client, kept), ladder(client), totals(client, names))
    assert rebuilt == live

    record = client.game.ExportMatch(game_pb2.ExportMatchRequest(match_id=voided))
    assert record.events[-1].type == "match.Correction"
    path = tmp_path / "voided.json"
    path.write_text(json_format.MessageToJson(record))
    capsys.readouterr()
    assert main(["verify", "--file", str(path), "--no-bots"]) == 0
    out = capsys.readouterr().out
    assert "Corrections" in out and "void_game" in out and "a seat was shared" in out
    ended = next(e.version for e in record.events if e.type == "match.MatchEnded")
    assert f"corrects version {ended}" in out

    token = ["--address", platform.address, "--token", _token(client, referee)]
    assert main(["audit", "--game", GAME, *token]) == 0
    assert "record every one as it was recorded" in capsys.readouterr().out
    assert main(["import", str(path), *token]) == 1  # played here: not imported over it
    assert "was played here" in capsys.readouterr().err
    assert main(["verify", voided, "--database-url", platform.database_url, "--no-bots"]) == 0
    assert "void_game" in capsys.readouterr().out
    assert main(["correct", kept, "--void-hand", "1", "--reason", "misdeal", *token]) == 0
    assert "Correction void_hand filed on" in capsys.readouterr().out
    assert main(["correct", kept, "--void-hand", "1", "--reason", "again", *token]) == 1
    assert "already void" in capsys.readouterr().err
    eventually(lambda: scores(client, kept) != live[1], timeout=60)


def _token(admin: Client, referee: Client) -> str:
    """A fresh token of the referee's account, for the CLI."""
    from tavola.v1 import account_pb2

    issued = referee.accounts.IssueToken(account_pb2.IssueTokenRequest(label="cli"))
    return issued.token
