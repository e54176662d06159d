"""Accounts, names, scopes and tokens: the pure model and the directory over the log."""

from __future__ import annotations

import itertools
import uuid

import pytest

from support.engine import FixedClock
from tavola.accounts.auth import Authenticator
from tavola.accounts.directory import AccountDirectory, DirectoryPorts
from tavola.accounts.model import (
    KIND_SCOPES,
    Kind,
    authenticate,
    granted_scopes,
    name_problem,
    name_stream,
    normal_name,
    parse_token,
    token_text,
)
from tavola.eventlog.memory import InMemoryEventStore
from tavola.protocol.errors import ServiceError


def directory() -> tuple[AccountDirectory, InMemoryEventStore]:
    store = InMemoryEventStore(FixedClock())
    ids = itertools.count(1)
    secrets = itertools.count(1)
    tokens = itertools.count(1)
    ports = DirectoryPorts(
        store=store,
        new_id=lambda: uuid.UUID(int=next(ids)),
        new_secret=lambda: f"{next(secrets):043d}",
        new_token_id=lambda: f"{next(tokens):012x}",
        now_ms=lambda: 1_800_000_000_000,
    )
    return AccountDirectory(ports), store


def test_names_compare_without_case_accents_or_extra_spaces():
    assert normal_name("Zoé  Ávila") == normal_name("zoe avila")
    assert name_stream("ZOÉ") == name_stream("zoe")


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("ana", None),
        ("João-Pedro_2", None),
        ("a", "account.name_length"),
        ("x" * 33, "account.name_length"),
        (" ana", "account.name_spaces"),
        ("ana  bia", "account.name_spaces"),
        ("ana\x00", "account.name_chars"),
        ("ana<script>", "account.name_chars"),
        ("Bot 2 (easy)", "account.name_chars"),
        ("Bot ana", "account.name_reserved"),
        ("bot x", "account.name_reserved"),
    ],
)
def test_a_display_name_is_checked_with_a_reason(name, problem):
    assert name_problem(name) == problem


def test_a_token_names_its_account_and_only_its_hash_is_kept():
    account = "12345678-1234-4234-8234-123456789abc"
    text = token_text(account, "0123456789ab", "s" * 43)
    parts = parse_token(text)
    assert parts is not None and (parts.account_id, parts.token_id) == (account, "0123456789ab")
    for bad in ("", "tvl1_x", text + "x", text.replace("tvl1", "tvl2"), "Bearer " + text):
        assert parse_token(bad) is None


def test_a_token_gets_at_most_what_its_kind_and_its_issuer_allow():
    assert granted_scopes(Kind.PLAYER, ()) == KIND_SCOPES[Kind.PLAYER]
    assert granted_scopes(Kind.ADMIN, ("read",)) == frozenset({"read"})
    with pytest.raises(ValueError, match="host"):
        granted_scopes(Kind.PLAYER, ("host",))
    with pytest.raises(ValueError, match="play"):
        granted_scopes(Kind.HOST, ("play",), ceiling=frozenset({"read", "host"}))
    with pytest.raises(ValueError, match="root"):
        granted_scopes(Kind.ADMIN, ("root",))


async def test_an_account_is_created_once_per_name_and_its_token_opens_it():
    accounts, _ = directory()
    state, text, token = await accounts.create("Ana", Kind.HOST)
    principal = authenticate(state, text)
    assert principal is not None and principal.name == "Ana"
    assert principal.scopes == KIND_SCOPES[Kind.HOST] and principal.token_id == token.token_id
    with pytest.raises(ServiceError) as caught:
        await accounts.create("ANA", Kind.PLAYER)
    assert caught.value.reason.code == "account.name_taken"
    found = await accounts.by_name("ana")
    assert found is not None and found.account_id == state.account_id


async def test_a_revoked_token_opens_nothing_and_others_still_work():
    accounts, _ = directory()
    state, first, token = await accounts.create("bia", Kind.PLAYER)
    second, _ = await accounts.issue(state, ("read",), "dashboard", issued_by=state.account_id)
    fresh = await accounts.load(state.account_id)
    assert fresh is not None
    assert await accounts.revoke(fresh, token.token_id, revoked_by=state.account_id)
    fresh = await accounts.load(state.account_id)
    assert fresh is not None
    assert authenticate(fresh, first) is None
    reader = authenticate(fresh, second)
    assert reader is not None and reader.scopes == frozenset({"read"})
    assert not await accounts.revoke(fresh, token.token_id, revoked_by="")  # already


async def test_a_forged_token_for_a_real_account_opens_nothing():
    accounts, _ = directory()
    state, text, token = await accounts.create("caio", Kind.ADMIN)
    forged = token_text(state.account_id, token.token_id, "f" * 43)
    assert authenticate(state, forged) is None
    secret = text.rsplit("_", 1)[1]
    elsewhere = token_text(str(uuid.UUID(int=7)), token.token_id, secret)
    assert authenticate(state, elsewhere) is None  # the right secret, another account


async def test_a_claim_whose_account_was_never_written_is_adopted():
    accounts, store = directory()
    from tavola.accounts.model import NameClaimed
    from tavola.protocol import events as codec

    orphan = str(uuid.UUID(int=999))
    await store.append(
        name_stream("duda"), 0, codec.system_events([NameClaimed(orphan, "duda")], uuid.uuid4)
    )
    state, _, _ = await accounts.create("duda", Kind.PLAYER)
    assert state.account_id == orphan


async def test_the_authenticator_sees_a_new_token_at_once_and_a_revocation_after_its_ttl():
    accounts, _ = directory()
    now = [0.0]
    auth = Authenticator(accounts.load, lambda: now[0], ttl=5.0)
    state, text, token = await accounts.create("eva", Kind.PLAYER)
    assert await auth.authenticate(text) is not None
    newer, _ = await accounts.issue(state, (), "", issued_by="")
    assert await auth.authenticate(newer) is not None  # not yet in the cache: read again
    fresh = await accounts.load(state.account_id)
    assert fresh is not None
    await accounts.revoke(fresh, token.token_id, revoked_by="")
    now[0] = 6.0
    assert await auth.authenticate(text) is None
    assert await auth.authenticate("not a token") is None
