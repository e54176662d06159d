"""``tavola play GAME``: a person plays in the terminal against bots, over the public API.

Shows the hand with the playable items marked, the reason for any other one, the table
and the scores; accepts a number, an action code, ``?CODE`` (why not?), ``h`` (hint),
``u`` (take your last move back; every other seat is a bot) or ``q`` (quit). Works for
every game: everything comes from the view, the legal actions and the reasons the engine
sends.
"""

from __future__ import annotations

import argparse
import getpass
import queue
import sys
import threading
import uuid
from typing import Any

import grpc

from tavola.cli.client import Client, default_address
from tavola.cli.demo import default_players, table_options
from tavola.cli.format import event_line, plain
from tavola.rules.cards import Card
from tavola.v1 import game_pb2, lobby_pb2

ME = 0


def _start(client: Client, args: argparse.Namespace) -> tuple[str, str]:
    options = table_options(args)
    players = args.players or default_players(args.game, options)
    table = client.lobby.CreateTable(
        lobby_pb2.CreateTableRequest(game=args.game, players=players, options=options)
    ).table
    sat = client.lobby.SitDown(
        lobby_pb2.SitDownRequest(
            table_id=table.table_id,
            seat=ME,
            player_name=getpass.getuser() or "you",
            client_seed=uuid.uuid4().bytes,
        )
    )
    client.lobby.FillWithBots(
        lobby_pb2.FillWithBotsRequest(
            table_id=table.table_id, level=args.level, think_ms=args.think_ms
        )
    )
    match_id = client.lobby.StartMatch(
        lobby_pb2.StartMatchRequest(table_id=table.table_id)
    ).match_id
    print(
        f"{args.game}: you are seat {ME}; {players - 1} bots ({args.level}). "
        f"Seed commitment {table.seed_commitment}"
    )
    if table.house_rules:
        print(f"house rules: {', '.join(table.house_rules)}")
    return match_id, sat.seat_token


def _follow(client: Client, match_id: str, token: str, events: queue.Queue[Any]) -> None:
    try:
        for item in client.game.StreamEvents(
            game_pb2.StreamEventsRequest(
                match_id=match_id, seat=ME, seat_token=token, until_end=True
            )
        ):
            events.put(item.event)
    except grpc.RpcError as error:
        events.put(error)
    events.put(None)


def _show(view: game_pb2.GetViewResponse) -> None:
    fields = plain(view.view)
    legal = {a.code for a in view.legal_actions}
    for name, value in fields.items():
        if name == "hand" and isinstance(value, list):
            marked = [f"[{_label(c)}]" if c in legal else f" {_label(c)} " for c in value]
            print(f"  your hand: {' '.join(marked)}   ([x] = playable)")
        elif value not in (None, [], "", {}):
            print(f"  {name}: {value}")
    for blocked in view.blocked:
        print(f"    {blocked.code}: {blocked.reason.text}")
    print("  standings: " + ", ".join(f"seat {s.seat} {s.score}" for s in view.standings))


IDLE = "idle"


def _next(events: queue.Queue[Any], idle_seconds: float = 3.0) -> Any:
    try:
        return events.get(timeout=idle_seconds)
    except queue.Empty:
        return IDLE


def _label(code: Any) -> str:
    try:
        return Card.parse(str(code)).label
    except ValueError:
        return str(code)  # tiles and other items keep their code


def _turn(client: Client, match_id: str, token: str, locale: str) -> bool:
    """Ask the person for a move until one is accepted; False to quit."""
    while True:
        view = client.game.GetView(
            game_pb2.GetViewRequest(match_id=match_id, seat=ME, seat_token=token, locale=locale)
        )
        if not view.legal_actions:
            return True
        _show(view)
        options = "  ".join(f"{i + 1}:{a.label}" for i, a in enumerate(view.legal_actions))
        answer = input(
            f"your move ({options}; ?CODE why, h hint, u take back, Enter wait, q quit): "
        ).strip()
        if answer == "q":
            return False
        if not answer:
            return True  # e.g. an announcement you may make later: keep watching
        if answer == "h":
            hint = client.game.GetHint(
                game_pb2.GetHintRequest(match_id=match_id, seat=ME, seat_token=token, locale=locale)
            )
            print(f"  hint: {hint.action.label} — {hint.reason.text}")
            continue
        if answer == "u":  # at a practice table: your last move and the bots' since
            try:
                back = client.game.TakeBack(
                    game_pb2.TakeBackRequest(
                        match_id=match_id,
                        seat=ME,
                        seat_token=token,
                        command_id=str(uuid.uuid4()),
                        locale=locale,
                    )
                )
                print(f"  taken back: the table is as it was at version {back.restored_version}")
            except grpc.RpcError as error:
                print(f"  {error.details()}")
            continue
        if answer.startswith("?"):
            why = client.game.ExplainAction(
                game_pb2.ExplainActionRequest(
                    match_id=match_id, seat=ME, seat_token=token, action=answer[1:], locale=locale
                )
            )
            print("  that is legal" if why.legal else f"  {why.reason.text}")
            continue
        code = answer
        if answer.isdigit() and 1 <= int(answer) <= len(view.legal_actions):
            code = view.legal_actions[int(answer) - 1].code
        try:
            client.game.SubmitAction(
                game_pb2.SubmitActionRequest(
                    match_id=match_id,
                    seat=ME,
                    seat_token=token,
                    command_id=str(uuid.uuid4()),
                    expected_version=view.version,
                    action=code,
                    locale=locale,
                )
            )
            return True
        except grpc.RpcError as error:
            print(f"  {error.details()}")


def play(args: argparse.Namespace) -> int:
    client = Client.connect(args.address or default_address())
    try:
        match_id, token = _start(client, args)
        events: queue.Queue[Any] = queue.Queue()
        threading.Thread(
            target=_follow, args=(client, match_id, token, events), daemon=True
        ).start()
        while (event := _next(events)) is not None:
            if isinstance(event, grpc.RpcError):
                print(f"stream ended: {event.details()}", file=sys.stderr)
                return 1
            if event == IDLE:
                wanted = True  # nothing happened for a while: is the table waiting for me?
            else:
                if not event.hidden or list(event.audience) == [ME]:
                    print(event_line(event))
                wanted = event.last_in_batch and ME in event.to_act
            if wanted and not _turn(client, match_id, token, args.locale):
                print(f"left the table; match {match_id}")
                return 0
        match = client.game.GetMatch(game_pb2.GetMatchRequest(match_id=match_id))
        print("final standings:")
        for line in sorted(match.standings, key=lambda s: (s.rank, s.seat)):
            print(f"  {line.rank}. seat {line.seat} {line.player_name:<18} {line.score:>6}")
        print(match_id)
        return 0
    except grpc.RpcError as error:
        print(f"tavola play: {error.code().name}: {error.details()}", file=sys.stderr)
        return 1
    finally:
        client.close()
