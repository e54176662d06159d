"""Authenticating bearer tokens against the accounts in the log, with a small cache.

A token names its account (``tvl1_<account>_<token id>_<secret>``), so checking it is one
fold of one short stream. Folds are cached for ``ttl`` seconds (bounded LRU); a change to
an account seen on the bus drops its entry at once, so a revoked token stops working on
every engine within a moment, and within ``ttl`` at worst.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable

from tavola.accounts.model import AccountState, Principal, authenticate, parse_token

DEFAULT_TTL = 5.0
DEFAULT_ENTRIES = 20_000


class Authenticator:
    def __init__(
        self,
        load: Callable[[str], Awaitable[AccountState | None]],
        clock: Callable[[], float],
        ttl: float = DEFAULT_TTL,
        max_entries: int = DEFAULT_ENTRIES,
    ) -> None:
        self._load = load
        self._clock = clock
        self._ttl = ttl
        self._max = max_entries
        self._cache: OrderedDict[str, tuple[AccountState | None, float]] = OrderedDict()

    async def authenticate(self, text: str) -> Principal | None:
        """The principal of a token text, or None (malformed, unknown or revoked)."""
        parts = parse_token(text)
        if parts is None:
            return None
        state = await self._account(parts.account_id)
        if state is not None and state.token(parts.token_id) is None:
            state = await self._account(parts.account_id, fresh=True)  # a token just issued
        return None if state is None else authenticate(state, text)

    async def _account(self, account_id: str, fresh: bool = False) -> AccountState | None:
        now = self._clock()
        cached = self._cache.get(account_id)
        if cached is not None and now - cached[1] < self._ttl and not fresh:
            self._cache.move_to_end(account_id)
            return cached[0]
        state = await self._load(account_id)
        self._cache[account_id] = (state, now)
        self._cache.move_to_end(account_id)
        while len(self._cache) > self._max:
            self._cache.popitem(last=False)
        return state

    def invalidate(self, account_id: str) -> None:
        self._cache.pop(account_id, None)

    def __len__(self) -> int:
        return len(self._cache)
