"""Accounts for end-to-end tests: created by the platform's admin over the public API."""

from __future__ import annotations

import secrets

from tavola.accounts.model import Kind
from tavola.cli.client import Client
from tavola.v1 import account_pb2


def unique(prefix: str) -> str:
    return f"{prefix}-{secrets.token_hex(3)}"


def new_account(admin: Client, prefix: str, kind: Kind = Kind.PLAYER) -> tuple[Client, str]:
    """A new account's client (with its first token) and its display name."""
    name = unique(prefix)
    made = admin.accounts.CreateAccount(
        account_pb2.CreateAccountRequest(name=name, kind=int(kind)),
        timeout=10,  # type: ignore[arg-type]
    )
    return Client.connect(admin.address, made.token), name


def token_with(client: Client, *scopes: str) -> Client:
    """Another client of the same account whose token has only ``scopes``."""
    issued = client.accounts.IssueToken(
        account_pb2.IssueTokenRequest(scopes=list(scopes), label="narrow"), timeout=10
    )
    return Client.connect(client.address, issued.token)
