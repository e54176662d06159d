"""Ratings on real Postgres: a log projection in global order, rebuilt identically."""

from __future__ import annotations

import asyncpg
import pytest

from services.scoring.ratings import RatingsProjection
from support.engine import account
from support.referee import play_people as play
from support.referee import postgres_engine as engine_on
from tavola.eventlog.postgres import PostgresEventStore

pytestmark = pytest.mark.integration


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
    from support.referee import REFEREE
    from tavola.v1 import audit_pb2

    clock = [0]
    engine, store = await engine_on(pool, first_id=20_000, now_ms=lambda: clock[0])

    async def pause_passes() -> None:  # the pause between games, on the engine's clock
        clock[0] += 60_000
        await engine.fire_due()

    names = ["ana", "bia", "caio", "duda"]
    matches = ["dk0", "dk1", "dk2"]
    for match_id in matches:
        await play(engine, match_id, names, "doppelkopf", {"match": "1_round"}, pause_passes)
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
