"""A registered game as ``ListGames`` describes it (``tavola.v1.GameInfo``): options with
their kinds, defaults, bounds, house-rule flags and descriptions in a locale; presets."""

from __future__ import annotations

from typing import Any

from tavola.match.events import option_text
from tavola.protocol.events import reason_to_pb
from tavola.rules.errors import Reason
from tavola.rules.messages import render
from tavola.v1 import lobby_pb2

KINDS = {
    "int": lobby_pb2.OPTION_KIND_INT,
    "bool": lobby_pb2.OPTION_KIND_BOOL,
    "choice": lobby_pb2.OPTION_KIND_CHOICE,
}


def game_info(game: Any, locale: str) -> lobby_pb2.GameInfo:
    info = game.info
    options = [
        lobby_pb2.OptionSpec(
            name=o.name,
            kind=KINDS[o.kind],
            default_value=option_text(o.default),
            choices=list(o.choices),
            minimum=o.minimum or 0,
            maximum=o.maximum or 0,
            house_rule=o.house_rule,
            description=reason_to_pb(Reason(o.description), render(Reason(o.description), locale)),
        )
        for o in info.options
    ]
    presets = [
        lobby_pb2.Preset(name=n, options={k: option_text(v) for k, v in p.items()})
        for n, p in info.presets.items()
    ]
    return lobby_pb2.GameInfo(
        name=info.name,
        title=info.title,
        min_players=info.min_players,
        max_players=info.max_players,
        rules_version=info.rules_version,
        options=options,
        presets=presets,
        lower_score_wins=info.lower_score_wins,
    )
