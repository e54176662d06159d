"""``tavola games [GAME]``: the games a platform hosts — players, which score wins, every
table option with its values, default and meaning, and the presets — from ``ListGames``
when a platform answers, else from this installation's rules."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from rich.console import Console
from rich.text import Text

from tavola.cli.client import Client, default_address
from tavola.cli.gameinfo import find, games_or_local, players_text
from tavola.cli.texts import game_text, game_title, t
from tavola.v1 import lobby_pb2


def values_text(spec: lobby_pb2.OptionSpec) -> str:
    if spec.kind == lobby_pb2.OPTION_KIND_BOOL:
        return "true | false"
    if spec.kind == lobby_pb2.OPTION_KIND_INT:
        return f"{spec.minimum}…{spec.maximum}"
    return " | ".join(spec.choices)


def preset_title(game: str, name: str, locale: str) -> str | None:
    for prefix in (game, game.replace("-", "")):
        found = game_text(f"{prefix}.preset.{name}", locale)
        if found is not None:
            return found
    return None


INDENT = 25


def _indented(text: str, width: int) -> list[Text]:
    """``text`` wrapped under the option names, dim."""
    console = Console(width=max(20, width - INDENT), color_system=None)
    return [
        Text(" " * INDENT + line.plain, style="dim")
        for line in Text(text).wrap(console, max(20, width - INDENT))
    ]


def describe(info: lobby_pb2.GameInfo, locale: str, width: int = 80) -> list[Text]:
    """One game: its heading, its options (two lines each) and its presets."""
    order = t("games.lowest_wins" if info.lower_score_wins else "games.highest_wins", locale)
    head = Text(info.name, style="bold cyan")
    title = game_title(info.name, info.title, locale)
    head.append(f"  {title} — {players_text(info, locale)} · {order}")
    out = [head]
    if info.options:
        out.append(Text("  " + t("games.options", locale), style="bold"))
    for spec in info.options:
        line = Text(f"    {spec.name:<20} ", style="")
        line.append(values_text(spec))
        line.append("  " + t("games.default", locale, value=spec.default_value), style="dim")
        if spec.house_rule:
            line.append("  " + t("games.house_rule", locale), style="yellow")
        out.append(line)
        if spec.description.text:
            out += _indented(spec.description.text, width)
    if info.presets:
        out.append(Text("  " + t("games.presets", locale), style="bold"))
    for preset in info.presets:
        line = Text(f"    {preset.name:<20} ")
        line.append(preset_title(info.name, preset.name, locale) or "")
        out.append(line)
        chosen = ", ".join(f"{k}={v}" for k, v in sorted(preset.options.items()))
        out += _indented(chosen or t("games.preset_plain", locale), width)
    if not info.options and not info.presets:
        out.append(Text("  " + t("games.no_options", locale), style="dim"))
    return out


def listing(games: Sequence[lobby_pb2.GameInfo], locale: str, width: int = 80) -> list[Text]:
    out: list[Text] = []
    for index, info in enumerate(games):
        if index:
            out.append(Text())
        out += describe(info, locale, width)
    return out


def games(args: argparse.Namespace) -> int:
    locale = args.locale
    address = args.address or default_address()
    client = Client.connect(address)
    try:
        found, remote = games_or_local(client, locale)
    finally:
        client.close()
    if args.game:
        found = [find(found, args.game, locale)]
    console = Console(highlight=False)
    if not remote:
        console.print(Text(t("games.local", locale, address=address), style="dim"))
    for line in listing(found, locale, min(console.width, 100)):
        console.print(line, overflow="fold")
    console.print(Text(t("games.usage", locale), style="dim"))
    return 0
