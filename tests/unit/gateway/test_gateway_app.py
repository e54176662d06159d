"""The gateway speaks the Connect protocol to browsers and gRPC to the engine: the same
token, the engine's statuses and ErrorInfo as Connect errors, server streams as enveloped
frames with an end-stream message, resume from a version, the browser's address — and it
serves the built client with strict headers and the local sign-in only to this machine."""

from __future__ import annotations

import asyncio
import base64
import json

from aiohttp.test_utils import TestClient
from google.rpc import error_details_pb2
from unit.gateway.fake_engine import PLAYER, FakeEngine

from services.gateway import connect
from tavola.v1 import account_pb2, game_pb2

JSON = {"Content-Type": "application/json", "Connect-Protocol-Version": "1"}
STREAM = {"Content-Type": "application/connect+json", "Connect-Protocol-Version": "1"}


def auth(token: str = PLAYER) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def frames(body: bytes) -> list[tuple[int, bytes]]:
    out = []
    while body:
        flags, length = connect.HEADER.unpack_from(body)
        out.append((flags, body[connect.HEADER.size : connect.HEADER.size + length]))
        body = body[connect.HEADER.size + length :]
    return out


async def test_a_unary_json_call_reaches_the_engine_with_the_browsers_own_token(
    gateway: TestClient, engine: FakeEngine
) -> None:
    answer = await gateway.post(
        "/tavola.v1.AccountService/WhoAmI", data=b"{}", headers={**JSON, **auth()}
    )
    assert answer.status == 200 and answer.headers["Content-Type"] == "application/json"
    assert (await answer.json())["account"]["name"] == "ana"
    seen = engine.seen.metadata[-1]
    assert seen["authorization"] == f"Bearer {PLAYER}"
    assert seen["tavola-client-address"] == "ipv4:127.0.0.1"


async def test_a_unary_binary_call_answers_in_binary(gateway: TestClient) -> None:
    answer = await gateway.post(
        "/tavola.v1.AccountService/WhoAmI",
        data=account_pb2.WhoAmIRequest().SerializeToString(),
        headers={"Content-Type": "application/proto", **auth()},
    )
    assert answer.status == 200 and answer.headers["Content-Type"] == "application/proto"
    assert account_pb2.WhoAmIResponse.FromString(await answer.read()).account.name == "ana"


async def test_a_refusal_is_a_connect_error_with_the_engines_error_info(
    gateway: TestClient,
) -> None:
    answer = await gateway.post(
        "/tavola.v1.AccountService/WhoAmI", data=b"{}", headers={**JSON, **auth("tvl1_nobody")}
    )
    assert answer.status == 401
    error = await answer.json()
    assert error["code"] == "unauthenticated" and error["message"]
    (detail,) = error["details"]
    assert detail["type"] == "google.rpc.ErrorInfo"
    info = error_details_pb2.ErrorInfo.FromString(base64.b64decode(detail["value"] + "=="))
    assert (info.reason, info.domain) == ("auth.invalid", "tavola.v1")


async def test_the_refusal_is_in_the_browsers_locale(gateway: TestClient) -> None:
    answer = await gateway.post(
        "/tavola.v1.LobbyService/GetTable",
        data=json.dumps({"tableId": "t-1"}).encode(),
        headers={**JSON, **auth(), "Tavola-Locale": "pt"},
    )
    error = await answer.json()
    assert answer.status == 404 and error["code"] == "not_found"
    english = await gateway.post(
        "/tavola.v1.LobbyService/GetTable",
        data=json.dumps({"tableId": "t-1"}).encode(),
        headers={**JSON, **auth()},
    )
    assert (await english.json())["message"] != error["message"]


async def test_a_rate_limited_call_says_when_to_retry(gateway: TestClient) -> None:
    for _ in range(30):  # the unauthenticated class: 20 at once per address, then 5/s
        answer = await gateway.post(
            "/tavola.v1.AccountService/WhoAmI", data=b"{}", headers={**JSON, **auth("tvl1_x")}
        )
        if answer.status == 429:
            break
    assert answer.status == 429
    assert (await answer.json())["code"] == "resource_exhausted"
    assert int(answer.headers["Retry-After"]) >= 1
    assert int(answer.headers["Trailer-Retry-After-Ms"]) > 0


async def test_a_stream_sends_exactly_the_events_after_the_version_then_ends(
    gateway: TestClient,
) -> None:
    request = json.dumps(
        {"matchId": "m-1", "seat": -1, "afterVersion": "2", "untilEnd": True}
    ).encode()
    answer = await gateway.post(
        "/tavola.v1.GameService/StreamEvents",
        data=connect.envelope(request),
        headers={**STREAM, **auth()},
    )
    assert answer.status == 200 and answer.headers["Content-Type"] == "application/connect+json"
    got = frames(await answer.read())
    assert [flags for flags, _ in got] == [0, 0, 0, connect.END_STREAM]
    assert [int(json.loads(data)["event"]["version"]) for _, data in got[:-1]] == [3, 4, 5]
    assert "error" not in json.loads(got[-1][1])


async def test_a_stream_refused_by_the_engine_ends_with_its_error(gateway: TestClient) -> None:
    request = game_pb2.StreamEventsRequest(match_id="missing", seat=-1).SerializeToString()
    answer = await gateway.post(
        "/tavola.v1.GameService/StreamEvents",
        data=connect.envelope(request),
        headers={"Content-Type": "application/connect+proto", **auth()},
    )
    (end,) = frames(await answer.read())
    assert answer.status == 200 and end[0] == connect.END_STREAM
    error = json.loads(end[1])["error"]
    assert (
        error["code"] == "not_found" and error["details"][0]["debug"]["reason"] == "match.not_found"
    )


async def test_a_browser_that_goes_away_ends_its_stream_at_the_engine(
    gateway: TestClient, engine: FakeEngine
) -> None:
    request = json.dumps({"matchId": "m-1", "seat": -1, "afterVersion": "4"}).encode()
    answer = await gateway.post(
        "/tavola.v1.GameService/StreamEvents",
        data=connect.envelope(request),
        headers={**STREAM, **auth()},
    )
    first = await answer.content.readexactly(connect.HEADER.size)
    assert first[0] == 0
    answer.close()
    for _ in range(100):
        if engine.seen.streams_closed:
            break
        await asyncio.sleep(0.05)
    assert engine.seen.streams_closed == 1


async def test_requests_outside_the_protocol_are_refused(gateway: TestClient) -> None:
    unknown = await gateway.post("/tavola.v1.GameService/Nothing", data=b"{}", headers=JSON)
    assert unknown.status == 404 and (await unknown.json())["code"] == "unimplemented"
    plain = await gateway.post(
        "/tavola.v1.AccountService/WhoAmI", data=b"{}", headers={"Content-Type": "text/plain"}
    )
    assert plain.status == 415 and "application/json" in plain.headers["Accept-Post"]
    streamed = await gateway.post("/tavola.v1.AccountService/WhoAmI", data=b"{}", headers=STREAM)
    assert streamed.status == 415
    get = await gateway.get("/tavola.v1.AccountService/WhoAmI")
    assert get.status == 405
    garbage = await gateway.post(
        "/tavola.v1.AccountService/WhoAmI", data=b"{not json", headers={**JSON, **auth()}
    )
    assert garbage.status == 400 and (await garbage.json())["code"] == "invalid_argument"
    big = await gateway.post(
        "/tavola.v1.AccountService/WhoAmI", data=b" " * (70 * 1024), headers={**JSON, **auth()}
    )
    assert big.status == 400
    compressed = await gateway.post(
        "/tavola.v1.AccountService/WhoAmI",
        data=b"{}",
        headers={**JSON, **auth(), "Content-Encoding": "gzip"},
    )
    assert compressed.status == 501


async def test_the_web_client_is_served_with_strict_headers(gateway: TestClient) -> None:
    page = await gateway.get("/")
    assert page.status == 200 and "tavola" in await page.text()
    assert "default-src 'self'" in page.headers["Content-Security-Policy"]
    assert page.headers["X-Content-Type-Options"] == "nosniff"
    asset = await gateway.get("/assets/index-abc.js")
    assert asset.status == 200 and "immutable" in asset.headers["Cache-Control"]
    assert (await gateway.get("/assets/..%2Findex.html")).status == 404
    assert (await gateway.get("/assets/missing.js")).status == 404
    assert (await gateway.get("/healthz")).status == 200
    assert (await gateway.get("/readyz")).status == 200


async def test_the_local_sign_in_needs_its_secret_and_this_machines_origin(
    gateway: TestClient,
) -> None:
    wrong = await gateway.post("/local/sign-in", json={"secret": "guess"})
    assert wrong.status == 403
    other_site = await gateway.post(
        "/local/sign-in", json={"secret": "s3cret"}, headers={"Origin": "http://evil.example"}
    )
    assert other_site.status == 404
    rebound = await gateway.post(
        "/local/sign-in", json={"secret": "s3cret"}, headers={"Host": "evil.example:8080"}
    )
    assert rebound.status == 404
    right = await gateway.post("/local/sign-in", json={"secret": "s3cret"})
    assert right.status == 200 and (await right.json())["token"] == PLAYER
