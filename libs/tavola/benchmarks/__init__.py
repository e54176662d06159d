"""The parts of ``make bench`` that measure the platform rather than the rules.

``database``: the Postgres settings in force, the raw one-row-per-commit anchor and the event
log's append rate; ``measure``: process CPU and memory from ``/proc``, Prometheus scrapes and
quantiles; ``tables``: tables played by the platform's bots and by gRPC clients over a fixed
window; ``reads``: cold replay, reconnect-to-live and memory per idle table; ``e2e``: the
platform as processes on a durable Postgres, and the report. Figures, never assertions.
"""
