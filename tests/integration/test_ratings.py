"""Ratings on real Postgres: a log projection in global order, rebuilt identically."""

from __future__ import annotations

import asyncpg
import pytest

from services.engine.app import Engine, Ports
from services.scoring.app import ensure_schema
from services.scoring.ratings import RatingsProjection
from support.engine import FixedClock, account
from support.referee import play_people as play
from tavola.eventlog.postgres import PostgresEventStore

pytestmark = pytest.mark.integration


class Seeds:
    async def seed(self, match_id: str) -> bytes:
        return match_id.encode().ljust(32, b"-")[:32]


async def engine_on(pool: asyncpg.Pool, first_id: int) -> tuple[Engine, PostgresEventStore]:
    """An engine on the real event log (event ids counted from ``first_id``)."""
    import itertools
    import uuid

    await ensure_schema(pool)
    store = PostgresEventStore(pool, clock=FixedClock())
    ids = itertools.count(first_id)
    engine = Engine(
        Ports(
            store=store,
            seeds=Seeds(),
            new_id=lambda: uuid.UUID(int=next(ids)),
            salt=lambda n: bytes(n),
            now_ms=lambda: 0,
        )
    )
    return engine, store


async def test_ratings_follow_results_and_a_rebuild_gives_the_same_values(pool: asyncpg.Pool):
    engine, store = await engine_on(pool, first_id=1)
    for m in range(3):
        await play(engine, f"m{m}", ["ana", "bia", "caio", "duda"])
    await play(engine, "spades-1", ["ana", "bia", "caio", "duda"], game="spades")
    projection = RatingsProjection(pool, store)
    await projection.catch_up()
    live = await pool.fetch("SELECT * FROM ratings ORDER BY game, player")
    assert {r["name"] for r in live} == {"ana", "bia", "caio", "duda"}
    assert {r["player"] for r in live} == {account(seat) for seat in range(4)}  # accounts
    assert all(r["matches"] == 3 for r in live if r["game"] == "fan-tan")
    spades = {r["name"]: r["mu"] for r in live if r["game"] == "spades"}
    assert spades["ana"] == spades["caio"] and spades["bia"] == spades["duda"]  # partners
    await projection.rebuild()
    assert await pool.fetch("SELECT * FROM ratings ORDER BY game, player") == live


async def test_a_rebuild_while_the_service_runs_gives_the_same_ratings(pool: asyncpg.Pool):
    """The live projector keeps running (and matches keep ending) during a rebuild: the
    rebuild holds the projection's lock, the live one waits and then skips what is done."""
    import asyncio

    engine, store = await engine_on(pool, first_id=10_000)
    names = ["eva", "gil", "ivo", "lia"]
    for m in range(3):
        await play(engine, f"r{m}", names)
    live = RatingsProjection(pool, store)
    stop = asyncio.Event()
    running = asyncio.create_task(live.run(stop, poll=0.01))
    await asyncio.sleep(0.2)
    more = asyncio.create_task(play(engine, "r3", names))
    for _ in range(3):  # rebuilds race the live projector and the fourth match
        await RatingsProjection(pool, store).rebuild()
    await more
    await asyncio.sleep(0.3)
    stop.set()
    await running  # the live projector never failed
    query = "SELECT * FROM ratings WHERE name = ANY($1) ORDER BY player"
    after = await pool.fetch(query, names)
    await RatingsProjection(pool, store).rebuild()
    clean = await pool.fetch(query, names)
    assert after == clean and all(r["matches"] == 4 for r in clean)


async def play_doppelkopf(
    engine: Engine, clock: list[int], match_id: str, names: list[str]
) -> None:
    """A short Doppelkopf match of people, each playing a random legal action (the pause
    between games waited out on the engine's clock)."""
    import hashlib
    import random

    from support.engine import SPECTATOR_CALLER, player, token
    from tavola.v1 import game_pb2, internal_pb2

    seats = [
        internal_pb2.MatchSeat(
            seat=i,
            player_name=n,
            token_sha256=hashlib.sha256(token(i).encode()).hexdigest(),
            account_id=account(i),
        )
        for i, n in enumerate(names)
    ]
    await engine.create_match(
        internal_pb2.CreateMatchRequest(
            match_id=match_id,
            table_id="t",
            game="doppelkopf",
            seats=seats,
            options={"match": "1_round"},
        )
    )
    rng = random.Random(match_id)
    for n in range(10_000):
        view = await engine.view(
            game_pb2.GetViewRequest(match_id=match_id, seat=-1), SPECTATOR_CALLER
        )
        if view.finished:
            return
        if not view.to_act:
            clock[0] += 60_000
            await engine.fire_due()
            continue
        seat = view.to_act[0]
        mine = await engine.view(
            game_pb2.GetViewRequest(match_id=match_id, seat=seat, seat_token=token(seat)),
            player(seat),
        )
        await engine.submit(
            game_pb2.SubmitActionRequest(
                match_id=match_id,
                seat=seat,
                seat_token=token(seat),
                command_id=f"{match_id}-{n}",
                action=rng.choice(mine.legal_actions).code,
            ),
            player(seat),
        )
    raise AssertionError(f"{match_id} did not finish")


async def one_update_after_another(
    store: PostgresEventStore, match_ids: list[str]
) -> dict[str, tuple[float, float]]:
    """Doppelkopf's ratings by hand: every scored game of every match in turn, one
    openskill update each, from the whole streams."""
    from openskill.models import PlackettLuce

    from tavola.leagues.rating import model_parameters, rated_games
    from tavola.protocol import events as codec

    model = PlackettLuce(**model_parameters("doppelkopf"), limit_sigma=True)
    ratings: dict[str, object] = {}
    for match_id in match_ids:
        stored = await store.read_stream(f"match-{match_id}")
        events = [codec.decode_payload("doppelkopf", s.type, s.payload) for s in stored]
        for rated in rated_games(events[0], events, league=False):
            teams = [[ratings.get(k) or model.rating(name=k) for k in t] for t in rated.teams]
            new = model.rate(teams, ranks=list(rated.ranks))
            for team, updated in zip(rated.teams, new, strict=True):
                ratings.update(zip(team, updated, strict=True))
    return {key: (r.mu, r.sigma) for key, r in ratings.items()}


async def test_doppelkopf_rates_each_game_in_turn_and_a_rebuild_gives_the_same(
    pool: asyncpg.Pool,
):
    """The projection works a match's games out in memory and writes once: the very values
    of one update after another, each game in the history, a match counted once — live,
    after a referee voids a hand (re-rated from the first match), and rebuilt."""
    import itertools
    import uuid

    from services.engine.app import Ports
    from support.engine import FixedClock
    from support.referee import REFEREE, _Seeds
    from tavola.v1 import audit_pb2

    await ensure_schema(pool)
    store = PostgresEventStore(pool, clock=FixedClock())
    ids = itertools.count(20_000)
    clock = [0]
    engine = Engine(
        Ports(
            store=store,
            seeds=_Seeds(),
            new_id=lambda: uuid.UUID(int=next(ids)),
            salt=lambda n: bytes(n),
            now_ms=lambda: clock[0],
        )
    )
    names = ["ana", "bia", "caio", "duda"]
    matches = ["dk0", "dk1", "dk2"]
    for match_id in matches:
        await play_doppelkopf(engine, clock, match_id, names)
    projection = RatingsProjection(pool, store)
    await projection.catch_up()
    query = "SELECT player, mu, sigma, matches FROM ratings WHERE game = 'doppelkopf'"
    live = await pool.fetch(query + " ORDER BY player")
    expected = await one_update_after_another(store, matches)
    assert {r["player"]: (r["mu"], r["sigma"]) for r in live} == expected
    assert all(r["matches"] == 3 for r in live)
    games = await pool.fetch(
        "SELECT DISTINCT match_id, game_no FROM rating_history WHERE game = 'doppelkopf'"
    )
    assert len(games) > len(matches)  # a row per scored game

    await engine.file_correction(
        audit_pb2.FileCorrectionRequest(
            match_id="dk0", kind="void_hand", hand=1, reason="misdeal", command_id="v1"
        ),
        REFEREE,
    )
    await projection.catch_up()
    corrected = await pool.fetch(query + " ORDER BY player")
    assert corrected != live
    history = "SELECT * FROM rating_history WHERE game = 'doppelkopf' ORDER BY 1, 2, 3, 4"
    both = (corrected, await pool.fetch(history))
    await projection.rebuild()
    assert (await pool.fetch(query + " ORDER BY player"), await pool.fetch(history)) == both
