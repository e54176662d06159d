"""``tavola`` — run the platform, list its games, watch bots play, play yourself (and come
back later), replay, verify and export a match.

Every mistake — a bad option, a missing argument, an unreadable file, a platform that does
not answer — is one line on stderr and a non-zero exit code (2 for what was typed, 1 for
what happened); Ctrl-C is one line and exit code 130. Never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

import grpc

from tavola.cli.errors import CliError, rpc_line
from tavola.cli.gameinfo import option_pair
from tavola.cli.matchbook import BookError
from tavola.cli.texts import LOCALES, default_locale, t
from tavola.rules import registry

LEVELS = ("easy", "medium", "hard", "master")


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (with where to find help)."""

    locale = "en"

    def error(self, message: str) -> NoReturn:
        hint = t("error.see_help", self.locale, prog=self.prog)
        self.exit(2, f"{self.prog}: {message} ({hint})\n")


def prescan_locale(argv: Sequence[str]) -> str:
    """``--locale`` before parsing, so help and errors speak it too."""
    for index, item in enumerate(argv):
        if item == "--locale" and index + 1 < len(argv) and argv[index + 1] in LOCALES:
            return argv[index + 1]
        if item.startswith("--locale=") and item.split("=", 1)[1] in LOCALES:
            return item.split("=", 1)[1]
    return default_locale()


def parser(locale: str = "en") -> Parser:
    Parser.locale = locale

    def h(key: str, **params: object) -> str:
        return t(f"help.{key}", locale, **params)

    common = Parser(add_help=False)
    common.add_argument("--locale", default=locale, choices=LOCALES, help=h("locale"))
    top = Parser(prog="tavola", description=h("tavola"), parents=[common])
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=Parser)
    up = sub.add_parser("up", help=h("up"), description=h("up"))
    up.add_argument("--port", type=int, default=None, help=h("port"))
    up.add_argument("--address", default="", metavar="HOST[:PORT]", help=h("listen"))
    up.add_argument("--data", default=".tavola/run", help=h("data"))
    up.add_argument("--bots", type=int, default=1, help=h("bots"))
    games = sub.add_parser("games", help=h("games"), description=h("games"), parents=[common])
    games.add_argument("game", nargs="?", default="", help=h("games_game"))
    games.add_argument("--address", default=None, help=h("address"))
    for name in ("demo", "play"):
        _table_command(sub, name, common, h)
    matches = sub.add_parser(
        "matches", help=h("matches"), description=h("matches"), parents=[common]
    )
    matches.add_argument("--address", default=None, help=h("address"))
    _replay_command(sub, common, locale)
    verify = sub.add_parser("verify", help=h("verify"), description=h("verify"), parents=[common])
    verify.add_argument("match_id", nargs="?", default="", help=h("verify_match"))
    verify.add_argument("--database-url", default=None, help=h("database_url"))
    verify.add_argument("--file", default=None, metavar="PATH", help=h("file"))
    verify.add_argument("--no-bots", action="store_true", help=h("no_bots"))
    export = sub.add_parser("export", help=h("export"), description=h("export"), parents=[common])
    export.add_argument("match_id", help=h("match_id"))
    export.add_argument("-o", "--output", default="-", metavar="PATH", help=h("output"))
    export.add_argument("--address", default=None, help=h("address"))
    from tavola.cli import accounts  # account, whoami, tables (their own module)

    accounts.register(sub)
    from tavola.cli import league  # tavola league … (its own module)

    league.register(sub)
    from tavola.cli import referee  # correct, audit, import (its own module)

    referee.register(sub)
    return top


def _replay_command(sub: argparse._SubParsersAction[Parser], common: Parser, locale: str) -> None:
    """``tavola replay (MATCH_ID | --file PATH) [--seat N | --spectator] [--hand H] [--step]
    [--from-version V]`` (its texts are beside it, in ``replay_texts``)."""
    from tavola.cli.replay_texts import say

    def r(key: str) -> str:
        return say(f"help.{key}", locale)

    replay = sub.add_parser("replay", help=r("replay"), description=r("replay"), parents=[common])
    replay.add_argument("match_id", nargs="?", default="", help=r("match_id"))
    replay.add_argument("--file", default=None, metavar="PATH", help=r("file"))
    viewer = replay.add_mutually_exclusive_group()
    viewer.add_argument("--seat", type=int, default=None, metavar="N", help=r("seat"))
    viewer.add_argument("--spectator", action="store_true", help=r("spectator"))
    replay.add_argument("--hand", type=int, default=None, metavar="H", help=r("hand"))
    replay.add_argument("--step", action="store_true", help=r("step"))
    replay.add_argument("--from-version", type=int, default=0, metavar="V", help=r("from_version"))
    replay.add_argument("--address", default=None, metavar="HOST:PORT", help=r("address"))


def _table_command(
    sub: argparse._SubParsersAction[Parser],
    name: str,
    common: Parser,
    h: Callable[..., str],
) -> None:
    cmd = sub.add_parser(name, help=h(name), description=h(name), parents=[common])
    games = ", ".join(registry.names())
    if name == "play":
        cmd.add_argument("game", nargs="?", default="", metavar="GAME", help=h("game", games=games))
        cmd.add_argument("--match", default="", metavar="ID", help=h("match"))
    else:
        cmd.add_argument("game", metavar="GAME", help=h("game", games=games))
    cmd.add_argument("--players", type=int, default=0, metavar="N", help=h("players"))
    cmd.add_argument("--level", default="easy", choices=LEVELS, help=h("level"))
    cmd.add_argument("--think-ms", type=int, default=0, metavar="MS", help=h("think_ms"))
    cmd.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        type=option_pair(Parser.locale),
        help=h("option"),
    )
    cmd.add_argument("--preset", default="", metavar="NAME", help=h("preset"))
    cmd.add_argument("--mode", default="", metavar="MODE", help=h("mode"))
    cmd.add_argument("--address", default=None, metavar="HOST:PORT", help=h("address"))


def run(args: argparse.Namespace) -> int:
    command = args.command
    if command == "up":
        from tavola.cli.up import up

        host, _, port = (
            args.address.rpartition(":") if ":" in args.address else (args.address, "", "")
        )
        chosen = args.port if args.port is not None else (int(port) if port.isdigit() else None)
        return up(chosen, args.data, bot_instances=args.bots, host=host)
    if command == "games":
        from tavola.cli.games import games

        return games(args)
    if command == "demo":
        from tavola.cli.demo import demo

        return demo(args)
    if command == "play":
        from tavola.cli.play import play

        return play(args)
    if command == "matches":
        from tavola.cli.matches import matches

        return matches(args)
    if command == "league":
        from tavola.cli import league

        return league.run(args)
    if command in ("account", "whoami", "tables"):
        from tavola.cli import accounts

        return accounts.run(args)
    if command in ("correct", "audit", "import", "verify"):
        from tavola.cli import referee  # verify: the play, then the corrections apart

        return referee.verify(args) if command == "verify" else referee.run(args)
    from tavola.cli import replay

    if command == "replay":
        return replay.replay(
            args.match_id,
            file=args.file,
            seat=args.seat,
            spectator=args.spectator,
            hand=args.hand,
            step=args.step,
            from_version=args.from_version,
            address=args.address,
            locale=args.locale,
        )
    if command == "verify":
        bots = not args.no_bots
        if args.file:
            return replay.verify_file(args.file, bots=bots, locale=args.locale)
        return replay.verify(args.match_id, args.database_url, bots=bots, locale=args.locale)
    return replay.export(args.match_id, args.output, args.address, args.locale)


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    locale = prescan_locale(arguments)
    prog = "tavola"
    try:
        args = parser(locale).parse_args(arguments)
        prog = f"tavola {args.command}"
        return run(args)
    except CliError as error:
        print(f"{prog}: {error}", file=sys.stderr)
        return error.code
    except BookError as error:
        print(f"{prog}: {error}", file=sys.stderr)
        return 1
    except grpc.RpcError as error:
        address = getattr(locals().get("args"), "address", None)
        from tavola.cli.client import default_address

        print(f"{prog}: {rpc_line(error, locale, address or default_address())}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{prog}: {t('interrupted', locale)}", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
