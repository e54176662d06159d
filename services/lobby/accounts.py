"""AccountService, answered by the lobby: who am I, accounts, tokens.

Self-service: any token may list its own account's tokens, revoke them, and issue new
ones with at most its own scopes. Everything about another account needs ``admin``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from google.protobuf.timestamp_pb2 import Timestamp

from tavola.accounts.directory import AccountDirectory
from tavola.accounts.model import ADMIN, AccountState, Kind, Principal, Token
from tavola.protocol import errors
from tavola.v1 import account_pb2

ListAccounts = Callable[[], Awaitable[list[AccountState]]]


class Accounts:
    def __init__(self, directory: AccountDirectory, list_all: ListAccounts) -> None:
        self._directory = directory
        self._list_all = list_all

    async def who_am_i(
        self, _: account_pb2.WhoAmIRequest, principal: Principal
    ) -> account_pb2.WhoAmIResponse:
        account = await self._directory.load(principal.account_id)
        if account is None:
            raise errors.unauthenticated("auth.invalid")
        return account_pb2.WhoAmIResponse(
            account=account_pb(account),
            token_id=principal.token_id,
            scopes=sorted(principal.scopes),
        )

    async def create_account(
        self, request: account_pb2.CreateAccountRequest, principal: Principal
    ) -> account_pb2.CreateAccountResponse:
        _admin(principal)
        try:
            kind = Kind(request.kind or Kind.PLAYER)
        except ValueError:
            raise errors.invalid(
                "request.invalid", field="kind", detail=str(request.kind)
            ) from None
        account, text, token = await self._directory.create(
            request.name, kind, created_by=principal.account_id, label=request.token_label
        )
        return account_pb2.CreateAccountResponse(
            account=account_pb(account), token=text, token_id=token.token_id
        )

    async def get_account(
        self, request: account_pb2.GetAccountRequest, _: Principal
    ) -> account_pb2.GetAccountResponse:
        if request.account_id:
            account = await self._directory.load(request.account_id)
        elif request.name:
            account = await self._directory.by_name(request.name)
        else:
            raise errors.invalid("request.missing", field="name")
        if account is None:
            raise errors.not_found("account.not_found", name=request.name or request.account_id)
        return account_pb2.GetAccountResponse(account=account_pb(account))

    async def issue_token(
        self, request: account_pb2.IssueTokenRequest, principal: Principal
    ) -> account_pb2.IssueTokenResponse:
        account, own = await self._whose(request.account_name, principal)
        text, token = await self._directory.issue(
            account,
            list(request.scopes),
            request.label,
            issued_by=principal.account_id,
            # self-service stays within the issuing token's scopes; an admin (who may issue
            # any account's tokens) is bounded only by the account's kind
            ceiling=principal.scopes if own and not principal.has(ADMIN) else None,
        )
        return account_pb2.IssueTokenResponse(token=text, info=token_pb(token))

    async def revoke_token(
        self, request: account_pb2.RevokeTokenRequest, principal: Principal
    ) -> account_pb2.RevokeTokenResponse:
        account, _ = await self._whose(request.account_name, principal)
        revoked = await self._directory.revoke(account, request.token_id, principal.account_id)
        return account_pb2.RevokeTokenResponse(revoked=revoked)

    async def list_tokens(
        self, request: account_pb2.ListTokensRequest, principal: Principal
    ) -> account_pb2.ListTokensResponse:
        account, _ = await self._whose(request.account_name, principal)
        return account_pb2.ListTokensResponse(tokens=[token_pb(t) for t in account.tokens])

    async def list_accounts(
        self, _: account_pb2.ListAccountsRequest, principal: Principal
    ) -> account_pb2.ListAccountsResponse:
        _admin(principal)
        accounts = sorted(await self._list_all(), key=lambda a: a.name.casefold())
        return account_pb2.ListAccountsResponse(accounts=[account_pb(a) for a in accounts])

    async def _whose(self, name: str, principal: Principal) -> tuple[AccountState, bool]:
        """The account a request is about: the caller's own, or (admin) the one named."""
        if name and name.casefold() != principal.name.casefold():
            _admin(principal)
            account = await self._directory.by_name(name)
            if account is None:
                raise errors.not_found("account.not_found", name=name)
            return account, False
        account = await self._directory.load(principal.account_id)
        if account is None:
            raise errors.unauthenticated("auth.invalid")
        return account, True


def _admin(principal: Principal) -> None:
    if not principal.has(ADMIN):
        raise errors.denied("auth.scope_missing", scope=ADMIN)


def account_pb(account: AccountState) -> account_pb2.Account:
    created = Timestamp()
    created.FromMilliseconds(account.created_at_ms)
    return account_pb2.Account(
        account_id=account.account_id,
        name=account.name,
        kind=int(account.kind),  # type: ignore[arg-type]
        is_bot=account.is_bot,
        created_at=created,
    )


def token_pb(token: Token) -> account_pb2.TokenInfo:
    issued = Timestamp()
    issued.FromMilliseconds(token.issued_at_ms)
    return account_pb2.TokenInfo(
        token_id=token.token_id,
        label=token.label,
        scopes=sorted(token.scopes),
        issued_at=issued,
        revoked=token.revoked,
    )
