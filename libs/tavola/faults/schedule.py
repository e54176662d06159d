"""The seeded plan of a run's faults: what happens when, decided before the run starts.

The same seed and profile give the same plan (printed at the start), so a failing run can be
repeated. Kills are spread evenly over the four services at random moments, at least
``MIN_KILL_GAP`` seconds apart for one service (each is restarted within a few seconds);
pauses fall anywhere. The faults of the infrastructure (Postgres, NATS, a node) take turns in
windows of their own, and so do the network episodes, so that one of each may overlap but
two of a kind never do.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import Enum

from tavola.faults.profile import Profile

SERVICES = ("engine", "lobby", "scoring", "bots")  # the engine first: the others call it
NODES = 3
MIN_KILL_GAP = 8.0
_MARGIN = 5.0  # nothing in the first and last seconds of the phase


class Kind(Enum):
    KILL = "kill"  # SIGKILL a service; restarted after ``seconds``
    PAUSE = "pause"  # SIGSTOP a service for ``seconds``, then SIGCONT
    POSTGRES = "postgres"  # Postgres stopped (``detail``: fast or immediate) for ``seconds``
    NATS = "nats"  # every NATS node stopped for ``seconds``
    NODE = "node"  # one NATS node killed (``target``: its index), back after ``seconds``
    DELAY = "delay"  # latency on links (``target``: nats, grpc, all) for ``seconds``
    DROPS = "drops"  # connections cut at random on links for ``seconds``
    STALL = "stall"  # nothing passes on links for ``seconds``, then everything
    CUT = "cut"  # every open connection of the links reset at once


NETWORK = (Kind.DELAY, Kind.DROPS, Kind.STALL, Kind.CUT)  # each in turn, in a shuffled order


@dataclass(frozen=True, slots=True)
class Fault:
    at: float  # seconds after the fault phase began
    kind: Kind
    target: str = ""
    seconds: float = 0.0
    delay_ms: float = 0.0
    jitter_ms: float = 0.0
    drop_rate: float = 0.0
    detail: str = ""

    def describe(self) -> str:
        what = {
            Kind.KILL: f"SIGKILL {self.target}, restart after {self.seconds:.1f} s",
            Kind.PAUSE: f"SIGSTOP {self.target} for {self.seconds:.1f} s",
            Kind.POSTGRES: f"Postgres down ({self.detail}) for {self.seconds:.1f} s",
            Kind.NATS: f"every NATS node down for {self.seconds:.1f} s",
            Kind.NODE: f"NATS node {self.target} lost for {self.seconds:.1f} s",
            Kind.DELAY: f"{self.target} links delayed {self.delay_ms:.0f}±{self.jitter_ms:.0f}"
            f" ms for {self.seconds:.1f} s",
            Kind.DROPS: f"{self.target} links drop {self.drop_rate:.3f} of chunks"
            f" for {self.seconds:.1f} s",
            Kind.STALL: f"{self.target} links stalled for {self.seconds:.1f} s",
            Kind.CUT: f"{self.target} connections reset",
        }[self.kind]
        return f"{self.at:7.1f} s  {what}"


def plan(profile: Profile, seed: int) -> list[Fault]:
    """Every fault of a run, in time order."""
    rng = random.Random(seed)
    span = (_MARGIN, max(_MARGIN + 1.0, profile.fault_seconds - _MARGIN))
    faults = [*_kills(rng, profile.kills, span), *_pauses(rng, profile.pauses, span)]
    infra = (
        [Kind.POSTGRES] * profile.postgres_restarts
        + [Kind.NATS] * profile.nats_restarts
        + [Kind.NODE] * profile.node_losses
    )
    rng.shuffle(infra)
    for at, kind in zip(_windows(rng, len(infra), span), infra, strict=True):
        faults.append(_infrastructure(rng, at, kind))
    network = [NETWORK[i % len(NETWORK)] for i in range(profile.network_episodes)]
    rng.shuffle(network)
    for at, kind in zip(_windows(rng, len(network), span), network, strict=True):
        faults.append(_network(rng, at, kind))
    return sorted(faults, key=lambda f: (f.at, f.kind.value, f.target))


def _kills(rng: random.Random, count: int, span: tuple[float, float]) -> list[Fault]:
    """``count`` kills, each service's share, at least ``MIN_KILL_GAP`` apart per service."""
    faults: list[Fault] = []
    order = [SERVICES[i % len(SERVICES)] for i in range(count)]
    rng.shuffle(order)
    for service in SERVICES:
        share = order.count(service)
        for at in _spaced(rng, share, span, MIN_KILL_GAP):
            faults.append(Fault(at, Kind.KILL, service, round(rng.uniform(0.5, 4.0), 1)))
    return faults


def _spaced(rng: random.Random, count: int, span: tuple[float, float], gap: float) -> list[float]:
    """``count`` random moments in ``span``, at least ``gap`` apart (fewer if they cannot
    fit: the profile asked for more than the phase holds)."""
    start, end = span
    room = end - start - gap * max(0, count - 1)
    if count == 0:
        return []
    if room < 0:
        count = int((end - start) // gap) + 1
        room = end - start - gap * (count - 1)
    points = sorted(rng.uniform(0.0, room) for _ in range(count))
    return [round(start + p + gap * i, 1) for i, p in enumerate(points)]


def _pauses(rng: random.Random, count: int, span: tuple[float, float]) -> list[Fault]:
    return [
        Fault(
            round(rng.uniform(*span), 1),
            Kind.PAUSE,
            rng.choice(SERVICES),
            round(rng.uniform(2.0, 6.0), 1),
        )
        for _ in range(count)
    ]


def _windows(rng: random.Random, count: int, span: tuple[float, float]) -> list[float]:
    """One moment in each of ``count`` equal windows of ``span`` (early in the window, so
    what it starts ends inside it)."""
    if count == 0:
        return []
    start, end = span
    width = (end - start) / count
    return [round(start + width * i + rng.uniform(0.0, width * 0.4), 1) for i in range(count)]


def _infrastructure(rng: random.Random, at: float, kind: Kind) -> Fault:
    if kind is Kind.POSTGRES:
        detail = rng.choice(("fast shutdown", "immediate shutdown"))
        return Fault(at, kind, seconds=round(rng.uniform(1.0, 4.0), 1), detail=detail)
    if kind is Kind.NATS:
        return Fault(at, kind, seconds=round(rng.uniform(1.0, 3.0), 1))
    return Fault(at, kind, str(rng.randrange(NODES)), round(rng.uniform(5.0, 20.0), 1))


def _network(rng: random.Random, at: float, kind: Kind) -> Fault:
    links = rng.choice(("nats", "grpc", "all"))
    if kind is Kind.DELAY:
        return Fault(
            at,
            kind,
            links,
            round(rng.uniform(8.0, 25.0), 1),
            delay_ms=round(rng.uniform(20.0, 150.0)),
            jitter_ms=round(rng.uniform(0.0, 60.0)),
        )
    if kind is Kind.DROPS:
        return Fault(
            at, kind, links, round(rng.uniform(5.0, 15.0), 1), drop_rate=rng.uniform(0.002, 0.02)
        )
    if kind is Kind.STALL:
        return Fault(at, kind, links, round(rng.uniform(1.5, 5.0), 1))
    return Fault(at, kind, links)
