"""One parameterised suite over every registered game (after OpenSpiel): random matches
with the interface's invariants (an automatic move for every seat to act included),
purity, the protobuf mapping, hidden information and the message catalogue."""

from __future__ import annotations

import ast
import dataclasses
import pathlib
import random
import subprocess
import sys
from typing import Any

import pytest

from tavola.protocol import events as codec
from tavola.protocol.records import from_record, record_to_plain, to_record
from tavola.rules import driver, registry
from tavola.rules.errors import RulesError
from tavola.rules.interface import Deferral, Game
from tavola.rules.messages import catalogue

GAMES = registry.names()
FORBIDDEN = {
    "grpc",
    "nats",
    "asyncpg",
    "structlog",
    "prometheus_client",
    "time",
    "datetime",
    "uuid",
    "random",
    "os",
    "socket",
    "io",
    "secrets",
}


def player_counts(game: Game[Any, Any]) -> list[int]:
    return list(range(game.info.min_players, game.info.max_players + 1))


def option_sets(game: Game[Any, Any]) -> list[dict[str, Any]]:
    sets: list[dict[str, Any]] = [{}]
    for name in game.info.presets:
        sets.append({"preset": name})
    return sets


def matches(game_name: str, count: int) -> list[tuple[int, dict[str, Any], int]]:
    game = registry.get(game_name)
    out = []
    for i in range(count):
        players = player_counts(game)[i % len(player_counts(game))]
        options = option_sets(game)[i % len(option_sets(game))]
        try:
            game.initial_state(players, options)
        except RulesError:
            continue  # e.g. a mode that does not fit this player count
        out.append((players, options, i))
    return out


@pytest.mark.parametrize("name", GAMES)
def test_the_game_module_imports_nothing_impure(name: str) -> None:
    module = type(registry.get(name)).__module__.rpartition(".")[0]  # the game's package
    package = pathlib.Path(__import__(module, fromlist=["x"]).__file__).parent
    for path in package.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            bad = {n.split(".")[0] for n in names} & FORBIDDEN
            assert not bad, f"{path.name} imports {bad}"
    code = (
        f"import sys; import {module}; "
        "bad = {'grpc','nats','asyncpg','structlog','prometheus_client'} & set(sys.modules); "
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("name", GAMES)
def test_random_matches_keep_every_invariant_of_the_interface(name: str) -> None:
    game = registry.get(name)
    for players, options, i in matches(name, 6):
        seed = bytes([i]) * 32
        checks = InvariantChecks(game, players, options)
        out = driver.play_match(
            game, players, options, seed=seed, rng=random.Random(i), choose=checks.choose
        )
        assert game.is_over(out.state)
        assert game.to_act(out.state) == frozenset()
        assert game.chance(out.state) is None
        rebuilt = game.fold(game.initial_state(players, options), out.events)
        assert rebuilt == out.state
        again = driver.play_match(
            game,
            players,
            options,
            seed=seed,
            rng=random.Random(i),
            choose=InvariantChecks(game, players, options).choose,
        )
        assert again.events == out.events


class InvariantChecks:
    """A chooser that checks the position before choosing at random."""

    def __init__(self, game: Game[Any, Any], players: int, options: dict[str, Any]) -> None:
        self.game = game
        self.players = players

    def choose(
        self, game: Game[Any, Any], state: Any, seat: int, legal: Any, rng: random.Random
    ) -> Any:
        for other in range(self.players):
            if other not in game.to_act(state):
                assert not game.legal_actions(state, other)
                assert game.turn_timer(state, other) is None
        self._every_seat_to_act_has_an_automatic_move(state)
        for action in legal[:6]:
            assert game.why_illegal(state, seat, action) is None
            assert game.decode_action(game.encode_action(action)) == action
        self._illegal_actions_change_nothing(state, seat, legal, rng)
        random.seed(rng.random())  # disturbing global random must change nothing
        return legal[rng.randrange(len(legal))]

    def _every_seat_to_act_has_an_automatic_move(self, state: Any) -> None:
        """The move made when a timer runs out exists for every seat to act and the rules
        accept it; a seat the game waits for is timed (timers are on by default) and its
        automatic move moves the game on, never a ``Deferral``."""
        game = self.game
        for seat in game.to_act(state):
            action, reason = game.automatic_action(state, seat)
            game.decide(state, seat, action)
            assert reason.code in catalogue(), reason.code
            waited = game.decision(state, seat) is not None
            assert waited == (game.turn_timer(state, seat) is not None), seat
            assert not (waited and isinstance(action, Deferral)), (seat, action)

    def _illegal_actions_change_nothing(
        self, state: Any, seat: int, legal: Any, rng: random.Random
    ) -> None:
        game = self.game
        codes = {game.encode_action(a) for a in legal}
        candidates = [c for c in _sample_codes(game, state, seat) if c not in codes]
        for code in rng.sample(candidates, min(3, len(candidates))):
            try:
                action = game.decode_action(code)
            except RulesError:
                continue
            reason = game.why_illegal(state, seat, action)
            assert reason is not None, f"{code} not offered but legal"
            assert reason.code in catalogue(), f"no message for {reason.code}"
            before = state
            with pytest.raises(RulesError):
                game.decide(state, seat, action)
            assert state == before


def _sample_codes(game: Game[Any, Any], state: Any, seat: int) -> list[str]:
    view = game.view(state, seat)
    items = getattr(view, "hand", ()) or getattr(view, "tiles", ()) or ()
    return [getattr(i, "code", str(i)) for i in items] + ["pass"]


@pytest.mark.parametrize("name", GAMES)
def test_every_event_and_view_maps_to_protobuf_and_back(name: str) -> None:
    game = registry.get(name)
    seen: set[type] = set()
    for players, options, i in matches(name, 3):
        out = driver.play_match(
            game, players, options, seed=bytes([i + 7]) * 32, rng=random.Random(i)
        )
        for event in out.events:
            if type(event) in seen:
                continue
            seen.add(type(event))
            payload = codec.encode_payload(name, event)
            assert codec.decode_payload(name, codec.type_name(name, event), payload) == event
        for seat in (None, *range(players)):
            view = game.view(out.state, seat)
            assert from_record(type(view), to_record(view)) == view
    assert seen <= set(game.info.event_types)


@pytest.mark.parametrize("name", GAMES)
def test_no_view_shows_an_item_dealt_privately_to_another_seat(name: str) -> None:
    game = registry.get(name)
    for players, options, i in matches(name, 3):
        state = game.initial_state(players, options)
        out = driver.play_match(
            game, players, options, seed=bytes([i + 3]) * 32, rng=random.Random(i)
        )
        public: set[str] = set()
        private: dict[int, set[str]] = {s: set() for s in range(players)}
        for step, event in enumerate(out.events):
            items = _items(to_record(event))
            audience = event.audience()
            if audience is None:
                public |= items
            else:
                for seat in audience:
                    private[seat] |= items
            state = game.evolve(state, event)
            if step % 7:
                continue
            for seat in range(players):
                shown = _items(to_record(game.view(state, seat)))
                assert shown <= public | private[seat], (seat, shown - public - private[seat])
            assert _items(to_record(game.view(state, None))) <= public


def _items(record: Any) -> set[str]:
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)

    def visit(rec: Any) -> None:
        for field in rec.fields:
            kind = field.value.WhichOneof("kind")
            collect(field.value, kind)

    def collect(value: Any, kind: str | None) -> None:
        if kind == "card":
            found.add(value.card.code)
        elif kind == "tile":
            found.add(value.tile.code)
        elif kind == "list":
            for item in value.list.items:
                collect(item, item.WhichOneof("kind"))
        elif kind == "record":
            visit(value.record)

    visit(record)
    walk(record_to_plain(record))
    return found


@pytest.mark.parametrize("name", GAMES)
def test_every_message_of_the_game_exists_in_english_and_portuguese(name: str) -> None:
    for code, texts in registry.get(name).messages().items():
        assert texts.get("en") and texts.get("pt"), code


def test_event_types_are_frozen_dataclasses() -> None:
    for game in registry.all_games():
        for cls in game.info.event_types:
            assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen, cls
