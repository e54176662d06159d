"""Dominoes against the Game contract: options, illegal actions, encoding, messages, views."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from tavola.games import dominoes
from tavola.games.dominoes import GAME, DominoesState, End, Pass, Play
from tavola.rules import fairness
from tavola.rules.errors import GameOver, IllegalAction, MalformedAction, NotYourTurn
from tavola.rules.interface import ChanceRequest
from tavola.rules.tiles import Tile, double_six_set

PACKAGE = Path(dominoes.__file__).parent
ALL_CODES = ["pass"] + [
    f"{t.code}{suffix}" for t in double_six_set() for suffix in ("", " L", " R")
]


def dealt(players: int, options: dict[str, str] | None = None, seed: int = 1) -> DominoesState:
    state = GAME.initial_state(players, options or {})
    request = GAME.chance(state)
    assert request is not None
    outcome = fairness.outcome(seed.to_bytes(32, "big"), (), request)
    return GAME.fold(state, GAME.resolve_chance(state, request, outcome))


# ----- options ----------------------------------------------------------------------------
def test_four_players_play_partnership_and_two_play_block_when_no_mode_is_given() -> None:
    assert GAME.initial_state(4, {}).options.mode == "partnership"
    assert GAME.initial_state(2, {}).options.mode == "block"
    assert GAME.initial_state(2, {"mode": "draw"}).options.mode == "draw"


@pytest.mark.parametrize(("players", "mode"), [(2, "partnership"), (4, "block"), (4, "draw")])
def test_the_mode_must_match_the_number_of_players(players: int, mode: str) -> None:
    with pytest.raises(IllegalAction) as error:
        GAME.initial_state(players, {"mode": mode})
    assert error.value.reason.code == "dominoes.mode_players"


@pytest.mark.parametrize("players", [1, 3, 5])
def test_dominoes_needs_two_or_four_players(players: int) -> None:
    with pytest.raises(IllegalAction) as error:
        GAME.initial_state(players, {})
    assert error.value.reason.code == "dominoes.players"


def test_options_are_validated_and_house_rules_flagged() -> None:
    with pytest.raises(IllegalAction):
        GAME.initial_state(4, {"blocked_tie": "coin_flip"})
    with pytest.raises(IllegalAction):
        GAME.initial_state(4, {"target": "0"})
    state = GAME.initial_state(
        4, {"target": "100", "opener": "winner_opens", "mode": "partnership"}
    )
    assert state.options.target == 100
    assert GAME.house_rules({"opener": "winner_opens", "target": 100, "mode": "partnership"}) == (
        "target",
        "opener",
    )
    assert GAME.info.rules_version == 1 and GAME.info.teams and not GAME.info.lower_score_wins


def test_every_hand_is_one_shuffle_of_the_28_tiles_and_all_are_dealt_in_partnership() -> None:
    state = GAME.initial_state(4, {})
    assert GAME.chance(state) == ChanceRequest("deal/1", "shuffle", 28)
    state = dealt(4)
    assert sorted(t for hand in state.hands for t in hand) == list(double_six_set())
    assert state.boneyard == () and GAME.chance(state) is None
    two = dealt(2, {"mode": "draw"})
    assert [len(h) for h in two.hands] == [7, 7] and len(two.boneyard) == 14


# ----- illegal actions -----------------------------------------------------------------------
def test_illegal_actions_raise_with_a_reason_and_change_nothing() -> None:
    state = dealt(4)
    opener = state.opener
    assert opener is not None
    before = state
    other = (opener + 1) % 4
    with pytest.raises(NotYourTurn) as turn:
        GAME.decide(state, other, Play(state.hands[other][0]))
    assert turn.value.reason.code == "game.not_your_turn"
    with pytest.raises(IllegalAction) as missing:
        GAME.decide(state, opener, Play(state.hands[other][0]))
    assert missing.value.reason.code == "dominoes.not_in_hand"
    with pytest.raises(IllegalAction) as passing:
        GAME.decide(state, opener, Pass())
    assert passing.value.reason.code == "dominoes.must_play"
    with pytest.raises(IllegalAction) as opening_end:
        GAME.decide(state, opener, Play(Tile(6, 6), End.LEFT))
    assert opening_end.value.reason.code == "dominoes.single_placement"
    with pytest.raises(NotYourTurn):
        GAME.decide(state, 7, Pass())
    assert state == before


def test_no_action_is_accepted_once_the_match_is_over() -> None:
    from tavola.rules.driver import play_match

    out = play_match(GAME, 2, {"target": 1}, seed=b"\x01" * 32, rng=random.Random(1))
    assert GAME.is_over(out.state)
    with pytest.raises(GameOver) as error:
        GAME.decide(out.state, 0, Pass())
    assert error.value.reason.code == "game.over"


@pytest.mark.parametrize("mode", ["partnership", "block", "draw"])
def test_why_illegal_is_none_exactly_for_the_legal_actions(mode: str) -> None:
    players = 4 if mode == "partnership" else 2
    rng = random.Random(7)
    actions = [GAME.decode_action(code) for code in ALL_CODES]
    positions = 0
    for match in range(6):
        state = GAME.initial_state(players, {"mode": mode})
        seed = bytes([match]) * 32
        while not GAME.is_over(state):
            while (request := GAME.chance(state)) is not None:
                outcome = fairness.outcome(seed, (), request)
                state = GAME.fold(state, GAME.resolve_chance(state, request, outcome))
            (seat,) = GAME.to_act(state)
            legal = set(GAME.legal_actions(state, seat))
            assert len(legal) == len(GAME.legal_actions(state, seat))  # each action unique
            for action in actions:
                assert (GAME.why_illegal(state, seat, action) is None) == (action in legal)
            for other in set(range(players)) - {seat}:
                assert GAME.legal_actions(state, other) == ()
            positions += 1
            choice = sorted(legal, key=GAME.encode_action)[rng.randrange(len(legal))]
            state = GAME.fold(state, GAME.decide(state, seat, choice))
    assert positions > 50


# ----- encoding -------------------------------------------------------------------------------
def test_action_codes_are_stable_and_round_trip() -> None:
    assert GAME.encode_action(Play(Tile(6, 4))) == "6-4"
    assert GAME.encode_action(Play(Tile(6, 4), End.LEFT)) == "6-4 L"
    assert GAME.encode_action(Play(Tile(6, 4), End.RIGHT)) == "6-4 R"
    assert GAME.encode_action(Pass()) == "pass"
    assert GAME.decode_action("4-6 l") == Play(Tile(6, 4), End.LEFT)
    assert GAME.decode_action(" PASS ") == Pass()
    for code in ALL_CODES:
        assert GAME.encode_action(GAME.decode_action(code)) == code
    labels = {GAME.describe_action(GAME.decode_action(code)) for code in ALL_CODES}
    assert len(labels) == len(ALL_CODES)
    assert GAME.describe_action(Play(Tile(6, 4), End.LEFT)) == "6|4 on the left end"


@pytest.mark.parametrize("code", ["", "7-1", "6-4 X", "6-4 L R", "six-four", "6-4-2", "draw"])
def test_unparseable_codes_are_malformed(code: str) -> None:
    with pytest.raises(MalformedAction) as error:
        GAME.decode_action(code)
    assert error.value.reason.code == "action.malformed"
    assert error.value.reason.param_dict() == {"code": code, "game": "dominoes"}


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
    "io",
}


def test_the_rules_package_imports_no_io_clock_or_global_randomness() -> None:
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                roots = {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                roots = {(node.module or "").split(".")[0]}
            else:
                continue
            assert not roots & FORBIDDEN, (path.name, roots)


# ----- messages -------------------------------------------------------------------------------
def _codes_in_package() -> set[str]:
    found: set[str] = set()
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            text = node.value if isinstance(node, ast.Constant) else None
            if isinstance(text, str) and text.startswith("dominoes.") and " " not in text:
                found.add(text)
    return found


def test_every_message_code_is_in_the_catalogue_in_english_and_portuguese() -> None:
    catalogue = GAME.messages()
    raised = _codes_in_package()
    assert raised and raised <= set(catalogue)
    for spec in GAME.info.options:
        assert spec.description in catalogue
        for choice in spec.choices:
            assert f"dominoes.{spec.name}.{choice}" in catalogue
    for code, texts in catalogue.items():
        assert {"en", "pt"} <= set(texts) <= {"en", "pt", "pt-PT"}, code
        assert all(texts.values())


def test_reasons_render_with_their_parameters() -> None:
    state = dealt(4)
    opener = state.opener
    assert opener is not None
    reasons = [
        GAME.why_illegal(state, opener, Pass()),
        GAME.why_illegal(state, opener, Play(Tile(6, 6), End.RIGHT)),
        GAME.automatic_action(state, opener)[1],
    ]
    for reason in reasons:
        assert reason is not None
        for text in GAME.messages()[reason.code].values():
            text.format(**reason.param_dict())


# ----- views ------------------------------------------------------------------------------------
def test_a_seat_sees_its_own_tiles_and_only_counts_of_the_others() -> None:
    state = dealt(2, {"mode": "draw"})
    opener = state.opener
    assert opener is not None
    mine = GAME.view(state, opener)
    assert mine.hand == state.hands[opener] and mine.tile_counts == (7, 7)
    assert mine.boneyard_count == 14 and mine.must_open_with is not None
    other = GAME.view(state, 1 - opener)
    assert other.hand == state.hands[1 - opener] and other.must_open_with is None
    spectator = GAME.view(state, None)
    assert spectator.hand == () and spectator.must_open_with is None
    assert spectator.turn == opener and spectator.line == () and spectator.scores == (0, 0)


def test_every_event_type_and_view_round_trips_through_the_generic_record_mapper() -> None:
    records = pytest.importorskip("tavola.protocol.records")
    from tavola.rules.driver import play_match

    seen: set[str] = set()
    for mode, players in (("partnership", 4), ("block", 2), ("draw", 2)):
        for seed in range(4):
            options = {"mode": mode, "blocked_tie": "nobody_scores"}
            out = play_match(GAME, players, options, seed=bytes([seed]) * 32)
            for event in out.events:
                record = records.to_record(event, type(event).__name__)
                assert records.from_record(type(event), record) == event
                seen.add(type(event).__name__)
            for seat in (None, *range(players)):
                view = GAME.view(out.state, seat)
                assert records.from_record(type(view), records.to_record(view)) == view
    assert seen == {cls.__name__ for cls in GAME.info.event_types}


def test_the_fast_tile_played_is_the_tile_played_event() -> None:
    from tavola.games.dominoes.events import TilePlayed, tile_played

    made = tile_played(3, 1, Tile(6, 4), End.LEFT, 4, 5)
    assert made == TilePlayed(3, 1, Tile(6, 4), End.LEFT, 4, 5)
    assert hash(made) == hash(TilePlayed(3, 1, Tile(6, 4), End.LEFT, 4, 5))
    assert repr(made) == repr(TilePlayed(3, 1, Tile(6, 4), End.LEFT, 4, 5))


def test_pips_counted_from_the_bits_are_the_tiles_pips() -> None:
    from tavola.games.dominoes.scoring import mask_pips, pips_of

    rng = random.Random(3)
    tiles = double_six_set()
    for _ in range(2000):
        chosen = rng.sample(range(28), rng.randrange(29))
        assert mask_pips(sum(1 << i for i in chosen)) == pips_of([tiles[i] for i in chosen])
