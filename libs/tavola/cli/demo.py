"""``tavola demo GAME``: a table with every seat a bot, watched to the end over gRPC."""

from __future__ import annotations

import argparse
import sys

import grpc

from tavola.cli.client import Client, default_address
from tavola.rules import registry
from tavola.v1 import game_pb2, lobby_pb2


def table_options(args: argparse.Namespace) -> dict[str, str]:
    options = dict(item.split("=", 1) for item in args.option)
    if args.preset:
        options["preset"] = args.preset
    if getattr(args, "mode", ""):
        options["mode"] = args.mode
    return options


def default_players(game: str, options: dict[str, str]) -> int:
    info = registry.get(game).info
    if game == "dominoes" and options.get("mode") in ("block", "draw"):
        return 2
    return 4 if info.min_players <= 4 <= info.max_players else info.min_players


def demo(args: argparse.Namespace) -> int:
    client = Client.connect(args.address or default_address())
    options = table_options(args)
    players = args.players or default_players(args.game, options)
    try:
        table = client.lobby.CreateTable(
            lobby_pb2.CreateTableRequest(game=args.game, players=players, options=options)
        ).table
        print(
            f"table {table.table_id}: {args.game}, {players} bots ({args.level}); "
            f"seed commitment {table.seed_commitment}"
        )
        client.lobby.FillWithBots(
            lobby_pb2.FillWithBotsRequest(
                table_id=table.table_id, level=args.level, think_ms=args.think_ms
            )
        )
        match_id = client.lobby.StartMatch(
            lobby_pb2.StartMatchRequest(table_id=table.table_id)
        ).match_id
        print(f"match {match_id} started; watching…", flush=True)
        moves = 0
        for item in client.game.StreamEvents(
            game_pb2.StreamEventsRequest(match_id=match_id, seat=-1, until_end=True)
        ):
            if item.event.cause.seat >= 0 and item.event.last_in_batch:
                moves += 1
        match = client.game.GetMatch(game_pb2.GetMatchRequest(match_id=match_id))
    except grpc.RpcError as error:
        print(f"tavola demo: {error.code().name}: {error.details()}", file=sys.stderr)
        return 1
    finally:
        client.close()
    print(f"finished after {moves} moves, {match.version} events. Final standings:")
    for line in sorted(match.standings, key=lambda s: (s.rank, s.seat)):
        print(f"  {line.rank}. seat {line.seat} {line.player_name:<18} {line.score:>6}")
    print(f"seed {match.seed} (sha256 {match.seed_commitment})")
    print(match_id)
    return 0
