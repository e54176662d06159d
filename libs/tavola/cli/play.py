"""``tavola play GAME`` — a person at a table of bots, in the terminal, over the public API;
``tavola play --match ID`` — back to a match the user holds a seat in.

The seat's credentials are kept in the user's match file (``matchbook``) as soon as the
match starts, so a closed terminal, a Ctrl-C or ``q`` → pause loses nothing: the view is
fetched at the current version, then the stream follows from that version. ``q`` → leave
calls ``LeaveMatch`` (a bot takes the seat, or the rule book decides). The screen itself is
``screen.render``; the two front-ends are in ``terminal``.
"""

from __future__ import annotations

import argparse
import getpass
import sys
import time
import uuid

import grpc
from rich.console import Console

from tavola.cli import matchbook
from tavola.cli.client import Client, default_address
from tavola.cli.errors import CliError, rpc_line
from tavola.cli.gameinfo import (
    check_options,
    check_players,
    default_players,
    find,
    games_or_local,
    remote_games,
    table_error,
    table_options,
)
from tavola.cli.matchbook import Kept
from tavola.cli.session import Session
from tavola.cli.standings import lines as standing_lines
from tavola.cli.standings import teams_of
from tavola.cli.terminal import interactive, run_lines, run_live
from tavola.cli.texts import game_title, t
from tavola.v1 import game_pb2, lobby_pb2

ME = 0


def leave_note(game: str, locale: str) -> str:
    """What leaving means at this game's table (its rule book)."""
    return t("leave.doppelkopf" if game == "doppelkopf" else "leave.bot", locale)


def start(client: Client, address: str, args: argparse.Namespace) -> Kept:
    """A new table: the person at seat 0, bots in the others; the seat is kept at once."""
    locale = args.locale
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
    kept = Kept(match_id, args.game, sat.seat, sat.seat_token, table.table_id, time.time())
    matchbook.remember(address, kept)
    print(
        t(
            "play.started",
            locale,
            game=game_title(info.name, info.title, locale),
            seat=sat.seat,
            bots=players - 1,
            level=args.level,
            match=match_id,
        ),
        flush=True,
    )
    if table.house_rules:
        print(t("play.house_rules", locale, rules=", ".join(table.house_rules)), flush=True)
    return kept


def rejoin(address: str, match_id: str, locale: str) -> Kept:
    """The kept seat of a match (a unique prefix of its id is enough)."""
    found = matchbook.find(address, match_id)
    if not found:
        raise CliError(t("error.no_kept_match", locale, match=match_id, address=address))
    if len(found) > 1:
        ids = ", ".join(k.match_id for k in found[:4])
        raise CliError(t("error.ambiguous_match", locale, match=match_id, ids=ids), 2)
    kept = found[0]
    if kept.status == "left":
        raise CliError(t("error.left_match", locale, match=kept.match_id))
    return kept


def play(args: argparse.Namespace) -> int:
    locale = args.locale
    address = args.address or default_address()
    if not args.match and not args.game:
        raise CliError(t("error.play_what", locale), 2)
    client = Client.connect(address)
    session: Session | None = None
    kept: Kept | None = None
    try:
        kept = rejoin(address, args.match, locale) if args.match else start(client, address, args)
        games, _ = games_or_local(client, locale)
        info = next((g for g in games if g.name == kept.game), None)
        session = Session(
            client,
            kept,
            locale,
            title=game_title(kept.game, info.title if info else kept.game, locale),
            lower_wins=info.lower_score_wins if info else None,
            leave_note=leave_note(kept.game, locale),
        )
        session.start()
        outcome = run_live(session, Console()) if interactive() else run_lines(session)
        session.stop()
        return finish(client, address, session, outcome)
    except KeyboardInterrupt:
        if kept is None:
            raise
        print(t("play.interrupted", locale, match=kept.match_id), file=sys.stderr)
        return 130
    except grpc.RpcError as error:
        if kept is None:
            raise
        reason = rpc_line(error, locale, address)
        raise CliError(t("play.lost", locale, reason=reason, match=kept.match_id)) from None
    finally:
        if session is not None:
            session.stop()
        client.close()


def finish(client: Client, address: str, session: Session, outcome: str) -> int:
    kept, locale = session.kept, session.locale
    if outcome == "left":
        matchbook.mark(address, kept.match_id, "left")
        who = session.left_by
        note = t("play.left_bot", locale, level=who) if who else session.leave_note
        print(t("play.left", locale, match=kept.match_id, note=note))
        return 0
    if outcome == "paused":
        print(t("play.paused", locale, match=kept.match_id))
        return 0
    if outcome == "lost":
        print(t("play.lost", locale, reason=session.lost, match=kept.match_id), file=sys.stderr)
        return 1
    matchbook.mark(address, kept.match_id, "finished")
    match = client.game.GetMatch(game_pb2.GetMatchRequest(match_id=kept.match_id), timeout=10)
    teams = teams_of(kept.game, session.view.view, len(match.standings))
    lower = bool(session.lower_wins)
    for line in standing_lines(match.standings, teams, lower, locale):
        print(line)
    print(kept.match_id)
    return 0
