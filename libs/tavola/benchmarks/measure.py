"""Readings of running processes: CPU seconds and memory from ``/proc``, Prometheus metrics
over HTTP, and quantiles of latencies."""

from __future__ import annotations

import os
import statistics
import urllib.request
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from prometheus_client.parser import text_string_to_metric_families

_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds(pid: int) -> float:
    """User + system CPU of one process so far (0 if it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / _TICKS  # utime, stime


def children_of(pid: int) -> list[int]:
    """Direct children of a process (a Postgres server's backends)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(entry))
    return found


def tree_cpu_seconds(pid: int) -> float:
    """A process and its live children (Postgres: the postmaster and its backends). Children
    that ended meanwhile are counted by the kernel in the parent's ``cutime``."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    own = sum(int(f) for f in fields[11:15]) / _TICKS  # utime, stime, cutime, cstime
    return own + sum(cpu_seconds(child) for child in children_of(pid))


def rss_bytes(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def scrape(port: int) -> dict[str, float]:
    """Every sample of a service's metrics, summed over labels but ``outcome``."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as reply:
        text = reply.read().decode()
    out: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            key = sample.name
            if "outcome" in sample.labels:
                key += "{" + sample.labels["outcome"] + "}"
            if "le" in sample.labels:
                key += "[" + sample.labels["le"] + "]"
            out[key] = out.get(key, 0.0) + sample.value
    return out


def histogram_quantile(
    before: dict[str, float], after: dict[str, float], name: str, q: float
) -> float:
    """A quantile of a Prometheus histogram's observations between two scrapes (upper bound
    of the bucket it falls in; seconds)."""
    buckets: list[tuple[float, float]] = []
    prefix = f"{name}_bucket["
    for key, value in after.items():
        if key.startswith(prefix):
            text = key[len(prefix) : -1]
            buckets.append(
                (float("inf") if text == "+Inf" else float(text), value - before.get(key, 0.0))
            )
    buckets.sort()
    if not buckets or buckets[-1][1] <= 0:
        return float("nan")
    rank = q * buckets[-1][1]
    for bound, count in buckets:
        if count >= rank:
            return bound
    return float("inf")


@dataclass(frozen=True)
class Quantiles:
    p50: float
    p99: float
    count: int

    def ms(self) -> str:
        if not self.count:
            return "p50 -, p99 - (no samples)"
        return f"p50 {self.p50 * 1000:.1f} ms, p99 {self.p99 * 1000:.1f} ms (n={self.count})"


def quantiles(samples: Sequence[float]) -> Quantiles:
    if len(samples) < 2:
        value = samples[0] if samples else float("nan")
        return Quantiles(value, value, len(samples))
    q = statistics.quantiles(samples, n=100)
    return Quantiles(q[49], q[98], len(samples))


def total(values: Iterable[float]) -> float:
    return float(sum(values))
