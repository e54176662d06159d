"""``tavola account …``, ``tavola whoami`` and ``tavola tables``: accounts, tokens and
tables, over the public API with the user's token (``tavola up`` gives the local user an
admin one). ``account add --database URL`` writes straight into a platform's log, for an
installation's first admin before anyone holds a token."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

import grpc

from tavola.accounts.model import KIND_NAMES, Kind, kind_named
from tavola.cli.client import Client
from tavola.v1 import account_pb2, lobby_pb2

_KIND_FLAGS = ("bot", "host", "referee", "admin")
_STATUS = {
    "open": lobby_pb2.TABLE_STATUS_OPEN,
    "playing": lobby_pb2.TABLE_STATUS_PLAYING,
    "finished": lobby_pb2.TABLE_STATUS_FINISHED,
}


def register(sub: Any) -> None:
    """Add the commands to the ``tavola`` parser's subcommands."""
    account = sub.add_parser("account", help="accounts and their API tokens")
    actions = account.add_subparsers(dest="account_command", required=True)
    add = actions.add_parser("add", help="create an account and print its first token")
    add.add_argument("name", help="display name (unique; 2-32 letters, digits, . - _ spaces)")
    kinds = add.add_mutually_exclusive_group()
    for flag in _KIND_FLAGS:
        kinds.add_argument(f"--{flag}", action="store_true", help=f"a {flag} account")
    add.add_argument(
        "--database",
        default=None,
        metavar="URL",
        help="write into this platform database directly (bootstrap, no token needed)",
    )
    _connection(add)
    listing = actions.add_parser("list", help="every account (admin)")
    _connection(listing)
    token = actions.add_parser("token", help="issue a new token (yours, or NAME's as admin)")
    token.add_argument("name", nargs="?", default="")
    token.add_argument("--scope", action="append", default=[], help="play, bot, host, read…")
    token.add_argument("--label", default="cli")
    _connection(token)
    tokens = actions.add_parser("tokens", help="list tokens (yours, or NAME's as admin)")
    tokens.add_argument("name", nargs="?", default="")
    _connection(tokens)
    revoke = actions.add_parser("revoke", help="revoke a token by its id")
    revoke.add_argument("token_id")
    revoke.add_argument("--account", default="", help="whose token (admin)")
    _connection(revoke)
    whoami = sub.add_parser("whoami", help="the account and scopes of your token")
    _connection(whoami)
    tables = sub.add_parser("tables", help="tables to join or watch")
    tables.add_argument("--game", default="", help="only this game")
    tables.add_argument(
        "--status", default="", choices=("", *_STATUS), help="open|playing|finished"
    )
    tables.add_argument("--mine", action="store_true", help="only yours (hosted, seated, invited)")
    tables.add_argument("--limit", type=int, default=50)
    _connection(tables)


def _connection(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--address", default=None, help="platform address (host:port)")
    parser.add_argument("--token", default=None, help="API token (default: yours from tavola up)")


def run(args: argparse.Namespace) -> int:
    try:
        if args.command == "account" and args.account_command == "add" and args.database:
            return _add_direct(args)
        client = Client.connect(args.address, args.token)
        try:
            return _run(client, args)
        finally:
            client.close()
    except grpc.RpcError as error:
        print(f"tavola {args.command}: {error.details()}", file=sys.stderr)
        return 1


def _kind(args: argparse.Namespace) -> Kind:
    for flag in _KIND_FLAGS:
        if getattr(args, flag, False):
            return kind_named(flag)
    return Kind.PLAYER


def _add_direct(args: argparse.Namespace) -> int:
    from tavola.accounts.local import create_account
    from tavola.protocol.errors import ServiceError

    try:
        account, token = asyncio.run(
            create_account(args.database, args.name, _kind(args), "tavola account add")
        )
    except ServiceError as error:
        print(f"tavola account add: {error.message}", file=sys.stderr)
        return 1
    print(f"account {account.name} ({KIND_NAMES[account.kind]}) created; its token:")
    print(token)
    return 0


def _run(client: Client, args: argparse.Namespace) -> int:
    if args.command == "whoami":
        me = client.accounts.WhoAmI(account_pb2.WhoAmIRequest(), timeout=10)
        print(f"{me.account.name} ({KIND_NAMES[Kind(me.account.kind)]}) on {client.address}")
        print(f"  token {me.token_id}: {', '.join(me.scopes)}")
        return 0
    if args.command == "tables":
        return _tables(client, args)
    command = args.account_command
    if command == "add":
        made = client.accounts.CreateAccount(
            account_pb2.CreateAccountRequest(
                name=args.name,
                kind=int(_kind(args)),  # type: ignore[arg-type]
                token_label="tavola account add",
            ),
            timeout=10,
        )
        print(f"account {made.account.name} ({KIND_NAMES[Kind(made.account.kind)]}) created;")
        print("its token (shown only now):")
        print(made.token)
    elif command == "list":
        listed = client.accounts.ListAccounts(account_pb2.ListAccountsRequest(), timeout=10)
        for account in listed.accounts:
            print(f"{account.name:<32} {KIND_NAMES[Kind(account.kind)]:<8} {account.account_id}")
    elif command == "token":
        issued = client.accounts.IssueToken(
            account_pb2.IssueTokenRequest(
                account_name=args.name, scopes=args.scope, label=args.label
            ),
            timeout=10,
        )
        print(f"token {issued.info.token_id} ({', '.join(issued.info.scopes)}), shown only now:")
        print(issued.token)
    elif command == "tokens":
        listed_tokens = client.accounts.ListTokens(
            account_pb2.ListTokensRequest(account_name=args.name), timeout=10
        )
        for token in listed_tokens.tokens:
            state = "revoked" if token.revoked else "live"
            when = token.issued_at.ToDatetime().strftime("%Y-%m-%d %H:%M")
            scopes = ",".join(token.scopes)
            print(f"{token.token_id}  {state:<7} {when}  {scopes:<28} {token.label}")
    elif command == "revoke":
        done = client.accounts.RevokeToken(
            account_pb2.RevokeTokenRequest(token_id=args.token_id, account_name=args.account),
            timeout=10,
        )
        print("revoked" if done.revoked else "it was already revoked")
    return 0


def _tables(client: Client, args: argparse.Namespace) -> int:
    listed = client.lobby.ListTables(
        lobby_pb2.ListTablesRequest(
            game=args.game,
            status=_STATUS.get(args.status, lobby_pb2.TABLE_STATUS_UNSPECIFIED),
            limit=args.limit,
            mine=args.mine,
        ),
        timeout=10,
    )
    if not listed.tables:
        print("no tables")
        return 0
    names = {v: k for k, v in _STATUS.items()}
    for table in listed.tables:
        status = names.get(table.status, "?")
        seats = f"{table.players - table.free_seats}/{table.players}"
        rules = f"  house rules: {', '.join(table.house_rules)}" if table.house_rules else ""
        invite = "  (invitation)" if table.access == lobby_pb2.TABLE_ACCESS_INVITE_ONLY else ""
        print(
            f"{table.table_id}  {table.game:<10} {status:<8} {seats:>5}  host {table.host}"
            f"{invite}{rules}"
        )
    return 0
