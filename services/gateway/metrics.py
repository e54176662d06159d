"""Prometheus metrics of the gateway (labels: call type and Connect code — never ids)."""

from prometheus_client import Counter, Gauge, Histogram

CALLS = Counter(
    "tavola_gateway_calls_total", "Connect calls relayed to the engine", ["type", "code"]
)
CALL_SECONDS = Histogram(
    "tavola_gateway_call_seconds",
    "Time to relay a unary call (request to answer)",
    ["type"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)
STREAMS_OPEN = Gauge("tavola_gateway_streams_open", "Browser event streams open")
