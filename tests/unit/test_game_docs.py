"""Docs a third party can code from: every game's page carries the generated reference of
its events (every field, in order, and who sees it), its view and its options as ListGames
lists them, and docs/api.md the platform's own events — and they are current, so a new
field or option cannot go unsaid. ``scripts/game_docs.py`` rewrites them."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from tavola.match.events import PLATFORM_EVENTS
from tavola.protocol.reference import BEGIN, END, game_reference, platform_reference
from tavola.rules import registry

DOCS = Path(__file__).resolve().parents[2] / "docs"


def generated(path: Path) -> str:
    text = path.read_text()
    assert BEGIN in text and END in text, f"{path.name} has no generated reference"
    return text[text.index(BEGIN) : text.index(END) + len(END)] + "\n"


@pytest.mark.parametrize("game_name", registry.names())
def test_a_games_page_carries_its_current_reference(game_name):
    game = registry.get(game_name)
    section = generated(DOCS / "games" / f"{game_name}.md")
    assert section == game_reference(game), "run scripts/game_docs.py"
    for cls in game.info.event_types:
        assert f"| `{cls.__name__}` |" in section
        for field in dataclasses.fields(cls):
            assert f"`{field.name}` —" in section
    for spec in game.info.options:
        assert f"| `{spec.name}` |" in section
    assert f"`{game_name}.View`" in section


def test_the_api_page_carries_the_platform_events():
    section = generated(DOCS / "api.md")
    assert section == platform_reference(), "run scripts/game_docs.py"
    for cls in PLATFORM_EVENTS:
        assert f"| `match.{cls.__name__}` |" in section
