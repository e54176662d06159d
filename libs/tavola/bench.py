"""``make bench``: figures, never assertions.

1. Pure engine: random playouts per second for every registered game.
2. End to end: the four services as processes (private or given Postgres/NATS), N concurrent
   tables whose every seat is played by a gRPC client of the public API; moves per second
   and the p50/p99 latency of SubmitAction.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import grpc

from tavola.rules import driver, registry


def pure(seconds: float) -> None:
    print("== pure engine: random playouts (one core) ==")
    for name in registry.names():
        game = registry.get(name)
        counts = sorted(
            {
                game.info.min_players,
                4 if game.info.min_players <= 4 <= game.info.max_players else game.info.max_players,
            }
        )
        for players in counts:
            matches = actions = hands = 0
            started = time.perf_counter()
            while time.perf_counter() - started < seconds:
                out = driver.play_match(
                    game, players, {}, seed=matches.to_bytes(32, "big"), rng=random.Random(matches)
                )
                matches += 1
                actions += out.actions
                hands += _hands(out.events)
            elapsed = time.perf_counter() - started
            print(
                f"{name:>12} {players}p: {matches / elapsed:8.1f} matches/s "
                f"{hands / elapsed:9.1f} hands/s {actions / elapsed:10.0f} actions/s"
            )


def _hands(events: Sequence[object]) -> int:
    names = {"HandStarted", "DealStarted", "GameStarted", "HandDealt"}
    started = [e for e in events if type(e).__name__ in names and type(e).__name__ != "HandDealt"]
    return max(1, len(started))


async def _play_table(
    stub: Any, lobby: Any, game: str, players: int, latencies: list[float]
) -> int:
    from tavola.v1 import game_pb2, lobby_pb2

    table = (
        await lobby.CreateTable(lobby_pb2.CreateTableRequest(game=game, players=players))
    ).table
    tokens = []
    for seat in range(players):
        sat = await lobby.SitDown(
            lobby_pb2.SitDownRequest(table_id=table.table_id, seat=seat, player_name=f"bench{seat}")
        )
        tokens.append(sat.seat_token)
    match_id = (
        await lobby.StartMatch(lobby_pb2.StartMatchRequest(table_id=table.table_id))
    ).match_id
    rng = random.Random(match_id)
    moves = 0
    while True:
        spectator = await stub.GetView(game_pb2.GetViewRequest(match_id=match_id, seat=-1))
        if spectator.finished:
            return moves
        seat = spectator.to_act[0]
        view = await stub.GetView(
            game_pb2.GetViewRequest(match_id=match_id, seat=seat, seat_token=tokens[seat])
        )
        action = view.legal_actions[rng.randrange(len(view.legal_actions))].code
        started = time.perf_counter()
        await stub.SubmitAction(
            game_pb2.SubmitActionRequest(
                match_id=match_id,
                seat=seat,
                seat_token=tokens[seat],
                command_id=f"{match_id}:{moves}",
                expected_version=view.version,
                action=action,
            )
        )
        latencies.append(time.perf_counter() - started)
        moves += 1


async def _e2e_run(address: str, tables: int, game: str, players: int) -> None:
    from tavola.v1 import game_pb2_grpc, lobby_pb2_grpc

    async with grpc.aio.insecure_channel(address) as channel:
        stub = game_pb2_grpc.GameServiceStub(channel)
        lobby = lobby_pb2_grpc.LobbyServiceStub(channel)
        latencies: list[float] = []
        started = time.perf_counter()
        moves = await asyncio.gather(
            *(_play_table(stub, lobby, game, players, latencies) for _ in range(tables))
        )
        elapsed = time.perf_counter() - started
    q = statistics.quantiles(latencies, n=100)
    print(
        f"{game} {tables} concurrent tables x {players} seats: {sum(moves)} moves in "
        f"{elapsed:.1f} s = {sum(moves) / elapsed:.1f} moves/s; SubmitAction p50 "
        f"{q[49] * 1000:.1f} ms, p99 {q[98] * 1000:.1f} ms"
    )


def e2e(table_counts: list[int]) -> None:
    from tavola.cli.platform import Platform, ensure_platform_database
    from tavola.infra.local import LocalInfra

    print("== end to end: services as processes, clients over gRPC ==")
    data = os.path.join(".tavola", "bench-infra")
    with LocalInfra.from_env_or_start(data_dir=data) as infra:
        name = f"tavola_bench_{os.getpid()}"
        database_url = asyncio.run(ensure_platform_database(infra.database_url, name))
        logs = Path(tempfile.mkdtemp(prefix="tavola-bench-"))
        platform = Platform(
            database_url,
            infra.nats_url,
            log_dir=logs,
            extra_env={"TAVOLA_NAMESPACE": name.replace("_", "-"), "TAVOLA_LOG_LEVEL": "WARNING"},
        )
        try:
            platform.start_all()
            for count in table_counts:
                asyncio.run(_e2e_run(platform.address, count, "fan-tan", 4))
        finally:
            platform.stop_all()
            from tavola.infra.databases import drop_database

            asyncio.run(drop_database(infra.database_url, name))


OPENSPIEL: tuple[tuple[str, int, dict[str, str], str], ...] = (
    ("spades", 4, {}, "spades"),
    ("dominoes", 4, {"mode": "partnership"}, "python_team_dominoes"),
    ("dominoes", 2, {"mode": "block"}, "python_block_dominoes"),
)


def _our_hands_per_second(
    game_name: str, players: int, options: dict[str, str], seconds: float
) -> float:
    game = registry.get(game_name)
    hands, matches, started = 0, 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        out = driver.play_match(
            game, players, options, seed=matches.to_bytes(32, "big"), rng=random.Random(matches)
        )
        hands += _hands(out.events)
        matches += 1
    return hands / (time.perf_counter() - started)


def _openspiel_hands_per_second(name: str, seconds: float) -> float:
    """OpenSpiel's game (one hand per game) with the same loop: chance sampled, then a
    uniformly random legal action, until the end."""
    import pyspiel  # dev-only tool (make bench installs it)

    if name.startswith("python_"):
        import open_spiel.python.games  # noqa: F401  registers the Python games

    game = pyspiel.load_game(name)
    rng = random.Random(0)
    hands, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
            state.apply_action(action)
        hands += 1
    return hands / (time.perf_counter() - started)


def openspiel(seconds: float) -> None:
    print("== compared with OpenSpiel (random playouts, hands per second, one core) ==")
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("OpenSpiel is not installed: `make bench` installs it (pip install -e '.[bench]')")
        return
    for ours, players, options, theirs in OPENSPIEL:
        mine = _our_hands_per_second(ours, players, options, seconds)
        other = _openspiel_hands_per_second(theirs, seconds)
        print(
            f"{ours:>9} {options or ''!s:<24} tavola {mine:8.1f} hands/s | OpenSpiel "
            f"{theirs:<22} {other:8.1f} hands/s | ratio tavola/OpenSpiel {mine / other:5.2f}"
        )


def arenas(deals: int, samples: int, games: list[str], jobs: int = 1) -> None:
    """Each bot level against the one below, per game (duplicate deals, rotated seats)."""
    import importlib

    from tavola.bots.arena import DecisionTimes, pairing
    from tavola.bots.interface import Budget

    print(
        f"== bot arenas: {deals or 'per-game'} deals x 2 rotations per pairing, master budget "
        f"{samples or 'per-game'} samples =="
    )
    times = DecisionTimes()
    for name in games:
        game = registry.get(name)
        module = registry._GAMES[name].split(":")[0]
        try:
            table = getattr(importlib.import_module(f"{module}.bots"), "ARENA", {})
        except ModuleNotFoundError:
            print(f"{name:>11}: no bots yet")
            continue
        players = table.get("players", 4 if game.info.min_players <= 4 else game.info.min_players)
        planned = table.get("deals", 20)  # an int, or per pairing: {"hard/medium": 2000}
        options = table.get("options", {})
        budget = Budget(samples=samples or int(table.get("master_samples", 40)))
        for better, worse in (("medium", "easy"), ("hard", "medium"), ("master", "hard")):
            count = deals or int(
                planned.get(f"{better}/{worse}", 20) if isinstance(planned, dict) else planned
            )
            result = pairing(
                game,
                players,
                options,
                better,
                worse,
                count,
                budget,
                clock=time.perf_counter,
                times=times,
                jobs=jobs,
            )
            note = f"  (master: {budget.samples} deals)" if better == "master" else ""
            print(result.line() + note, flush=True)
    for level, samples_ in sorted(times.by_level.items()):
        q = statistics.quantiles(samples_, n=100) if len(samples_) > 1 else [samples_[0]] * 99
        print(
            f"decision time {level:>6}: p50 {q[49] * 1000:8.2f} ms  p99 {q[98] * 1000:8.2f} ms"
            f"  (n={len(samples_)})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(prog="tavola.bench")
    parser.add_argument("--seconds", type=float, default=3.0, help="per pure benchmark")
    parser.add_argument("--tables", default="1,8,32", help="concurrent tables, e2e")
    parser.add_argument("--skip-e2e", action="store_true")
    parser.add_argument(
        "--arena-deals",
        type=int,
        default=0,
        help="deals per pairing (default: each game's ARENA['deals'])",
    )
    parser.add_argument(
        "--master-samples",
        type=int,
        default=0,
        help="master's sampled deals per decision (default: each game's ARENA, else 40)",
    )
    parser.add_argument("--arena-games", default=",".join(registry.names()))
    parser.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="processes per arena pairing (deals are split; results are the same)",
    )
    parser.add_argument("--only", default="", help="pure,openspiel,e2e,arena (default all)")
    args = parser.parse_args()
    parts = set(args.only.split(",")) if args.only else {"pure", "openspiel", "e2e", "arena"}
    if "pure" in parts:
        pure(args.seconds)
    if "openspiel" in parts:
        openspiel(args.seconds)
    if "e2e" in parts and not args.skip_e2e:
        e2e([int(t) for t in args.tables.split(",")])
    if "arena" in parts:
        arenas(args.arena_deals, args.master_samples, args.arena_games.split(","), args.jobs)


if __name__ == "__main__":
    main()
