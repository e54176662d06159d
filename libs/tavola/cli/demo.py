"""``tavola demo GAME``: a table with every seat a bot, watched to the end over gRPC.

While the bots play, a progress display on stderr counts the moves and the hands (deals,
games) — with a bar when the match has a known length — so a master-level match is never
silent; through a pipe, a line every few seconds instead. stdout keeps the summary: the
standings with teams and which way the score counts, the seed, and the match id last.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import Any

import grpc

from tavola.cli.client import Client, default_address
from tavola.cli.gameinfo import (
    check_options,
    check_players,
    default_players,
    find,
    remote_games,
    table_error,
    table_options,
)
from tavola.cli.notation import values
from tavola.cli.progress import Bars
from tavola.cli.standings import lines as standing_lines
from tavola.cli.standings import teams_of
from tavola.cli.texts import game_title, t
from tavola.v1 import events_pb2, game_pb2, lobby_pb2

SEATED = (events_pb2.CAUSE_KIND_ACTION, events_pb2.CAUSE_KIND_TIMEOUT)
ROUNDS = {"HandStarted": "hand", "DealStarted": "deal", "GameStarted": "deal"}


def count_moves(envelopes: list[events_pb2.EventEnvelope]) -> int:
    """Moves are the appends caused by a seat (an action or a timed-out seat's automatic
    move); an append ends at ``last_in_batch`` — for the last move, on a later system
    event (the seed's reveal), so counting ``last_in_batch`` events misses it."""
    return sum(1 for e in batches(envelopes) if e.cause.kind in SEATED)


def batches(envelopes: list[events_pb2.EventEnvelope]) -> Iterator[events_pb2.EventEnvelope]:
    """The first event of each append."""
    starts = True
    for envelope in envelopes:
        if starts:
            yield envelope
        starts = envelope.last_in_batch


def round_total(game: str, view: dict[str, Any]) -> int | None:
    """The match's planned number of hands/deals, when its view tells (else open-ended)."""
    planned = view.get("hands_in_match") or view.get("deals_in_session")
    return int(planned) if isinstance(planned, int) and planned > 0 else None


def demo(args: argparse.Namespace) -> int:
    locale = args.locale
    client = Client.connect(args.address or default_address())
    try:
        info = find(remote_games(client, locale), args.game, locale)
        options = table_options(args.option, args.preset, args.mode)
        check_options(info, options, locale)
        check_players(info, args.players, locale)
        players = args.players or default_players(args.game, options)
        try:
            table = client.lobby.CreateTable(
                lobby_pb2.CreateTableRequest(game=args.game, players=players, options=options)
            ).table
        except grpc.RpcError as error:
            raise table_error(error, info, locale) or error from None
        print(
            t(
                "demo.table",
                locale,
                table=table.table_id,
                game=game_title(info.name, info.title, locale),
                players=players,
                level=args.level,
                commitment=table.seed_commitment,
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
        print(t("demo.started", locale, match=match_id), flush=True)
        envelopes = _watch(client, match_id, args.game, locale)
        match = client.game.GetMatch(game_pb2.GetMatchRequest(match_id=match_id))
        view = client.game.GetView(game_pb2.GetViewRequest(match_id=match_id, seat=-1))
    finally:
        client.close()
    print(t("demo.finished", locale, moves=count_moves(envelopes), events=match.version))
    teams = teams_of(args.game, view.view, len(match.standings))
    for line in standing_lines(match.standings, teams, info.lower_score_wins, locale):
        print(line)
    print(t("demo.seed", locale, seed=match.seed, commitment=match.seed_commitment))
    print(match_id)
    return 0


def _watch(client: Client, match_id: str, game: str, locale: str) -> list[events_pb2.EventEnvelope]:
    first = client.game.GetView(game_pb2.GetViewRequest(match_id=match_id, seat=-1))
    envelopes: list[events_pb2.EventEnvelope] = []
    moves = round_number = 0
    starts = True
    with Bars() as bars:
        bars.add("moves", t("demo.moves", locale))
        rounds = "demo.deals" if game in ("barbu", "doppelkopf") else "demo.rounds"
        bars.add("rounds", t(rounds, locale), round_total(game, values(first.view)))
        for item in client.game.StreamEvents(
            game_pb2.StreamEventsRequest(match_id=match_id, seat=-1, until_end=True)
        ):
            envelope = item.event
            envelopes.append(envelope)
            if starts and envelope.cause.kind in SEATED:
                moves += 1
                bars.update("moves", moves)
            starts = envelope.last_in_batch
            name = envelope.type.split(".", 1)[-1]
            if name in ROUNDS and not envelope.hidden:
                number = values(envelope.payload).get(ROUNDS[name])
                round_number = number if isinstance(number, int) else round_number + 1
                bars.update("rounds", round_number)
    return envelopes
