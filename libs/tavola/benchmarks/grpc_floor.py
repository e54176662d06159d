"""The anchor of the client points: what ``grpc.aio`` itself costs a server on this machine.

A bare Python gRPC server (generic handlers, bytes in and out, no interceptor, no work) in
its own process, driven from the bench's: the server's CPU per unary call with 16 calls in
flight, and per message of 16 server streams of ten ~300-byte messages each (about an
event's size). A move of a person's client costs the engine at least its calls and stream
messages times these, before any of the platform's own work; ``make bench`` prints that
floor beside each client point's engine CPU per move.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from dataclasses import dataclass

import grpc

from tavola.benchmarks.measure import cpu_seconds
from tavola.infra.processes import free_port
from tavola.service.runtime import run

SERVICE = "tavola.bench.Floor"
IN_FLIGHT = 16
MESSAGES = 10  # per stream
MESSAGE = b"x" * 300
REQUEST = b"y" * 200


@dataclass(frozen=True)
class Floor:
    unary_us: float  # server CPU per unary call
    message_us: float  # server CPU per server-stream message
    calls_per_s: float
    messages_per_s: float

    def of(self, calls: float, messages: float) -> float:
        """A move's floor in ms of server CPU, for its calls and stream messages."""
        return (calls * self.unary_us + messages * self.message_us) / 1000


async def _serve(port: int) -> None:
    async def unary(request: bytes, _context: grpc.aio.ServicerContext) -> bytes:
        return request

    async def stream(request: bytes, context: grpc.aio.ServicerContext) -> None:
        for _ in range(int(request.decode())):
            await context.write(MESSAGE)

    server = grpc.aio.server()
    handlers = {
        "Unary": grpc.unary_unary_rpc_method_handler(unary),
        "Stream": grpc.unary_stream_rpc_method_handler(stream),
    }
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE, handlers),))
    server.add_insecure_port(f"127.0.0.1:{port}")
    await server.start()
    await server.wait_for_termination()


async def _drive(port: int, pid: int, seconds: float) -> Floor:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        unary = channel.unary_unary(f"/{SERVICE}/Unary")
        stream = channel.unary_stream(f"/{SERVICE}/Stream")
        for _ in range(50):  # the server is up, and warm
            try:
                await unary(b"warm", timeout=1.0)
                break
            except grpc.aio.AioRpcError:
                await asyncio.sleep(0.1)
        calls = 0
        cpu, started = cpu_seconds(pid), time.perf_counter()

        async def call() -> None:
            nonlocal calls
            while time.perf_counter() - started < seconds:
                await unary(REQUEST)
                calls += 1

        await asyncio.gather(*(call() for _ in range(IN_FLIGHT)))
        call_time, call_cpu = time.perf_counter() - started, cpu_seconds(pid) - cpu
        messages = 0
        cpu, started = cpu_seconds(pid), time.perf_counter()

        async def follow() -> None:
            nonlocal messages
            while time.perf_counter() - started < seconds:
                async for _ in stream(str(MESSAGES).encode()):
                    messages += 1

        await asyncio.gather(*(follow() for _ in range(IN_FLIGHT)))
        stream_time, stream_cpu = time.perf_counter() - started, cpu_seconds(pid) - cpu
    return Floor(
        unary_us=call_cpu * 1e6 / max(calls, 1),
        message_us=stream_cpu * 1e6 / max(messages, 1),
        calls_per_s=calls / call_time,
        messages_per_s=messages / stream_time,
    )


async def measure(seconds: float = 3.0) -> Floor:
    """The floor, measured now (the server in a process of its own, on the services' event
    loop, stopped after)."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "tavola.benchmarks.grpc_floor", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        return await _drive(port, server.pid, seconds)
    finally:
        server.kill()
        server.wait()


if __name__ == "__main__":
    run(_serve(int(sys.argv[1])))
