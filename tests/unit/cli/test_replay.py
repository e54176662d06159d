"""``tavola replay --file``: a record replayed offline, whole or as one seat saw it.

The records are whole matches of every game played by the engine on the in-memory log (one
move of seat 1 made automatically when its time ran out). As seat N the replay is exactly
what the live game served that seat — every event as the engine's stream redacts it, every
view as ``GetView`` answers it at that version — and its text never shows another seat's
hidden cards or tiles, a seat's credentials or a token.
"""

from __future__ import annotations

import asyncio
import builtins
import functools
import hashlib
import io
import re
import string
import sys
from pathlib import Path

import pytest
from google.protobuf import json_format

from support.engine import engine_fixture, player, token
from tavola.accounts.model import KIND_SCOPES, Kind, Principal
from tavola.cli import main as cli
from tavola.cli import perspective
from tavola.cli.happenings import event_name
from tavola.cli.notation import item_text, values
from tavola.cli.replay_texts import TEXTS
from tavola.cli.texts import t
from tavola.eventlog.model import StoredEvent
from tavola.match.events import option_texts
from tavola.protocol import records_export
from tavola.protocol.envelopes import FULL, SPECTATOR
from tavola.rules import registry
from tavola.rules.cards import Card
from tavola.rules.tiles import Tile
from tavola.v1 import game_pb2

# a short match of each game (its GameInfo.short)
SHORT = {game: option_texts(registry.get(game).info.short) for game in registry.names()}
GAMES = registry.names()
REFEREE = Principal("00000000-0000-4000-8000-00000000aaaa", "ref", Kind.REFEREE,
                    KIND_SCOPES[Kind.REFEREE], "tr")  # fmt: skip


async def played(game: str):
    """A finished match of four people (first legal action each; seat 1's first move made
    by the engine when its time ran out; pauses waited out) and its engine."""
    fx = engine_fixture()
    await fx.create(game=game, players=4, options=SHORT[game])
    timed_out = False
    for _ in range(5000):
        spectator = await fx.view("m1", -1)
        if spectator.finished:
            return fx
        if not spectator.to_act or (not timed_out and 1 in spectator.to_act):
            timed_out = timed_out or bool(spectator.to_act)
            fx.now.ms += 600_000
            await fx.engine.fire_due()
            continue
        seat = spectator.to_act[0]
        await fx.act("m1", seat, (await fx.view("m1", seat)).legal_actions[0].code)
    raise AssertionError(f"{game}: the match did not end")


@functools.cache
def record(game: str) -> tuple[StoredEvent, ...]:
    async def stored() -> list[StoredEvent]:
        fx = await played(game)
        return await fx.store.read_stream("match-m1")

    return tuple(asyncio.run(stored()))


@pytest.fixture(autouse=True)
def private_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TAVOLA_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.delenv("TAVOLA_LOCALE", raising=False)
    return tmp_path


def record_file(game: str, folder: Path) -> str:
    exported = game_pb2.ExportMatchResponse(
        format=records_export.FORMAT,
        match_id="m1",
        events=[records_export.to_record(s) for s in record(game)],
    )
    path = folder / f"{game}.json"
    path.write_text(json_format.MessageToJson(exported, indent=1))
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    capsys.readouterr()  # not what came before (the engine's log while a record was made)
    try:
        code = cli.main(["replay", *args])
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def dealt(game: str) -> dict[int, list[tuple[int, list[Card | Tile]]]]:
    """Per hand, each seat's dealt cards or tiles (from the full record)."""
    replay = perspective.from_stored(list(record(game)), FULL)
    out: dict[int, list[tuple[int, list[Card | Tile]]]] = {}
    for envelope, hand in zip(replay.envelopes, perspective.hands_of(replay), strict=True):
        if event_name(envelope) == "HandDealt":
            fields = values(envelope.payload)
            items = fields.get("cards", fields.get("tiles")) or []
            out.setdefault(hand, []).append((int(fields["seat"]), list(items)))
    return out


def labels(items: list[Card | Tile]) -> set[str]:
    return {item_text(i).plain for i in items}


# ----- the same projection as the live game -----------------------------------------------
@pytest.mark.parametrize("game", GAMES)
async def test_a_seat_s_replay_is_what_the_engine_served_that_seat_event_for_event(game):
    fx = await played(game)
    stored = await fx.store.read_stream("match-m1")
    for seat in (0, 2):
        replay = perspective.from_stored(stored, seat, "en")
        served = await fx.engine.events_after("m1", seat, 0, locale="en")
        assert replay.envelopes == served
        assert any(e.hidden for e in replay.envelopes)
        for envelope, kept in zip(replay.envelopes, stored, strict=True):
            if kept.audience is not None and seat not in kept.audience:
                assert envelope.hidden and not envelope.payload.fields
        for version in sorted({*range(1, len(stored), 9), len(stored)}):
            request = game_pb2.GetViewRequest(
                match_id="m1", seat=seat, seat_token=token(seat), at_version=version
            )
            answer = await fx.engine.view(request, player(seat))
            answer.ClearField("blocked")  # reasons are help for the one deciding, not a view
            assert replay.view_at(version, seat) == answer, version
            # a referee of the finished match reads the very same view without a seat token
            request.seat_token = ""
            by_referee = await fx.engine.view(request, REFEREE)
            by_referee.ClearField("blocked")
            assert by_referee == answer


# ----- what the text shows ----------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_as_seat_n_the_text_never_shows_another_seat_s_hidden_cards(game, tmp_path, capsys):
    path = record_file(game, tmp_path)
    hands = dealt(game)
    for seat in (1, 3):
        replay = perspective.from_stored(list(record(game)), seat)
        snapshots = [i for i in perspective.render(replay) if i.snapshot]
        assert snapshots, "the table is shown once each hand is dealt"
        in_hand = dict(enumerate(perspective.hands_of(replay), start=1))
        for item in snapshots:
            text = "\n".join(line.plain for line in item.lines)
            deals = hands[in_hand[item.snapshot]]
            mine = labels([c for s, items in deals if s == seat for c in items])
            theirs = labels([c for s, items in deals if s != seat for c in items]) - mine
            assert mine and all(label in text for label in mine)
            assert not [label for label in theirs if label in text], item.snapshot
        code, out, err = run(capsys, "--file", path, "--seat", str(seat))
        assert code == 0, err
        for other in range(4):
            if other != seat:
                told = t("event.HandDealt.other", "en", seat=t("seat.n", "en", n=other))
                assert told not in out
    # the full record shows every hand (so the check above has something to find)
    full = perspective.from_stored(list(record(game)), FULL)
    first = next(i for i in perspective.render(full) if i.snapshot)
    text = "\n".join(line.plain for line in first.lines)
    assert all(label in text for _, items in hands[1] for label in labels(items))


@pytest.mark.parametrize("game", GAMES)
def test_no_replay_shows_a_seat_s_credentials_or_a_token(game, tmp_path, capsys):
    path = record_file(game, tmp_path)
    secrets = [hashlib.sha256(token(s).encode()).hexdigest() for s in range(4)]
    for viewer in ([], ["--seat", "0"], ["--spectator"]):
        code, out, err = run(capsys, "--file", path, *viewer)
        assert code == 0, err
        assert "SeatCredentials" not in out and "Credentials" not in out
        assert not [s for s in secrets if s in out or s[:16] in out]
        assert "token-" not in out and "token_sha256" not in out


@pytest.mark.parametrize("game", GAMES)
def test_the_text_has_the_hands_moves_automatic_reasons_and_scores(game, tmp_path, capsys):
    code, out, err = run(capsys, "--file", record_file(game, tmp_path), "--seat", "1")
    assert code == 0, err
    assert out.startswith(f"match m1: {game}, 4 seats") and "as seat 1 saw it" in out
    assert "── hand 1 " in out and "your hand" in out
    assert "(automatic: time ran out)" in out and "why: Time ran out" in out
    assert "totals after hand 1:" in out
    assert re.search(r"final standings \((highest|lowest) score wins\):", out)
    pt = run(capsys, "--file", record_file(game, tmp_path), "--seat", "1", "--locale", "pt")[1]
    assert "como o lugar 1 a viu" in pt and "── mão 1 " in pt and "motivo: O tempo acabou" in pt


def test_the_header_names_the_seats_and_their_bot_levels():
    replay = perspective.from_stored(list(record("spades")), 0)
    replay.created["seats"][2].update(is_bot=True, bot_level="hard", player_name="Bot 2")
    header = "\n".join(line.plain for line in perspective.header(replay, "en"))
    assert "seat 2: Bot 2 (bot, hard)" in header and "seat 1: P1" in header


def test_hand_h_shows_only_that_hand(tmp_path, capsys):
    replay = perspective.from_stored(list(record("barbu")), 2)
    hands = perspective.hands_of(replay)
    assert max(hands) == 7  # one block: seven deals
    items = list(perspective.render(replay, hand=3))
    versions = [i.version for i in items if i.version]
    assert versions and all(hands[v - 1] == 3 for v in versions)
    code, out, _ = run(capsys, "--file", record_file("barbu", tmp_path), "--hand", "3")
    assert code == 0 and "── hand 3 " in out
    assert "── hand 2 " not in out and "── hand 4 " not in out
    assert "totals after hand 3:" in out and "totals after hand 2:" not in out
    code, _, err = run(capsys, "--file", record_file("barbu", tmp_path), "--hand", "8")
    assert code == 2 and "no hand 8 (it has 7)" in err and "Traceback" not in err


@pytest.mark.parametrize("game", GAMES)
def test_every_game_replays_hand_one_alone(game):
    replay = perspective.from_stored(list(record(game)), 0)
    hands = perspective.hands_of(replay)
    items = list(perspective.render(replay, hand=1))
    assert {hands[i.version - 1] for i in items if i.version} == {1}


@pytest.mark.parametrize("game", GAMES)
def test_from_version_starts_there_with_the_table_as_it_stood(game, tmp_path, capsys):
    stored = list(record(game))
    start = len(stored) // 2
    replay = perspective.from_stored(stored, 1)
    items = list(perspective.render(replay, from_version=start))
    assert items[1].snapshot == start  # right after the header: the table at V
    shown = [i.version for i in items if i.version]
    assert shown and min(shown) > start and shown == sorted(shown)
    code, out, _ = run(
        capsys, "--file", record_file(game, tmp_path), "--seat", "1", "--from-version", str(start)
    )
    assert code == 0 and f"the table at version {start}" in out
    code, _, err = run(
        capsys, "--file", record_file(game, tmp_path), "--from-version", str(len(stored) + 1)
    )
    assert code == 2 and "--from-version must be between 0 and" in err


def test_step_waits_for_enter_after_each_move_and_q_stops(tmp_path, capsys, monkeypatch):
    path = record_file("fan-tan", tmp_path)
    _, everything, _ = run(capsys, "--file", path, "--seat", "0", "--step")  # not a terminal
    assert everything == run(capsys, "--file", path, "--seat", "0")[1]

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    answers = iter(["", "", "q"])
    asked = []
    monkeypatch.setattr(sys, "stdin", Terminal())
    monkeypatch.setattr(builtins, "input", lambda prompt="": asked.append(prompt) or next(answers))
    code, out, _ = run(capsys, "--file", path, "--seat", "0", "--step")
    assert code == 0 and len(asked) == 3 and "Enter: next move" in asked[0]
    moves = [
        line for line in out.splitlines() if re.match(r"^ {0,4}\d+  \S.*(played|passed)", line)
    ]
    assert len(moves) == 3 and len(out) < len(everything)


def test_mistakes_are_one_line(tmp_path, capsys):
    path = record_file("spades", tmp_path)
    for args, says in (
        (["--file", path, "--seat", "4"], "there is no seat 4: the match has seats 0 to 3"),
        (["m1", "--file", path], "not both"),
        ([], "name a match (MATCH_ID) or an exported record"),
        (["--file", str(tmp_path / "nothing.json")], "nothing.json"),
    ):
        code, _, err = run(capsys, *args)
        lines = [line for line in err.splitlines() if line.strip()]
        assert code == 2 and len(lines) == 1 and says in lines[0], (args, err)
        assert "Traceback" not in err
    code, _, err = run(capsys, "--file", path, "--seat", "1", "--spectator")
    assert code == 2 and "not allowed with argument" in err


def test_a_spectator_sees_no_hand_at_all():
    replay = perspective.from_stored(list(record("spades")), SPECTATOR)
    snapshots = [i for i in perspective.render(replay) if i.snapshot]
    for item in snapshots:
        text = "\n".join(line.plain for line in item.lines)
        assert "your hand" not in text and "holds" not in text


def test_every_replay_text_is_in_both_languages_with_the_same_placeholders():
    def fields(template: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(template) if name}

    for key, (en, pt) in TEXTS.items():
        assert en.strip() and pt.strip() and fields(en) == fields(pt), key
