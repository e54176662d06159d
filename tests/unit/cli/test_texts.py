"""The CLI's catalogue: every text it uses exists in English and Portuguese with the same
placeholders, every event of every game has a line, and labels use the one notation."""

from __future__ import annotations

import dataclasses
import pathlib
import re
import string

import pytest

from tavola.cli import actions
from tavola.cli.catalogue import TEXTS
from tavola.cli.happenings import SILENT, describe
from tavola.cli.preview import scenes
from tavola.cli.texts import t
from tavola.match.events import PLATFORM_EVENTS
from tavola.rules import registry
from tavola.v1 import game_pb2

CLI = pathlib.Path(actions.__file__).parent
USED = re.compile(r"""\b(?:t|tr|h)\(\s*"([a-z][\w.-]*)\"""")


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_text_exists_in_both_languages_with_the_same_placeholders() -> None:
    for key, (en, pt) in TEXTS.items():
        assert en.strip() and pt.strip(), key
        assert fields(en) == fields(pt), key


def test_every_text_the_cli_asks_for_is_in_the_catalogue() -> None:
    missing = set()
    for source in CLI.rglob("*.py"):
        for key in USED.findall(source.read_text()):
            if key not in TEXTS and f"help.{key}" not in TEXTS:
                missing.add(f"{source.name}: {key}")
    assert not missing, sorted(missing)


def test_every_event_of_every_game_has_its_own_line() -> None:
    names = {e.__name__ for g in registry.all_games() for e in g.info.event_types}
    names |= {e.__name__ for e in PLATFORM_EVENTS}
    for name in sorted(names - SILENT):
        games = [g.info.name for g in registry.all_games()]
        assert any(f"event.{g}.{name}" in TEXTS for g in games) or f"event.{name}" in TEXTS, name


@pytest.mark.parametrize("locale", ["en", "pt"])
@pytest.mark.parametrize("game", registry.names())
def test_the_events_of_a_whole_match_read_as_sentences(game: str, locale: str) -> None:
    *_, last = scenes(game, locale=locale)
    for envelope in last.events:
        line = describe(envelope, game, 0, locale)
        if line is None:
            continue
        text = line.plain
        assert "{" not in text and "[{" not in text and "Enum(" not in text, text
        assert not re.search(r"(?<![\w\[|-])(10|[2-9TJQKA])[CDHS](?![\w-])", text), text


@pytest.mark.parametrize(
    ("game", "code", "en", "pt"),
    [
        ("fan-tan", "TH", "10♥", "10♥"),
        ("spades", "bid 4", "bid 4", "lance 4"),
        ("spades", "nil", "nil", "nil"),
        ("barbu", "contract trumps S", "Trumps ♠", "Trunfos ♠"),
        ("barbu", "contract domino T", "Domino from 10", "Dominó a partir do 10"),
        ("barbu", "double 1 3", "double 1, 3", "dobrar 1, 3"),
        ("dominoes", "6-4", "[6|4]", "[6|4]"),
        ("doppelkopf", "solo Q", "Queen solo", "Solo de damas"),
        ("doppelkopf", "no 90", "no 90", "sem 90"),
        ("doppelkopf", "give 9S", "give 9♠", "dar 9♠"),
    ],
)
def test_action_labels_are_in_the_one_notation_and_the_locale(
    game: str, code: str, en: str, pt: str
) -> None:
    assert actions.label(game, code, "server", "en").plain == en
    assert actions.label(game, code, "server", "pt").plain == pt


def test_a_tile_with_two_placements_names_the_end_and_its_number() -> None:
    view = {"left_end": 6, "right_end": 1}
    assert actions.label("dominoes", "6-1 L", "", "en", view).plain == "[6|1] on the left (6)"
    assert actions.label("dominoes", "6-1 R", "", "pt", view).plain == "[6|1] na direita (1)"


def legal(*codes: str) -> list[game_pb2.LegalAction]:
    return [game_pb2.LegalAction(code=c, label=c) for c in codes]


@pytest.mark.parametrize(
    ("typed", "code"),
    [("2", "7D"), ("7d", "7D"), ("7♦", "7D"), ("10h", "TH"), ("10♥", "TH"), ("th", "TH")],
)
def test_a_card_is_typed_by_its_number_its_code_or_its_label(typed: str, code: str) -> None:
    options = actions.choices("fan-tan", legal("3C", "7D", "TH"), "en")
    assert actions.resolve(typed, options) == code


def test_tiles_are_typed_any_way_round_and_spades_bids_by_their_number() -> None:
    tiles = actions.choices("dominoes", legal("6-4", "6-1 L", "6-1 R"), "en")
    assert actions.resolve("[4|6]", tiles) == "6-4"
    assert actions.resolve("1-6 r", tiles) == "6-1 R"
    assert actions.resolve("3", tiles) == "6-1 R"
    bids = actions.choices("spades", legal("nil", "bid 1", "bid 2", "bid 3"), "en")
    assert [b.key for b in bids] == ["0", "1", "2", "3"]
    assert actions.resolve("3", bids) == "bid 3"
    assert actions.resolve("nil", bids) == "nil"
    assert actions.resolve("9", bids) is None


def test_a_fixed_player_count_reads_as_one_number() -> None:
    from tavola.cli.gameinfo import find, local_games, players_text

    games = local_games("en")
    assert players_text(find(games, "spades", "en"), "en") == "4 players"
    assert players_text(find(games, "fan-tan", "en"), "en") == "3 to 7 players"
    assert t("error.players", "en", game="spades", players="4 players") == (
        "spades is played by 4 players"
    )


def test_every_view_field_type_is_drawn_by_a_renderer_or_the_fallback() -> None:
    for game in registry.all_games():
        *_, last = scenes(game.info.name, limit=5)
        assert last.view.view.fields, game.info.name
        assert dataclasses.is_dataclass(
            game.view(
                game.initial_state(
                    4
                    if game.info.min_players <= 4 <= game.info.max_players
                    else game.info.min_players,
                    game.parse_options({}, None),
                ),
                0,
            )
        )
