"""Any game's view, readably, when no renderer of its own knows it: scalar fields on one
line (``phase play · turn seat 2``), every other field on a line of its own, values in
the one notation (never a dict or list literal)."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from tavola.cli.names import field_name
from tavola.cli.tables.base import Ctx, Parts, labelled, words

SKIP = frozenset({"hand", "seat"})


def _scalar(value: Any) -> bool:
    return not isinstance(value, list | dict)


def render(ctx: Ctx) -> Parts:
    scalars: list[Text | str | None] = []
    others: list[Text] = []
    for name, value in ctx.v.items():
        if name in SKIP or value is None or value == []:
            continue
        label = field_name(name, ctx.locale)
        if _scalar(value):
            scalars.append(labelled(label, ctx.text(value, name)))
        else:
            others.append(labelled(label, ctx.text(value, name)))
    info = [words(*scalars)] if scalars else []
    return Parts(info=info, board=others)
