"""The edge counts a call relayed by the gateway against the browser's address — only when
the call carries a valid credential with the gateway scope; a bare ``tavola-client-address``
is ignored, and a credential without the scope or a malformed address is refused."""

from __future__ import annotations

import grpc
import pytest
from unit.gateway.fake_engine import GATEWAY_TOKEN, OTHER_ADMIN, PLAYER, start_engine

from tavola.service.edge import client_address_valid
from tavola.v1 import account_pb2, account_pb2_grpc


async def who(address: str, *metadata: tuple[str, str]) -> grpc.StatusCode:
    async with grpc.aio.insecure_channel(address) as channel:
        try:
            await account_pb2_grpc.AccountServiceStub(channel).WhoAmI(
                account_pb2.WhoAmIRequest(),
                metadata=(("authorization", f"Bearer {PLAYER}"), *metadata),
                timeout=5,
            )
        except grpc.aio.AioRpcError as error:
            return error.code()
    return grpc.StatusCode.OK


def relayed(address: str, token: str = GATEWAY_TOKEN) -> tuple[tuple[str, str], ...]:
    return (
        ("tavola-gateway-authorization", f"Bearer {token}"),
        ("tavola-client-address", address),
    )


async def test_with_the_gateway_credential_each_browser_has_its_own_address_limit() -> None:
    engine = await start_engine("address=0.001/2")
    try:
        assert await who(engine.address, *relayed("ipv4:10.0.0.1")) == grpc.StatusCode.OK
        assert await who(engine.address, *relayed("ipv4:10.0.0.1")) == grpc.StatusCode.OK
        # that browser is over its rate; another one, through the same gateway, is not
        exhausted = await who(engine.address, *relayed("ipv4:10.0.0.1"))
        assert exhausted == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert await who(engine.address, *relayed("ipv6:[2001:db8::7]")) == grpc.StatusCode.OK
    finally:
        await engine.server.stop(0)


async def test_a_bare_client_address_header_is_ignored_the_peer_is_counted() -> None:
    engine = await start_engine("address=0.001/2")
    try:
        for n in range(2):
            forged = ("tavola-client-address", f"ipv4:10.9.9.{n}")
            assert await who(engine.address, forged) == grpc.StatusCode.OK
        forged = ("tavola-client-address", "ipv4:10.9.9.99")
        assert await who(engine.address, forged) == grpc.StatusCode.RESOURCE_EXHAUSTED
    finally:
        await engine.server.stop(0)


@pytest.mark.parametrize(
    ("metadata", "code"),
    [
        (relayed("ipv4:10.0.0.1", token="tvl1_unknown"), grpc.StatusCode.UNAUTHENTICATED),
        (relayed("ipv4:10.0.0.1", token=OTHER_ADMIN), grpc.StatusCode.PERMISSION_DENIED),
        (relayed("ipv4:10.0.0.1", token=PLAYER), grpc.StatusCode.PERMISSION_DENIED),
        (relayed("10.0.0.1"), grpc.StatusCode.INVALID_ARGUMENT),
        (relayed("ipv4:10.0.0.1:5555"), grpc.StatusCode.INVALID_ARGUMENT),
        (
            (("tavola-gateway-authorization", f"Bearer {GATEWAY_TOKEN}"),),
            grpc.StatusCode.INVALID_ARGUMENT,
        ),
    ],
)
async def test_a_wrong_gateway_credential_or_address_is_refused(
    engine, metadata: tuple[tuple[str, str], ...], code: grpc.StatusCode
) -> None:
    assert await who(engine.address, *metadata) == code


def test_only_addresses_named_as_grpc_names_peers_are_valid() -> None:
    assert client_address_valid("ipv4:127.0.0.1")
    assert client_address_valid("ipv6:[::1]")
    for text in (
        "127.0.0.1",
        "ipv4:300.1.1.1",
        "ipv6:::1",
        "ipv4:1.2.3.4:80",
        "unix:/tmp/x",
        "ipv6:[" + "1" * 70 + "]",
    ):
        assert not client_address_valid(text), text
