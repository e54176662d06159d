"""The play screen of every registered game, built offline from the rules the way the engine
builds views, fits 80×24, shows no Python syntax and writes every card and tile one way —
in English and in Portuguese, through the game's renderer and the generic fallback."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from tavola.cli import screen as screen_module
from tavola.cli.preview import PREVIEW_MATCH, Scene, scenes
from tavola.cli.screen import Notice, Screen, lines, plain
from tavola.cli.tables import RENDERERS, generic
from tavola.rules import registry

NOW = 1_800_000_000.0
CARD_CODE = re.compile(r"(?<![\w\[|-])(10|[2-9TJQKA])[CDHS](?![\w-])")
BARE_TILE = re.compile(r"(?<![\[|\d])\d[-|]\d(?![\]|\d])")
RAW = ("{'", "[{", "': ", "Enum(", "Card(", "Tile(", "None", "True", "False")
ENGLISH_ONLY = ("your hand", "your move", "trick  ", "seat ", "dealer ", "tricks ")


def moments(game: str, every: int = 7, first: int = 8) -> Iterator[Scene]:
    """The first decisions of seat 0, then every ``every``-th, then the end."""
    for index, scene in enumerate(scenes(game, locale=LOCALE[0], limit=1200)):
        if index < first or index % every == 0 or scene.view.finished:
            yield scene


LOCALE = ["en"]


def screen_of(scene: Scene, locale: str) -> Screen:
    return Screen(
        view=scene.view,
        match_id=PREVIEW_MATCH,
        seat=0,
        locale=locale,
        title=registry.get(scene.view.game).info.title,
        events=scene.events,
        now=NOW,
    )


def check(text: str, rows: list[str], locale: str) -> None:
    assert len(rows) <= 24, f"{len(rows)} rows"
    assert all(len(row) <= 80 for row in rows), max(rows, key=len)
    for raw in RAW:
        assert raw not in text, f"{raw!r} in\n{text}"
    assert not CARD_CODE.search(text), f"card code {CARD_CODE.search(text)} in\n{text}"
    assert not BARE_TILE.search(text), f"bare tile {BARE_TILE.search(text)} in\n{text}"
    assert PREVIEW_MATCH in rows[0]
    if locale == "pt":
        for english in ENGLISH_ONLY:
            assert english not in text, f"{english!r} in the Portuguese screen\n{text}"


@pytest.mark.parametrize("locale", ["en", "pt"])
@pytest.mark.parametrize("game", registry.names())
def test_every_game_draws_a_readable_table_in_80_by_24(game: str, locale: str) -> None:
    LOCALE[0] = locale
    seen = 0
    for scene in moments(game):
        shown = screen_of(scene, locale)
        text = plain(shown, 80, 24)
        check(text, text.rstrip("\n").splitlines(), locale)
        for choice in scene.view.legal_actions[:3]:
            assert choice.code not in ("",)
        seen += 1
    assert seen > 3


@pytest.mark.parametrize("locale", ["en", "pt"])
@pytest.mark.parametrize("game", registry.names())
def test_the_generic_fallback_is_readable_for_every_game(
    game: str, locale: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(screen_module, "renderer", lambda name: generic.render)
    LOCALE[0] = locale
    for scene in list(moments(game, every=25, first=3)):
        text = plain(screen_of(scene, locale), 80, 60)
        for raw in RAW:
            assert raw not in text, f"{raw!r} in\n{text}"
        assert not CARD_CODE.search(text), text
        assert not BARE_TILE.search(text), text


def test_every_registered_game_has_its_own_renderer() -> None:
    assert set(registry.names()) <= set(RENDERERS)


@pytest.mark.parametrize("game", registry.names())
def test_the_playable_items_carry_the_number_to_type(game: str) -> None:
    scene = next(s for s in scenes(game) if len(s.view.legal_actions) >= 2)
    text = plain(screen_of(scene, "en"), 80, 24)
    from tavola.cli.actions import choices

    for option in choices(game, scene.view.legal_actions, "en"):
        assert re.search(rf"(?<!\d){re.escape(option.key)}(?!\d)", text), (option, text)


def test_the_countdown_follows_the_clock_while_the_prompt_waits() -> None:
    scene = next(s for s in scenes("spades") if s.view.deadlines)
    deadline = scene.view.deadlines[0].deadline.ToMilliseconds() / 1000
    early = plain(Screen(scene.view, PREVIEW_MATCH, 0, now=deadline - 20))
    late = plain(Screen(scene.view, PREVIEW_MATCH, 0, now=deadline - 4))
    assert "⏱ 20s" in early and "⏱ 4s" in late


def test_hints_and_errors_appear_under_the_table_without_a_second_table() -> None:
    from rich.text import Text

    scene = next(iter(scenes("fan-tan")))
    shown = Screen(
        scene.view,
        PREVIEW_MATCH,
        0,
        notices=(Notice("hint", Text("hint: 7♦")), Notice("error", Text("no such card"))),
        now=NOW,
    )
    text = plain(shown, 80, 24)
    assert text.count(PREVIEW_MATCH) == 1
    assert "☞ hint: 7♦" in text and "✗ no such card" in text
    assert len(text.splitlines()) <= 24


def test_recent_events_make_room_first_when_the_terminal_is_short() -> None:
    scene = list(scenes("spades", limit=30))[-1]
    tall = lines(Screen(scene.view, PREVIEW_MATCH, 0, events=scene.events, now=NOW), 80, 40)
    short = lines(Screen(scene.view, PREVIEW_MATCH, 0, events=scene.events, now=NOW), 80, 14)
    assert len(short) <= 14 < len(tall)
    assert any("·" in line.plain for line in tall)
    assert PREVIEW_MATCH in short[0].plain


def test_the_committed_screenshots_cover_every_game_in_both_languages() -> None:
    import pathlib

    folder = pathlib.Path(__file__).resolve().parents[3] / "docs" / "screenshots"
    for game in registry.names():
        for locale in ("en", "pt"):
            shot = (folder / f"{game}.{locale}.txt").read_text()
            rows = shot.rstrip("\n").splitlines()
            assert rows and PREVIEW_MATCH in rows[0]
            check(shot, rows, locale)


@pytest.mark.parametrize("locale", ["en", "pt"])
def test_a_dominoes_series_shows_the_games_each_side_has_won(locale: str) -> None:
    options = {"mode": "block", "best_of": "3", "target": "10"}
    shown = [
        plain(screen_of(scene, locale), 80, 24)
        for scene in scenes("dominoes", players=2, options=options, locale=locale)
    ]
    title = "games won (best of 3)" if locale == "en" else "jogos ganhos (melhor de 3)"
    assert shown and all(title in text for text in shown)
    for text in shown:
        check(text, text.rstrip("\n").splitlines(), locale)
    later = [t for t in shown if re.search(r"\b1\b", t.split(title)[1].splitlines()[0])]
    assert later  # a game was won during the series
