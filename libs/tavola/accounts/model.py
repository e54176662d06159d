"""Accounts, their kinds and scopes, API tokens — pure values, events and their fold.

An account is a stream ``account-<id>`` in the log; its display name is claimed by a stream
``name-<digest>`` whose first event names the account, so two accounts can never hold one
name (the second claim's expected version fails). A token is
``tvl1_<account id>_<token id>_<secret>``: the account id says which stream to fold, and
only the SHA-256 of the whole text is recorded (``TokenIssued``), never the text itself.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import IntEnum

from tavola.rules.interface import Event


class Kind(IntEnum):
    """Numbers match ``tavola.v1.AccountKind``."""

    PLAYER = 1
    BOT = 2
    HOST = 3
    REFEREE = 4
    ADMIN = 5


PLAY = "play"
BOT = "bot"
HOST = "host"
REFEREE = "referee"
READ = "read"
ADMIN = "admin"
# a relay's own credential (the web gateway): its calls may name the client's address,
# which the edge then counts for the per-address limits (docs/security.md)
GATEWAY = "gateway"
SCOPES = (PLAY, BOT, HOST, REFEREE, READ, ADMIN, GATEWAY)

KIND_SCOPES: dict[Kind, frozenset[str]] = {
    Kind.PLAYER: frozenset({PLAY, READ}),
    Kind.BOT: frozenset({BOT, READ}),
    Kind.HOST: frozenset({HOST, PLAY, READ}),
    Kind.REFEREE: frozenset({REFEREE, READ}),
    Kind.ADMIN: frozenset(SCOPES),
}

KIND_NAMES = {kind: kind.name.lower() for kind in Kind}
EXPLICIT_ONLY = frozenset({GATEWAY})  # never in a token unless asked for by name


def kind_named(name: str) -> Kind:
    for kind, text in KIND_NAMES.items():
        if text == name:
            return kind
    raise ValueError(name)


# ----- events ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class AccountCreated(Event):
    account_id: str
    name: str
    kind: Kind
    created_by: str  # the admin's account id, or "" when created by the installation
    created_at_ms: int = 0


@dataclass(frozen=True, slots=True)
class NameClaimed(Event):
    """First event of ``name-<digest>``: the name belongs to ``account_id``."""

    account_id: str
    name: str


@dataclass(frozen=True, slots=True)
class TokenIssued(Event):
    """A token's hash and scopes; seen by no one (its audience is empty)."""

    token_id: str
    token_sha256: str
    scopes: tuple[str, ...]
    label: str
    issued_at_ms: int
    issued_by: str

    def audience(self) -> frozenset[int] | None:
        return frozenset()


@dataclass(frozen=True, slots=True)
class TokenRevoked(Event):
    token_id: str
    revoked_by: str


ACCOUNT_EVENTS: tuple[type[Event], ...] = (AccountCreated, NameClaimed, TokenIssued, TokenRevoked)


# ----- state -------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Token:
    token_id: str
    token_sha256: str
    scopes: frozenset[str]
    label: str
    issued_at_ms: int
    revoked: bool = False


@dataclass(frozen=True, slots=True)
class AccountState:
    account_id: str
    name: str
    kind: Kind
    version: int = 1
    tokens: tuple[Token, ...] = field(default=())
    created_at_ms: int = 0

    @property
    def is_bot(self) -> bool:
        return self.kind == Kind.BOT

    def token(self, token_id: str) -> Token | None:
        return next((t for t in self.tokens if t.token_id == token_id), None)


def evolve(state: AccountState | None, event: Event) -> AccountState:
    if isinstance(event, AccountCreated):
        return AccountState(
            event.account_id, event.name, event.kind, created_at_ms=event.created_at_ms
        )
    if state is None:
        raise ValueError("an account stream must begin with AccountCreated")
    state = replace(state, version=state.version + 1)
    if isinstance(event, TokenIssued):
        token = Token(
            event.token_id,
            event.token_sha256,
            frozenset(event.scopes),
            event.label,
            event.issued_at_ms,
        )
        return replace(state, tokens=(*state.tokens, token))
    if isinstance(event, TokenRevoked):
        tokens = tuple(
            replace(t, revoked=True) if t.token_id == event.token_id else t for t in state.tokens
        )
        return replace(state, tokens=tokens)
    raise TypeError(f"not an account event: {event!r}")


def fold(events: Iterable[Event], state: AccountState | None = None) -> AccountState:
    for event in events:
        state = evolve(state, event)
    if state is None:
        raise ValueError("no events")
    return state


# ----- who is calling ----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Principal:
    """The account behind a call, as authenticated by its token."""

    account_id: str
    name: str
    kind: Kind
    scopes: frozenset[str]
    token_id: str

    @property
    def is_bot(self) -> bool:
        return self.kind == Kind.BOT

    def has(self, *scopes: str) -> bool:
        """True when the token has at least one of ``scopes``."""
        return any(s in self.scopes for s in scopes)


# ----- names -------------------------------------------------------------------------------
NAME_MIN, NAME_MAX = 2, 32
_NAME_CHARS = re.compile(r"^[\w .\-]+$")
RESERVED_PREFIXES = ("bot ",)  # the platform's own bots are "Bot 2 (easy)"


def normal_name(name: str) -> str:
    """The form two names are compared in: NFKD without accents, case-folded, one space."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be an account's display name (a message code), or None."""
    if name != name.strip() or "  " in name:
        return "account.name_spaces"
    if not NAME_MIN <= len(name) <= NAME_MAX:
        return "account.name_length"
    if not _NAME_CHARS.match(name) or any(unicodedata.category(c)[0] == "C" for c in name):
        return "account.name_chars"
    if normal_name(name).startswith(RESERVED_PREFIXES):
        return "account.name_reserved"
    return None


def name_stream(name: str) -> str:
    digest = hashlib.sha256(normal_name(name).encode()).hexdigest()[:40]
    return f"name-{digest}"


def account_stream(account_id: str) -> str:
    return f"account-{account_id}"


# ----- tokens ------------------------------------------------------------------------------
TOKEN_PREFIX = "tvl1"
_TOKEN = re.compile(r"^tvl1_([0-9a-f]{32})_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$")
TOKEN_MAX = 128


@dataclass(frozen=True, slots=True)
class TokenParts:
    account_id: str  # UUID text
    token_id: str


def token_text(account_id: str, token_id: str, secret: str) -> str:
    return f"{TOKEN_PREFIX}_{account_id.replace('-', '')}_{token_id}_{secret}"


def parse_token(text: str) -> TokenParts | None:
    """The account and token ids a token names, or None if it is not one of ours."""
    if len(text) > TOKEN_MAX:
        return None
    found = _TOKEN.match(text)
    if found is None:
        return None
    hexid = found.group(1)
    account = f"{hexid[:8]}-{hexid[8:12]}-{hexid[12:16]}-{hexid[16:20]}-{hexid[20:]}"
    return TokenParts(account, found.group(2))


def token_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def authenticate(state: AccountState, text: str) -> Principal | None:
    """The principal a token text opens on this account, or None (unknown or revoked)."""
    parts = parse_token(text)
    if parts is None or parts.account_id != state.account_id:
        return None
    token = state.token(parts.token_id)
    if token is None or token.revoked:
        return None
    if not hmac.compare_digest(token.token_sha256, token_hash(text)):
        return None
    allowed = token.scopes & KIND_SCOPES[state.kind]
    return Principal(state.account_id, state.name, state.kind, allowed, token.token_id)


def granted_scopes(
    kind: Kind, asked: Sequence[str], ceiling: frozenset[str] | None = None
) -> frozenset[str]:
    """Scopes a new token gets: what was asked (or everything the kind allows), never more
    than the kind allows nor than ``ceiling`` (the issuing token's own, for self-service).
    Raises ValueError naming an unknown or disallowed scope."""
    allowed = KIND_SCOPES[kind] if ceiling is None else KIND_SCOPES[kind] & ceiling
    wanted = frozenset(asked) if asked else allowed - EXPLICIT_ONLY
    for scope in sorted(wanted):
        if scope not in SCOPES or scope not in allowed:
            raise ValueError(scope)
    return wanted
