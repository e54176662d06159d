"""``tavola`` — run the platform, watch bots play, play yourself, replay a match."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from tavola.rules import registry


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tavola", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    up = sub.add_parser("up", help="start the whole platform on this machine")
    up.add_argument("--port", type=int, default=50051, help="gRPC port for clients")
    up.add_argument("--data", default=".tavola/run", help="data folder of local infra")
    up.add_argument(
        "--bots", type=int, default=1, help="bot service instances (they share the work)"
    )
    for name, text in (
        ("demo", "a match with every seat a bot"),
        ("play", "play against bots in the terminal"),
    ):
        cmd = sub.add_parser(name, help=text)
        cmd.add_argument("game", choices=registry.names())
        cmd.add_argument("--players", type=int, default=0)
        cmd.add_argument("--level", default="easy", choices=("easy", "medium", "hard", "master"))
        cmd.add_argument(
            "--think-ms",
            type=int,
            default=0,
            help="bots' thinking time per decision in ms (0: the game's default, about 1 s)",
        )
        cmd.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
        cmd.add_argument("--preset", default="")
        cmd.add_argument("--address", default=None)
        cmd.add_argument("--locale", default="en", choices=("en", "pt"))
        if name == "demo":
            cmd.add_argument("--mode", default="", help="dominoes: partnership|block|draw")
    replay = sub.add_parser("replay", help="rebuild a match from the log and print it")
    replay.add_argument("match_id")
    replay.add_argument("--database-url", default=None)
    verify = sub.add_parser("verify", help="verify a finished match (log or exported record)")
    verify.add_argument("match_id", nargs="?", default="")
    verify.add_argument("--database-url", default=None)
    verify.add_argument("--file", default=None, help="an exported record (tavola export)")
    verify.add_argument(
        "--no-bots",
        action="store_true",
        help="skip re-deriving the bots' decisions (a master decision costs what it did)",
    )
    export = sub.add_parser("export", help="a finished match as a self-contained record")
    export.add_argument("match_id")
    export.add_argument("-o", "--output", default="-")
    export.add_argument("--address", default=None)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "up":
        from tavola.cli.up import up

        return up(args.port, args.data, bot_instances=args.bots)
    if args.command == "demo":
        from tavola.cli.demo import demo

        return demo(args)
    if args.command == "play":
        from tavola.cli.play import play

        return play(args)
    if args.command == "replay":
        from tavola.cli.replay import replay

        return replay(args.match_id, args.database_url)
    if args.command == "verify":
        from tavola.cli.replay import verify, verify_file

        bots = not args.no_bots
        if args.file:
            return verify_file(args.file, bots=bots)
        return verify(args.match_id, args.database_url, bots=bots)
    if args.command == "export":
        from tavola.cli.replay import export

        return export(args.match_id, args.output, args.address)
    return 2


if __name__ == "__main__":
    sys.exit(main())
