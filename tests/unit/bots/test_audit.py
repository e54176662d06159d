"""Every bot decision re-derives from the log; an altered action, seed or version shows.

The match is played by the bot service's own ``BotPlayer`` against an in-memory engine,
through the same calls it makes in production (GetMatch, GetView, GetSeatEvents,
SubmitAction), so the log holds exactly what the real service records.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib

import pytest

from services.bots import app as bot_service
from services.bots.app import BotPlayer
from support.engine import account, bot_ports, engine_fixture, player, tell_turns, token
from tavola.bots import audit as audit_module
from tavola.bots import policy_version
from tavola.bots.audit import audit
from tavola.bots.interface import Knowledge
from tavola.bots.registry import policy_for
from tavola.eventlog.model import StoredEvent
from tavola.games.fantan import bots as fantan_bots
from tavola.match.events import option_texts
from tavola.protocol import events as codec
from tavola.protocol.envelopes import FULL, to_envelope
from tavola.protocol.errors import ServiceError
from tavola.rules import registry
from tavola.v1 import game_pb2, internal_pb2

LEVELS = ("easy", "medium", "hard", "master")
# a short match of each game (its GameInfo.short)
SHORT = {game: option_texts(registry.get(game).info.short) for game in registry.names()}


async def bot_match(game: str, options: dict[str, str], players: int = 4) -> list[StoredEvent]:
    """A match of bots of every level, each event delivered to the bot service in order."""
    fx = engine_fixture()
    seats = [
        internal_pb2.MatchSeat(
            seat=seat,
            player_name=f"Bot {seat}",
            is_bot=True,
            bot_level=LEVELS[seat % len(LEVELS)],
            token_sha256=hashlib.sha256(f"t{seat}".encode()).hexdigest(),
        )
        for seat in range(players)
    ]
    await fx.engine.create_match(
        internal_pb2.CreateMatchRequest(
            match_id="m1", table_id="t1", game=game, options=options, seats=seats
        )
    )
    bots = BotPlayer(bot_ports(fx, samples=6))
    delivered = 0
    while True:
        stored = await fx.store.read_stream("match-m1", delivered)
        if not stored:
            break
        for item in stored:
            await tell_turns(bots, to_envelope(item, FULL))
        delivered = stored[-1].version
    everything = await fx.store.read_stream("match-m1")
    assert everything[-1].type == "match.SeedRevealed", "the bots did not finish the match"
    return everything


@pytest.fixture(scope="module")
def fantan() -> list[StoredEvent]:
    return asyncio.run(bot_match("fan-tan", SHORT["fan-tan"]))


def bot_batches(stored: list[StoredEvent]) -> list[list[int]]:
    """Indexes of the events of each bot decision's batch."""
    batches: list[list[int]] = []
    previous = ""
    for index, item in enumerate(stored):
        cause = codec.decode_metadata(item.metadata).cause
        if cause.HasField("bot_decision"):
            if cause.command_id != previous:
                batches.append([])
            batches[-1].append(index)
        previous = cause.command_id
    return batches


def altered(stored: list[StoredEvent], indexes: list[int], **changes: object) -> list[StoredEvent]:
    """The log with the cause of some events changed (``bot_<field>`` for the decision)."""
    out = list(stored)
    for index in indexes:
        metadata = codec.decode_metadata(out[index].metadata)
        for name, value in changes.items():
            if name.startswith("bot_"):
                setattr(metadata.cause.bot_decision, name.removeprefix("bot_"), value)
            else:
                setattr(metadata.cause, name, value)
        out[index] = dataclasses.replace(out[index], metadata=metadata.SerializeToString())
    return out


def test_every_decision_of_a_fan_tan_match_of_all_levels_re_derives(fantan):
    report = audit(fantan)
    assert report.checked == len(bot_batches(fantan)) > 20
    assert report.equal == report.checked and not report.mismatches and not report.skipped
    assert report.line().endswith("; 0 differ")


class Recorder:
    """Wraps ``policy_for``: notes every call a policy gets (knowledge, legal, seed, work)."""

    def __init__(self) -> None:
        self.calls: list[tuple[Knowledge, tuple[object, ...], float, int]] = []

    def policy_for(self, game: str, level: str) -> object:
        calls, policy = self.calls, policy_for(game, level)

        class Recording:
            reads_view = policy.reads_view

            def decide(self, game, knowledge, legal, rng, budget):
                state = rng.getstate()
                calls.append((knowledge, tuple(legal), rng.random(), budget.samples))
                rng.setstate(state)
                return policy.decide(game, knowledge, legal, rng, budget)

        return Recording()


async def test_the_audit_gives_each_policy_exactly_what_the_bot_service_gave_it(monkeypatch):
    service, referee = Recorder(), Recorder()
    monkeypatch.setattr(bot_service.bots, "policy_for", service.policy_for)
    stored = await bot_match("fan-tan", SHORT["fan-tan"], players=3)
    monkeypatch.setattr(audit_module, "policy_for", referee.policy_for)
    report = audit(stored)
    assert report.checked == len(service.calls) == len(referee.calls) > 10
    for given, rederived in zip(service.calls, referee.calls, strict=True):
        assert given == rederived
    assert any(len(knowledge.history) > 10 for knowledge, *_ in referee.calls)


@pytest.mark.parametrize("game", registry.names())
async def test_every_decision_re_derives_in_every_game(game):
    stored = await bot_match(game, SHORT[game])
    report = audit(stored)
    assert report.checked == len(bot_batches(stored)) > 10
    assert report.differ == 0, report.mismatches


def test_an_altered_recorded_action_is_a_mismatch(fantan):
    batch = bot_batches(fantan)[5]
    cause = codec.decode_metadata(fantan[batch[0]].metadata).cause
    other = "KS" if cause.action != "KS" else "QS"
    report = audit(altered(fantan, batch, action=other))
    assert report.differ == 1
    [mismatch] = report.mismatches
    assert (mismatch.what, mismatch.recorded, mismatch.rederived) == ("action", other, cause.action)
    assert (mismatch.version, mismatch.seat) == (fantan[batch[0]].version - 1, cause.seat)


def test_an_altered_seed_is_a_mismatch(fantan):
    batch = bot_batches(fantan)[9]
    cause = codec.decode_metadata(fantan[batch[0]].metadata).cause
    report = audit(altered(fantan, batch, bot_rng_seed=cause.bot_decision.rng_seed ^ 1))
    assert report.differ == 1
    assert report.mismatches[0].what == "seed"
    assert report.mismatches[0].recorded == str(cause.bot_decision.rng_seed ^ 1)
    assert report.mismatches[0].rederived == str(cause.bot_decision.rng_seed)


def test_a_decision_of_another_policy_version_is_skipped_and_counted(fantan):
    batch = bot_batches(fantan)[3]
    report = audit(altered(fantan, batch, bot_policy_version=policy_version("fan-tan") + 1))
    assert len(report.skipped) == 1 and report.differ == 0
    assert report.checked == len(bot_batches(fantan)) - 1
    assert "1 skipped" in report.line()
    assert f"this is {policy_version('fan-tan')}" in report.line()


def test_a_new_version_of_one_games_bots_leaves_the_others_decisions_auditable(fantan, monkeypatch):
    spades = asyncio.run(bot_match("spades", SHORT["spades"]))
    newer = dataclasses.replace(
        fantan_bots.BOTS, policy_version=fantan_bots.BOTS.policy_version + 1
    )
    monkeypatch.setattr(fantan_bots, "BOTS", newer)
    assert audit(spades).skipped == () and audit(spades).differ == 0
    assert len(audit(fantan).skipped) == len(bot_batches(fantan)) and audit(fantan).checked == 0


def test_verify_re_derives_the_bots_unless_told_not_to(fantan, capsys):
    from tavola.cli.replay import check

    assert check(fantan) == 0
    assert f"{len(bot_batches(fantan))} bot decisions re-derived" in capsys.readouterr().out
    assert check(fantan, bots=False) == 0
    out = capsys.readouterr().out
    assert out.startswith("OK: ") and "not re-derived (--no-bots)" in out


async def practice_match_with_take_backs(game: str, options: dict[str, str]) -> list[StoredEvent]:
    """Seat 0 a person (first legal action; takes back every third move of theirs), the
    other seats the bot service's bots of every level; until the match ends."""
    fx = engine_fixture()
    seats = [
        internal_pb2.MatchSeat(
            seat=seat,
            player_name=f"P{seat}",
            is_bot=seat != 0,
            bot_level="" if seat == 0 else LEVELS[seat % len(LEVELS)],
            token_sha256=hashlib.sha256(token(seat).encode()).hexdigest(),
            account_id=account(seat) if seat == 0 else "",
        )
        for seat in range(4)
    ]
    await fx.engine.create_match(
        internal_pb2.CreateMatchRequest(
            match_id="m1", table_id="t1", game=game, options=options, seats=seats
        )
    )
    bots = BotPlayer(bot_ports(fx, samples=6))
    delivered, moves, taken_back = 0, 0, 0
    for _ in range(5000):
        stored = await fx.store.read_stream("match-m1", delivered)
        for item in stored:
            await tell_turns(bots, to_envelope(item, FULL))
        delivered = stored[-1].version if stored else delivered
        spectator = await fx.view("m1", -1)
        if spectator.finished:
            return await fx.store.read_stream("match-m1")
        if 0 not in spectator.to_act:
            continue
        moves += 1
        if moves % 3 == 0:
            try:
                await fx.engine.take_back(
                    game_pb2.TakeBackRequest(
                        match_id="m1", seat=0, seat_token=token(0), command_id=f"tb{moves}"
                    ),
                    player(0),
                )
                taken_back += 1
                continue
            except ServiceError:
                pass  # nothing to take back in this hand yet
        await fx.act("m1", 0, (await fx.view("m1", 0)).legal_actions[0].code)
    raise AssertionError(f"the match did not end ({taken_back} take-backs)")


@pytest.mark.parametrize("game", ["fan-tan", "spades"])
def test_bots_after_a_take_back_know_only_what_was_not_taken_back(game):
    stored = asyncio.run(practice_match_with_take_backs(game, SHORT[game]))
    taken = [s for s in stored if s.type == "match.MovesTakenBack"]
    assert taken, "no move was taken back"
    report = audit(stored)
    assert report.checked == len(bot_batches(stored)) and report.differ == 0, report.line()
