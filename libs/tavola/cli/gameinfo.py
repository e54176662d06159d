"""What games a platform hosts (``ListGames``, or this installation's registry when no
platform answers), and the checks of a table's choices against them, so a mistake is one
line that lists what is valid."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping, Sequence

import grpc

from tavola.cli.client import Client
from tavola.cli.errors import CliError, reason_of
from tavola.cli.texts import t
from tavola.protocol.games import game_info
from tavola.rules import registry
from tavola.v1 import lobby_pb2

LIST_TIMEOUT = 5.0


def remote_games(client: Client, locale: str) -> list[lobby_pb2.GameInfo]:
    reply = client.lobby.ListGames(lobby_pb2.ListGamesRequest(locale=locale), timeout=LIST_TIMEOUT)
    return list(reply.games)


def local_games(locale: str) -> list[lobby_pb2.GameInfo]:
    """The registry's games as ``ListGames`` describes them (the lobby's mapping)."""
    return [game_info(game, locale) for game in registry.all_games()]


def games_or_local(client: Client | None, locale: str) -> tuple[list[lobby_pb2.GameInfo], bool]:
    """The platform's games, or the local registry's (``False``) when it does not answer."""
    if client is not None:
        try:
            return remote_games(client, locale), True
        except grpc.RpcError:
            pass
    return local_games(locale), False


def find(games: Sequence[lobby_pb2.GameInfo], name: str, locale: str) -> lobby_pb2.GameInfo:
    for info in games:
        if info.name == name:
            return info
    valid = ", ".join(g.name for g in games)
    raise CliError(t("error.unknown_game", locale, game=name, valid=valid), 2)


def players_text(info: lobby_pb2.GameInfo, locale: str) -> str:
    """ "4 players" or "3 to 7 players"."""
    if info.min_players == info.max_players:
        return t("players.fixed", locale, n=info.min_players)
    return t("players.range", locale, min=info.min_players, max=info.max_players)


def check_players(info: lobby_pb2.GameInfo, players: int, locale: str) -> None:
    if players and not info.min_players <= players <= info.max_players:
        raise CliError(
            t("error.players", locale, game=info.name, players=players_text(info, locale)), 2
        )


def check_options(info: lobby_pb2.GameInfo, options: Mapping[str, str], locale: str) -> None:
    """Each option and the preset against the game's list, before any table is made."""
    specs = {o.name: o for o in info.options}
    for name, given in options.items():
        if name == "preset":
            check_preset(info, given, locale)
            continue
        spec = specs.get(name)
        if spec is None:
            valid = ", ".join(specs) or t("none", locale)
            raise CliError(
                t("error.unknown_option", locale, option=name, game=info.name, valid=valid), 2
            )
        problem = _bad_value(spec, given)
        if problem:
            raise CliError(
                t("error.option_value", locale, option=name, value=given, valid=problem), 2
            )


def check_preset(info: lobby_pb2.GameInfo, preset: str, locale: str) -> None:
    names = [p.name for p in info.presets]
    if preset not in names:
        raise CliError(unknown_preset(info, preset, locale), 2)


def unknown_preset(info: lobby_pb2.GameInfo, preset: str, locale: str) -> str:
    names = [p.name for p in info.presets]
    if not names:
        return t("error.no_presets", locale, preset=preset, game=info.name)
    return t("error.unknown_preset", locale, preset=preset, valid=", ".join(names))


def _bad_value(spec: lobby_pb2.OptionSpec, given: str) -> str:
    """ "" when ``given`` fits the option, else the description of what would."""
    if spec.kind == lobby_pb2.OPTION_KIND_BOOL:
        ok = given.strip().lower() in ("1", "true", "yes", "on", "0", "false", "no", "off")
        return "" if ok else "true, false"
    if spec.kind == lobby_pb2.OPTION_KIND_INT:
        try:
            number = int(given)
        except ValueError:
            return f"{spec.minimum}…{spec.maximum}"
        return "" if spec.minimum <= number <= spec.maximum else f"{spec.minimum}…{spec.maximum}"
    if spec.kind == lobby_pb2.OPTION_KIND_CHOICE:
        return "" if given in spec.choices else ", ".join(spec.choices)
    return ""


def table_error(error: grpc.RpcError, info: lobby_pb2.GameInfo, locale: str) -> CliError | None:
    """A CreateTable refusal the CLI can say better, with the valid choices."""
    reason, params = reason_of(error)
    if reason == "options.unknown_preset":
        return CliError(unknown_preset(info, params.get("preset", ""), locale), 2)
    if reason == "table.bad_players":
        players = players_text(info, locale)
        return CliError(t("error.players", locale, game=info.name, players=players), 2)
    return None


def table_options(options: Sequence[tuple[str, str]], preset: str, mode: str) -> dict[str, str]:
    """A table's options from ``--option NAME=VALUE`` pairs, ``--preset`` and ``--mode``."""
    chosen = dict(options)
    if preset:
        chosen["preset"] = preset
    if mode:
        chosen["mode"] = mode
    return chosen


def default_players(game: str, options: Mapping[str, str]) -> int:
    """Four where the game allows it (two for one-against-one dominoes), else its minimum."""
    info = registry.get(game).info
    if game == "dominoes" and options.get("mode") in ("block", "draw"):
        return 2
    return 4 if info.min_players <= 4 <= info.max_players else info.min_players


def option_pair(locale: str) -> Callable[[str], tuple[str, str]]:
    """The argparse type of ``--option``: ``NAME=VALUE``, else one line saying so."""

    def parse(text: str) -> tuple[str, str]:
        name, sep, value = text.partition("=")
        if not sep or not name.strip():
            raise argparse.ArgumentTypeError(t("error.option_syntax", locale, given=text))
        return name.strip(), value.strip()

    return parse
