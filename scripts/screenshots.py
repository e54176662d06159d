"""Regenerate the text screenshots of ``tavola play`` in docs/screenshots/.

Each is the play screen (80 × 24) of one game in one language at a moment of a seeded
match where the person at seat 0 has a choice to make and some cards or tiles cannot be
played — drawn by the same pure renderer the terminal uses, from views built offline with
the game's rules (``tavola.cli.preview``), so no platform is needed:

    .venv/bin/python scripts/screenshots.py
"""

from __future__ import annotations

import pathlib

from tavola.cli.preview import PREVIEW_MATCH, Scene, scenes
from tavola.cli.screen import Screen, plain
from tavola.cli.texts import LOCALES, game_title
from tavola.rules import registry

OUT = pathlib.Path(__file__).resolve().parent.parent / "docs" / "screenshots"
NOW = 1_800_000_000.0
# how far into the match each game's screenshot is taken; OPENINGS: a second one, at the start
MOMENTS = {
    "fan-tan": 9,
    "spades": 9,
    "barbu": 5,
    "dominoes": 3,
    "doppelkopf": 4,
}
OPENINGS = {"spades": "bidding", "barbu": "contract", "doppelkopf": "reservations"}


def moment(game: str, locale: str, skip: int) -> Scene:
    """The ``skip``-th decision of seat 0 with at least two choices and a blocked item."""
    found = 0
    for scene in scenes(game, locale=locale):
        if len(scene.view.legal_actions) >= 2 and scene.view.blocked:
            if found == skip:
                return scene
            found += 1
    raise RuntimeError(f"{game}: no such moment")


def opening(game: str, locale: str) -> Scene:
    return next(iter(scenes(game, locale=locale)))


def draw(scene: Scene, game: str, locale: str) -> str:
    view = scene.view
    now = NOW
    if view.deadlines:  # a few seconds into the seat's time
        first = view.deadlines[0]
        now = first.deadline.ToMilliseconds() / 1000 - first.seconds + 6
    screen = Screen(
        view=view,
        match_id=PREVIEW_MATCH,
        seat=0,
        locale=locale,
        title=game_title(game, registry.get(game).info.title, locale),
        events=scene.events,
        now=now,
    )
    return plain(screen, 80, 24).rstrip() + "\n"


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for game in registry.names():
        for locale in LOCALES:
            shots = {f"{game}.{locale}.txt": moment(game, locale, MOMENTS.get(game, 3))}
            if game in OPENINGS:
                shots[f"{game}-{OPENINGS[game]}.{locale}.txt"] = opening(game, locale)
            for name, scene in shots.items():
                path = OUT / name
                path.write_text(draw(scene, game, locale))
                print(f"wrote {path.relative_to(OUT.parent.parent)}")


if __name__ == "__main__":
    main()
