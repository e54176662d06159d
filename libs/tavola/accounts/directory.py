"""Accounts over the event log: create, find, issue and revoke tokens.

Every change is an event in the account's stream; a display name is claimed by its own
stream (``name-<digest>``, expected version 0), so no two accounts share a name even when
created at the same instant by two lobbies. A claim is written first: if the process dies
before the account stream follows, the next creation with that name adopts the claim.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from uuid import UUID

from tavola.accounts.model import (
    AccountCreated,
    AccountState,
    Kind,
    NameClaimed,
    Token,
    TokenIssued,
    TokenRevoked,
    account_stream,
    fold,
    granted_scopes,
    name_problem,
    name_stream,
    token_hash,
    token_text,
)
from tavola.eventlog.errors import ConcurrencyConflict
from tavola.eventlog.model import EventStore
from tavola.protocol import errors
from tavola.protocol import events as codec
from tavola.rules.interface import Event

MAX_LABEL = 64
MAX_TOKENS = 100  # live tokens per account
_RETRIES = 5


@dataclass
class DirectoryPorts:
    store: EventStore
    new_id: Callable[[], UUID]
    new_secret: Callable[[], str]  # 43 URL-safe characters (32 random bytes)
    new_token_id: Callable[[], str]  # 12 hex digits
    now_ms: Callable[[], int]


class AccountDirectory:
    def __init__(self, ports: DirectoryPorts) -> None:
        self._ports = ports

    # ----- reading -----------------------------------------------------------------------
    async def load(self, account_id: str) -> AccountState | None:
        stored = await self._ports.store.read_stream(account_stream(account_id))
        if not stored:
            return None
        return fold(codec.decode_payload("", s.type, s.payload) for s in stored)

    async def claimed_by(self, name: str) -> str | None:
        """The account id holding ``name`` (compared without case and accents), or None."""
        stored = await self._ports.store.read_stream(name_stream(name), limit=1)
        if not stored:
            return None
        claim = codec.decode_payload("", stored[0].type, stored[0].payload)
        assert isinstance(claim, NameClaimed)
        return claim.account_id

    async def by_name(self, name: str) -> AccountState | None:
        account_id = await self.claimed_by(name)
        return None if account_id is None else await self.load(account_id)

    # ----- changing ----------------------------------------------------------------------
    async def create(
        self, name: str, kind: Kind, created_by: str = "", label: str = ""
    ) -> tuple[AccountState, str, Token]:
        """A new account with its first token (every scope of its kind)."""
        problem = name_problem(name)
        if problem is not None:
            raise errors.invalid(problem, name=name)
        _check_label(label)
        account_id = str(self._ports.new_id())
        try:
            await self._append(name_stream(name), 0, [NameClaimed(account_id, name)])
        except ConcurrencyConflict:
            holder = await self.claimed_by(name)
            if holder is None or await self.load(holder) is not None:
                raise errors.exists("account.name_taken", name=name) from None
            account_id = holder  # a claim whose account was never written: adopt it
        created = AccountCreated(account_id, name, kind, created_by, self._ports.now_ms())
        text, issued = self._token_event(account_id, granted_scopes(kind, ()), label, created_by)
        try:
            await self._append(account_stream(account_id), 0, [created, issued])
        except ConcurrencyConflict:  # another creation adopted the same claim first
            raise errors.exists("account.name_taken", name=name) from None
        state = fold([created, issued])
        token = state.tokens[-1]
        return state, text, token

    async def issue(
        self,
        account: AccountState,
        scopes: Sequence[str],
        label: str,
        issued_by: str,
        ceiling: frozenset[str] | None = None,
    ) -> tuple[str, Token]:
        """A new token for ``account``; ``ceiling`` bounds its scopes (self-service)."""
        _check_label(label)
        try:
            granted = granted_scopes(account.kind, scopes, ceiling)
        except ValueError as error:
            raise errors.denied("account.scope_not_allowed", scope=str(error)) from None
        for _ in range(_RETRIES):
            if sum(not t.revoked for t in account.tokens) >= MAX_TOKENS:
                raise errors.precondition("account.too_many_tokens", limit=MAX_TOKENS)
            text, issued = self._token_event(account.account_id, granted, label, issued_by)
            try:
                await self._append(account_stream(account.account_id), account.version, [issued])
            except ConcurrencyConflict:
                fresh = await self.load(account.account_id)
                assert fresh is not None
                account = fresh
                continue
            token = fold([issued], account).tokens[-1]
            return text, token
        raise errors.aborted("command.conflict")

    async def revoke(self, account: AccountState, token_id: str, revoked_by: str) -> bool:
        """Revoke a token; False if it was revoked already."""
        for _ in range(_RETRIES):
            token = account.token(token_id)
            if token is None:
                raise errors.not_found("account.no_such_token", token_id=token_id)
            if token.revoked:
                return False
            try:
                await self._append(
                    account_stream(account.account_id),
                    account.version,
                    [TokenRevoked(token_id, revoked_by)],
                )
                return True
            except ConcurrencyConflict:
                fresh = await self.load(account.account_id)
                assert fresh is not None
                account = fresh
        raise errors.aborted("command.conflict")

    async def ensure(self, name: str, kind: Kind, label: str) -> tuple[AccountState, str]:
        """The installation's own account ``name`` (created if missing) and a fresh token:
        how ``tavola up`` gives the local user an admin token without any step."""
        account = await self.by_name(name)
        if account is None:
            try:
                account, text, _ = await self.create(name, kind, label=label)
                return account, text
            except errors.ServiceError:
                account = await self.by_name(name)
                if account is None:
                    raise
        if account.kind != kind:
            raise errors.precondition("account.kind_differs", name=name)
        text, _ = await self.issue(account, (), label, issued_by="")
        return account, text

    # ----- helpers -----------------------------------------------------------------------
    def _token_event(
        self, account_id: str, scopes: frozenset[str], label: str, issued_by: str
    ) -> tuple[str, TokenIssued]:
        token_id = self._ports.new_token_id()
        text = token_text(account_id, token_id, self._ports.new_secret())
        event = TokenIssued(
            token_id=token_id,
            token_sha256=token_hash(text),
            scopes=tuple(sorted(scopes)),
            label=label,
            issued_at_ms=self._ports.now_ms(),
            issued_by=issued_by,
        )
        return text, event

    async def _append(self, stream: str, expected: int, events: Sequence[Event]) -> None:
        await self._ports.store.append(
            stream, expected, codec.system_events(events, self._ports.new_id)
        )


def _check_label(label: str) -> None:
    if len(label) > MAX_LABEL:
        raise errors.invalid("request.too_large", field="label", limit=MAX_LABEL)
