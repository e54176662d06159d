"""How much load and how many faults: the short form (``make test``) and the long form
(``make faults``)."""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True, slots=True)
class Profile:
    name: str
    fault_seconds: float  # how long faults are injected (tables are started meanwhile)
    kills: int  # SIGKILL and restart, spread evenly over the four services
    pauses: int  # SIGSTOP, a few seconds, SIGCONT
    postgres_restarts: int
    nats_restarts: int  # every node of the cluster down, then up
    node_losses: int  # one node of the cluster killed, then back
    network_episodes: int  # delay, drops, a stall or a cut on the proxied links
    concurrent_tables: int  # tables in play at once while faults are injected
    accounts: int  # the harness's player accounts (each sits at most once per table)
    settle_seconds: float  # after the faults, how long unfinished tables may take to end
    view_seats: int  # harness seats whose views are compared with the log's, at versions
    think_ms: int = 10  # the platform bots' thinking time (easy level)

    def scaled(self, minutes: float) -> Profile:
        """The same mix over ``minutes`` of faults (counts in proportion, at least one)."""
        factor = minutes * 60.0 / self.fault_seconds

        def scale(count: int) -> int:
            return max(1, round(count * factor))

        return replace(
            self,
            fault_seconds=minutes * 60.0,
            kills=scale(self.kills),
            pauses=scale(self.pauses),
            postgres_restarts=scale(self.postgres_restarts),
            nats_restarts=scale(self.nats_restarts),
            node_losses=scale(self.node_losses),
            network_episodes=scale(self.network_episodes),
        )


SHORT = Profile(
    name="short",
    fault_seconds=100.0,
    kills=8,
    pauses=2,
    postgres_restarts=1,
    nats_restarts=1,
    node_losses=1,
    network_episodes=4,
    concurrent_tables=6,
    accounts=8,
    settle_seconds=240.0,
    view_seats=6,
)

LONG = Profile(
    name="long",
    fault_seconds=1200.0,
    kills=120,
    pauses=12,
    postgres_restarts=3,
    nats_restarts=3,
    node_losses=4,
    network_episodes=24,
    concurrent_tables=12,
    accounts=24,
    settle_seconds=420.0,
    view_seats=24,
)

PROFILES = {p.name: p for p in (SHORT, LONG)}
