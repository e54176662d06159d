"""The Connect wire pieces (envelopes, codes, deadlines, error details) and how a browser's
address is read (the peer's, or through trusted proxies only)."""

from __future__ import annotations

import base64

import grpc
import pytest
from google.rpc import error_details_pb2

from services.gateway import connect
from services.gateway.addresses import client_address, parse_networks
from services.gateway.config import split_address
from tavola.protocol import errors
from tavola.protocol.grpc_errors import to_status
from tavola.service.config import ConfigError


def test_an_envelope_carries_one_message_and_its_flags() -> None:
    framed = connect.envelope(b"hello", connect.END_STREAM)
    assert framed[0] == connect.END_STREAM and framed[1:5] == (5).to_bytes(4, "big")
    assert connect.read_envelope(connect.envelope(b"hello"), 64) == b"hello"


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b"\x00\x00", grpc.StatusCode.INVALID_ARGUMENT),
        (connect.envelope(b"x", connect.COMPRESSED), grpc.StatusCode.UNIMPLEMENTED),
        (connect.envelope(b"x" * 100), grpc.StatusCode.RESOURCE_EXHAUSTED),
        (connect.envelope(b"a") + connect.envelope(b"b"), grpc.StatusCode.INVALID_ARGUMENT),
    ],
)
def test_a_stream_request_that_is_not_one_plain_message_is_refused(
    body: bytes, code: grpc.StatusCode
) -> None:
    with pytest.raises(connect.ProtocolError) as refused:
        connect.read_envelope(body, 64)
    assert refused.value.code == code


def test_every_grpc_code_has_its_connect_name_and_http_status() -> None:
    assert set(connect.CODES) == set(grpc.StatusCode) - {grpc.StatusCode.OK}
    assert connect.http_status(grpc.StatusCode.RESOURCE_EXHAUSTED) == 429
    assert connect.http_status(grpc.StatusCode.FAILED_PRECONDITION) == 400
    assert connect.error_json(grpc.StatusCode.ABORTED, "stale", []) == {
        "code": "aborted",
        "message": "stale",
    }


def test_the_deadline_header_is_milliseconds() -> None:
    assert connect.timeout_of(None) is None
    assert connect.timeout_of("1500") == 1.5
    for bad in ("-1", "1e3", "12345678901"):
        with pytest.raises(connect.ProtocolError):
            connect.timeout_of(bad)


def test_error_details_keep_the_error_info_and_the_retry_delay() -> None:
    status = to_status(errors.exhausted(2.5, "rate.limited", limit="act"))
    details = connect.details_of(tuple(status.trailing_metadata))
    assert [d["type"] for d in details] == ["google.rpc.ErrorInfo", "google.rpc.RetryInfo"]
    info = error_details_pb2.ErrorInfo.FromString(base64.b64decode(details[0]["value"] + "=="))
    assert info.reason == "rate.limited" and dict(info.metadata) == {"limit": "act"}
    assert details[1]["debug"]["retryDelay"] == "2.500s"
    assert connect.metadata_json(tuple(status.trailing_metadata)) == {"retry-after-ms": ["2500"]}


def test_the_content_type_chooses_the_codec() -> None:
    assert connect.codec_of("application/json; charset=utf-8") == connect.Codec(
        binary=False, stream=False
    )
    assert connect.codec_of("application/connect+proto") == connect.Codec(binary=True, stream=True)
    assert connect.codec_of("application/grpc-web") is None


def test_the_browsers_address_is_its_peers() -> None:
    assert client_address("192.0.2.7", ["203.0.113.9"], ()) == "ipv4:192.0.2.7"
    assert client_address("::1", [], ()) == "ipv6:[::1]"
    assert client_address("::ffff:192.0.2.7", [], ()) == "ipv4:192.0.2.7"
    assert client_address(None, [], ()) is None


def test_behind_a_trusted_proxy_the_last_untrusted_hop_is_the_browser() -> None:
    proxies = parse_networks("10.0.0.0/8, 192.168.1.7")
    assert client_address("10.1.2.3", ["198.51.100.1, 203.0.113.9"], proxies) == "ipv4:203.0.113.9"
    # a browser cannot push its own hops in front of the proxy's
    assert (
        client_address("10.1.2.3", ["1.1.1.1, 203.0.113.9, 192.168.1.7"], proxies)
        == "ipv4:203.0.113.9"
    )
    assert client_address("10.1.2.3", ["not-an-address"], proxies) == "ipv4:10.1.2.3"
    assert client_address("10.1.2.3", [], proxies) == "ipv4:10.1.2.3"


def test_the_web_address_is_host_and_port() -> None:
    assert split_address("127.0.0.1:8080") == ("127.0.0.1", 8080)
    assert split_address("[::1]:80") == ("::1", 80)
    for bad in ("8080", "host:", "host:99999"):
        with pytest.raises(ConfigError):
            split_address(bad)


def test_the_gateway_will_not_start_without_its_own_credential(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from services.gateway.config import GatewayConfig

    monkeypatch.delenv("TAVOLA_GATEWAY_TOKEN", raising=False)
    with pytest.raises(ConfigError, match="TAVOLA_GATEWAY_TOKEN"):
        GatewayConfig.from_env()
    monkeypatch.setenv("TAVOLA_GATEWAY_TOKEN", "tvl1_x")
    monkeypatch.setenv("TAVOLA_WEB_ADDRESS", "0.0.0.0:9999")
    monkeypatch.setenv("TAVOLA_ENGINE_ADDRESS", "engine:50051")
    config = GatewayConfig.from_env()
    assert (config.host, config.port, config.engine_address) == ("0.0.0.0", 9999, "engine:50051")
    monkeypatch.setenv("TAVOLA_WEB_SIGN_IN_SECRET", "only-half")
    with pytest.raises(ConfigError, match="together"):
        GatewayConfig.from_env()


def test_a_gateway_token_opens_no_method_by_itself() -> None:
    from services.engine.policies import POLICIES
    from tavola.accounts.model import GATEWAY

    assert all(GATEWAY not in policy.scopes for policy in POLICIES.values())
