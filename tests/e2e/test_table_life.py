"""A person's client goes silent mid-game, with the services as processes: the table keeps
moving on the timers, the seat is marked away, the leaver rule applies (Barbu: a marked bot
takes the seat and plays on; Doppelkopf: the game ends unscored), and the engine's log has
no repeated failure and stays small."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from support.platform import bot_table, eventually, match_state, running_platform
from tavola.cli.client import Client
from tavola.cli.platform import Platform
from tavola.infra.local import LocalInfra
from tavola.v1 import game_pb2

pytestmark = pytest.mark.e2e
FAST_TIMERS = {
    "barbu": {"timer_contract": "5", "timer_double": "5", "timer_card": "5", "timer_domino": "5"},
    "doppelkopf": {
        "timer_reservation": "5",
        "timer_poverty": "5",
        "timer_return": "5",
        "timer_card": "5",
    },
}


@pytest.fixture(scope="module")
def quick_platform(
    infra: LocalInfra, database_url: str, nats_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Platform]:
    with running_platform(
        database_url,
        nats_url,
        tmp_path_factory.mktemp("life"),
        infra.nats_service_urls(),
        extra_env={"TAVOLA_AWAY_GRACE_SECONDS": "3", "TAVOLA_AWAY_MOVES": "2"},
    ) as running:
        yield running


def events_of(client: Client, match_id: str) -> list:
    return [
        item.event
        for item in client.game.StreamEvents(
            game_pb2.StreamEventsRequest(match_id=match_id, seat=-1), timeout=2
        )
    ]


def read(client: Client, match_id: str) -> list:
    seen: list = []
    try:
        for item in client.game.StreamEvents(
            game_pb2.StreamEventsRequest(match_id=match_id, seat=-1), timeout=3
        ):
            seen.append(item.event)
    except Exception:  # the deadline ends the live part of the stream
        pass
    return seen


@pytest.mark.parametrize("game", ["barbu", "doppelkopf"])
def test_a_silent_person_is_marked_away_and_the_leaver_rule_keeps_the_table_alive(
    quick_platform: Platform, game: str
):
    client = Client.connect(quick_platform.address, quick_platform.token)
    match_id, _ = bot_table(client, game, 4, FAST_TIMERS[game], humans=1, think_ms=5)
    # the person's client says nothing more from here on

    def left() -> list | None:
        events = read(client, match_id)
        return events if any(e.type == "match.SeatLeft" for e in events) else None

    events = eventually(left, timeout=150, every=2)
    types = [e.type for e in events]
    assert types.index("match.SeatAway") < types.index("match.SeatLeft")
    automatic = [e.cause.kind == 4 and e.cause.seat == 0 for e in events]
    moves_made_for_them = sum(
        a and not b for a, b in zip(automatic, [False, *automatic[:-1]], strict=True)
    )
    assert moves_made_for_them >= 2
    if game == "barbu":  # a bot plays the seat on, always marked
        match = match_state(client, match_id)
        assert match.seats[0].is_bot and match.seats[0].bot_level

        def bot_moved() -> bool:
            after = read(client, match_id)
            leave = max(i for i, e in enumerate(after) if e.type == "match.SeatLeft")
            return any(e.cause.seat == 0 and e.cause.by_bot for e in after[leave:])

        eventually(bot_moved, timeout=120, every=2)
    else:  # the game ends unscored; with three left, the match is over
        assert "doppelkopf.GameAbandoned" in types or "doppelkopf.PlayerLeft" in types
        eventually(lambda: match_state(client, match_id).finished, timeout=60)
    log = (quick_platform.log_dir / "engine.log").read_text()  # type: ignore[operator]
    assert "timer.broken" not in log and "Traceback" not in log
    assert len(log) < 2_000_000
