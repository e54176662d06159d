"""Per-game drawings of a view (pure functions of the view's fields, documented per game
in docs/games/); trick games share one board. A game without one is drawn generically."""

from __future__ import annotations

from tavola.cli.tables import barbu, dominoes, doppelkopf, fantan, generic, tricks
from tavola.cli.tables.base import Ctx, Parts, Renderer

RENDERERS: dict[str, Renderer] = {
    "fan-tan": fantan.render,
    "spades": tricks.spades,
    "barbu": barbu.render,
    "dominoes": dominoes.render,
    "doppelkopf": doppelkopf.render,
}


def renderer(game: str) -> Renderer:
    return RENDERERS.get(game, generic.render)


__all__ = ["RENDERERS", "Ctx", "Parts", "Renderer", "renderer"]
