"""Doing the plan to the stage, on time, from the main thread.

Each fault of the plan becomes a step and, when it lasts, a later step that undoes it (the
restart after a kill, the SIGCONT after a pause, the node's return, the clear network). A
step that a slow one before it delayed runs late, never skipped; a step that cannot apply
(pausing a service that is down) is said so and skipped. Between steps the stage's
supervisor restarts services that exited on their own. ``finish`` undoes whatever is still
in force, so the settle phase starts with everything up.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from tavola.faults.schedule import Fault, Kind
from tavola.faults.stage import Stage
from tavola.infra.proxy import Conditions

Say = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class Step:
    at: float
    order: int  # steps at the same moment: the plan's order
    fault: Fault
    undo: bool = False


def steps(faults: list[Fault]) -> list[Step]:
    """The plan as a timeline of doing and undoing."""
    out: list[Step] = []
    for index, fault in enumerate(faults):
        out.append(Step(fault.at, index, fault))
        if fault.kind in (Kind.KILL, Kind.PAUSE, Kind.NODE, Kind.DELAY, Kind.DROPS, Kind.STALL):
            out.append(Step(fault.at + fault.seconds, index, fault, undo=True))
    return sorted(out, key=lambda s: (s.at, s.undo is False, s.order))


class Injector:
    def __init__(self, stage: Stage, faults: list[Fault], say: Say) -> None:
        self._stage = stage
        self._steps = steps(faults)
        self._say = say
        self.skipped = 0
        self._lost_nodes: set[int] = set()

    def run(self) -> None:
        """Do every step at its moment (blocking)."""
        started = time.monotonic()
        for step in self._steps:
            self._wait_until(started + step.at)
            late = time.monotonic() - started - step.at
            note = f" ({late:.1f} s late)" if late > 1.0 else ""
            self._say(f"[{time.monotonic() - started:7.1f} s] {self._do(step)}{note}")
        self._stage.supervise()

    def _wait_until(self, moment: float) -> None:
        while (left := moment - time.monotonic()) > 0:
            time.sleep(min(left, 1.0))
            for key in self._stage.supervise():
                self._say(f"  {key} had exited on its own: restarted")

    def _do(self, step: Step) -> str:
        fault, stage = step.fault, self._stage
        if step.undo:
            return self._undo(fault)
        if fault.kind is Kind.KILL:
            return self._done(stage.kill(fault.target), f"SIGKILL {fault.target}")
        if fault.kind is Kind.PAUSE:
            return self._done(stage.pause(fault.target), f"SIGSTOP {fault.target}")
        if fault.kind is Kind.POSTGRES:
            stage.restart_postgres(fault.seconds, immediate=fault.detail.startswith("immediate"))
            return f"Postgres restarted ({fault.detail}, down {fault.seconds:.1f} s)"
        if fault.kind is Kind.NATS:
            stage.restart_nats(fault.seconds)
            return f"NATS restarted (every node down {fault.seconds:.1f} s)"
        if fault.kind is Kind.NODE:
            index = int(fault.target)
            stage.lose_node(index)
            self._lost_nodes.add(index)
            return f"NATS node {index} killed"
        if fault.kind is Kind.CUT:
            return f"{fault.target} connections reset ({stage.cut_connections(fault.target)})"
        conditions = {
            Kind.DELAY: Conditions(delay_ms=fault.delay_ms, jitter_ms=fault.jitter_ms),
            Kind.DROPS: Conditions(drop_rate=fault.drop_rate),
            Kind.STALL: Conditions(blackhole=True),
        }[fault.kind]
        stage.set_network(fault.target, conditions, fault.kind.value)
        return f"{fault.target} links: {fault.kind.value} {conditions}"

    def _undo(self, fault: Fault) -> str:
        stage = self._stage
        if fault.kind is Kind.KILL:
            stage.restart(fault.target)
            return f"{fault.target} started again"
        if fault.kind is Kind.PAUSE:
            stage.resume(fault.target)
            return f"SIGCONT {fault.target}"
        if fault.kind is Kind.NODE:
            index = int(fault.target)
            stage.return_node(index)
            self._lost_nodes.discard(index)
            return f"NATS node {index} back"
        stage.clear_network()
        return f"{fault.target} links clear"

    def _done(self, done: bool, what: str) -> str:
        if done:
            return what
        self.skipped += 1
        return f"{what}: skipped (not running)"

    def finish(self) -> None:
        """Undo what is still in force: every service and node up, the network clear."""
        stage = self._stage
        stage.clear_network()
        for index in sorted(self._lost_nodes):
            stage.return_node(index)
        self._lost_nodes.clear()
        for step in self._steps:
            if step.fault.kind in (Kind.KILL, Kind.PAUSE):
                self._undo(step.fault)
        stage.supervise()
