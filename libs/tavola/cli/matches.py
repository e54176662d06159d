"""``tavola matches``: the matches the user holds a seat in (the match file, see
``matchbook``), open ones first, each with its state on the platform (``GetMatch``) and
how to come back to it."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass

import grpc

from tavola.cli import matchbook
from tavola.cli.client import Client, default_address
from tavola.cli.errors import code_of
from tavola.cli.matchbook import Kept
from tavola.cli.texts import t
from tavola.v1 import game_pb2

ORDER = {"open": 0, "left": 1, "finished": 2, "gone": 3}


@dataclass(frozen=True)
class Row:
    kept: Kept
    status: str  # open | left | finished | gone (the platform no longer knows it)
    version: int = 0
    rank: int = 0
    score: int | None = None


def rows(client: Client | None, kept: Sequence[Kept]) -> tuple[list[Row], bool]:
    """Each kept match with its state on the platform; False when it did not answer."""
    out = []
    reachable = client is not None
    for entry in kept:
        if not reachable or client is None:
            out.append(Row(entry, entry.status))
            continue
        try:
            match = client.game.GetMatch(
                game_pb2.GetMatchRequest(match_id=entry.match_id), timeout=5
            )
        except grpc.RpcError as error:
            if code_of(error) == grpc.StatusCode.NOT_FOUND:
                out.append(Row(entry, "gone"))
                continue
            reachable = False
            out.append(Row(entry, entry.status))
            continue
        mine = next((s for s in match.standings if s.seat == entry.seat), None)
        status = (
            entry.status if entry.status == "left" else ("finished" if match.finished else "open")
        )
        out.append(
            Row(
                entry, status, match.version, mine.rank if mine else 0, mine.score if mine else None
            )
        )
    return sorted(out, key=lambda r: ORDER.get(r.status, 9)), reachable


def line(row: Row, locale: str) -> str:
    status = t(f"matches.{row.status}", locale)
    standing = ""
    if row.score is not None:
        standing = t("matches.standing", locale, rank=row.rank, score=row.score)
    version = f"v{row.version}" if row.version else ""
    return (
        f"  {status:<10} {row.kept.game:<11} {row.kept.match_id}  "
        f"{t('seat.n', locale, n=row.kept.seat):<8} {version:<6} {standing}"
    ).rstrip()


def matches(args: argparse.Namespace) -> int:
    locale = args.locale
    address = args.address or default_address()
    kept = matchbook.matches(address)
    if not kept:
        print(t("matches.none", locale, address=address))
        return 0
    client = Client.connect(address)
    try:
        found, reachable = rows(client, kept)
    finally:
        client.close()
    print(t("matches.heading", locale, address=address, path=matchbook.path()))
    if not reachable:
        print(t("matches.unreachable", locale))
    for row in found:
        print(line(row, locale))
    if any(r.status == "open" for r in found):
        print(t("matches.come_back", locale))
    return 0
