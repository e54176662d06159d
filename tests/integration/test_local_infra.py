"""LocalInfra starts a private Postgres and NATS (JetStream), reuses its folder, and leaves
nothing running behind — or uses the servers named by the environment."""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import asyncpg
import nats
import pytest

from tavola.infra.local import Durability, LocalInfra, create_database, drop_database
from tavola.infra.pg_server import last_durability
from tavola.infra.processes import is_alive, port_is_open

pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]


@pytest.fixture(autouse=True)
def no_given_servers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TAVOLA_DATABASE_URL", raising=False)
    monkeypatch.delenv("TAVOLA_NATS_URL", raising=False)


@pytest.fixture
def infra_dir() -> Iterator[Path]:
    """A folder (not yet created) for one test's servers, outside pytest's base temp folder:
    every pytest session resets that to mode 0700, which — run as root — would lock the
    Postgres system user out of it mid-test whenever another session starts meanwhile."""
    parent = Path(tempfile.mkdtemp(prefix="tavola-infra-test-"))
    yield parent / "infra"
    shutil.rmtree(parent, ignore_errors=True)


def port_of(url: str) -> int:
    port = urlsplit(url).port
    assert port is not None
    return port


def wait_gone(pids: list[int], seconds: float = 15.0) -> list[int]:
    """The pids still alive after waiting up to ``seconds``."""
    deadline = time.monotonic() + seconds
    while any(is_alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return [pid for pid in pids if is_alive(pid)]


async def test_started_postgres_accepts_sessions_and_new_databases(infra_dir: Path) -> None:
    with LocalInfra.from_env_or_start(infra_dir) as infra:
        connection = await asyncpg.connect(infra.database_url)
        assert await connection.fetchval("SHOW max_connections") == "300"
        await connection.close()

        name = f"tavola_test_{secrets.token_hex(4)}"
        url = await create_database(infra.database_url, name)
        assert urlsplit(url).path == f"/{name}"
        connection = await asyncpg.connect(url)
        await connection.execute("CREATE TABLE moves (n int PRIMARY KEY)")
        await connection.execute("INSERT INTO moves VALUES (1)")
        assert await connection.fetchval("SELECT current_database()") == name
        await drop_database(infra.database_url, name)  # WITH (FORCE): the open session is cut
        assert connection.is_closed() or not await _still_usable(connection)


async def _still_usable(connection: asyncpg.Connection) -> bool:
    try:
        await connection.fetchval("SELECT 1")
    except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError):
        return False
    return True


async def durability_settings(url: str) -> dict[str, str]:
    connection = await asyncpg.connect(url)
    try:
        names = ("fsync", "synchronous_commit", "full_page_writes")
        return {name: await connection.fetchval(f"SHOW {name}") for name in names}
    finally:
        await connection.close()


DURABLE = {"fsync": "on", "synchronous_commit": "on", "full_page_writes": "on"}
FAST = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}


async def test_the_postgres_tavola_up_starts_is_durable(infra_dir: Path) -> None:
    # the very call of `tavola up` (tavola.cli.up): no durability asked for
    with LocalInfra.from_env_or_start(data_dir=infra_dir) as infra:
        assert await durability_settings(infra.database_url) == DURABLE
    assert last_durability(infra_dir) is Durability.DURABLE


async def test_the_fast_mode_the_test_suite_asks_for_trades_durability_for_speed(
    infra_dir: Path,
) -> None:
    with LocalInfra.from_env_or_start(infra_dir, durability=Durability.FAST) as infra:
        assert await durability_settings(infra.database_url) == FAST
    assert last_durability(infra_dir) is Durability.FAST


async def test_the_session_postgres_of_the_tests_is_fast(infra: LocalInfra) -> None:
    if "postgres" not in infra.pids:
        pytest.skip("the tests were given a Postgres (TAVOLA_DATABASE_URL)")
    assert await durability_settings(infra.database_url) == FAST


async def test_a_folder_first_used_fast_comes_up_durable_and_flushed_to_disk(
    infra_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with LocalInfra.from_env_or_start(infra_dir, durability=Durability.FAST) as infra:
        await create_database(infra.database_url, "moves")
    caplog.set_level("INFO", logger="tavola.infra.pg_server")

    with LocalInfra.from_env_or_start(infra_dir) as infra:
        assert await durability_settings(infra.database_url) == DURABLE
    assert any("flushed" in record.getMessage() for record in caplog.records)
    assert last_durability(infra_dir) is Durability.DURABLE

    caplog.clear()  # durable after durable: nothing left to flush
    with LocalInfra.from_env_or_start(infra_dir) as infra:
        assert await durability_settings(infra.database_url) == DURABLE
    assert not any("flushed" in record.getMessage() for record in caplog.records)


async def test_started_nats_has_a_working_jetstream(infra_dir: Path) -> None:
    with LocalInfra.from_env_or_start(infra_dir) as infra:
        client = await nats.connect(infra.nats_url)
        js = client.jetstream()
        await js.add_stream(name="TABLES", subjects=["tables.>"])
        ack = await js.publish("tables.t1.events", b"card played")
        message = await js.get_msg("TABLES", ack.seq)
        assert message.data == b"card played"
        await client.close()


def test_leaving_stops_the_servers_and_closes_their_ports(infra_dir: Path) -> None:
    with LocalInfra.from_env_or_start(infra_dir) as infra:
        pids = list(infra.pids.values())
        ports = [port_of(infra.database_url), port_of(infra.nats_url)]
        assert sorted(infra.pids) == ["nats-server", "postgres"]
        assert all(port_is_open(port) for port in ports)

    assert wait_gone(pids, seconds=0) == []
    assert not any(port_is_open(port) for port in ports)


async def test_a_second_start_reuses_the_folder_and_its_data(infra_dir: Path) -> None:
    with LocalInfra.from_env_or_start(infra_dir) as infra:
        await create_database(infra.database_url, "kept")
        client = await nats.connect(infra.nats_url)
        await client.jetstream().add_stream(name="KEPT", subjects=["kept.>"])
        await client.close()
    initialised = (infra_dir / "postgres" / "PG_VERSION").stat().st_mtime_ns

    with LocalInfra.from_env_or_start(infra_dir) as infra:
        assert infra.folder == infra_dir.resolve()
        connection = await asyncpg.connect(infra.database_url)
        names = await connection.fetch("SELECT datname FROM pg_database")
        await connection.close()
        client = await nats.connect(infra.nats_url)
        info = await client.jetstream().stream_info("KEPT")
        await client.close()

    assert "kept" in {row["datname"] for row in names}
    assert info.config.name == "KEPT"
    assert (infra_dir / "postgres" / "PG_VERSION").stat().st_mtime_ns == initialised


def test_a_folder_in_use_sends_a_second_instance_to_a_parallel_folder(infra_dir: Path) -> None:
    with (
        LocalInfra.from_env_or_start(infra_dir) as first,
        LocalInfra.from_env_or_start(infra_dir) as second,
    ):
        assert first.folder == infra_dir.resolve()
        assert second.folder == infra_dir.resolve() / "parallel-1"
        assert first.database_url != second.database_url


def test_given_urls_are_used_and_nothing_is_started(
    infra_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAVOLA_DATABASE_URL", "postgresql://someone@db.example:5432/postgres")
    monkeypatch.setenv("TAVOLA_NATS_URL", "nats://bus.example:4222")
    with LocalInfra.from_env_or_start(infra_dir) as infra:
        assert infra.database_url == "postgresql://someone@db.example:5432/postgres"
        assert infra.nats_url == "nats://bus.example:4222"
        assert infra.pids == {}
        assert infra.folder is None
    assert not infra_dir.exists()


def test_only_what_is_not_given_is_started(
    infra_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAVOLA_NATS_URL", "nats://bus.example:4222")
    with LocalInfra.from_env_or_start(infra_dir) as infra:
        assert infra.nats_url == "nats://bus.example:4222"
        assert list(infra.pids) == ["postgres"]


_HOLDER = textwrap.dedent(
    """
    import sys, threading, time
    from tavola.infra.local import LocalInfra

    def start():
        infra = LocalInfra.from_env_or_start(sys.argv[1])
        print(*infra.pids.values(), flush=True)

    if sys.argv[2] == "orphan":  # no parent-death signal off the main thread
        worker = threading.Thread(target=start)
        worker.start()
        worker.join()
        import os
        os._exit(0)  # no atexit: leave the servers running, as a crash would
    start()
    time.sleep(600)
    """
)


def _run_holder(folder: Path, mode: str) -> tuple[subprocess.Popen[str], list[int]]:
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, str(folder), mode], stdout=subprocess.PIPE, text=True
    )
    assert holder.stdout is not None
    line = holder.stdout.readline()
    assert line, "the holder process did not start the servers"
    return holder, [int(pid) for pid in line.split()]


def test_servers_die_with_a_killed_owner(infra_dir: Path) -> None:
    holder, pids = _run_holder(infra_dir, "normal")
    holder.send_signal(signal.SIGKILL)
    holder.wait()
    assert wait_gone(pids) == []


def test_servers_a_crashed_run_left_behind_are_replaced(infra_dir: Path) -> None:
    holder, orphans = _run_holder(infra_dir, "orphan")
    holder.wait()
    assert all(is_alive(pid) for pid in orphans)

    with LocalInfra.from_env_or_start(infra_dir) as infra:
        assert wait_gone(orphans, seconds=0) == []
        assert set(infra.pids.values()).isdisjoint(orphans)
        assert port_is_open(port_of(infra.database_url))


def test_a_stale_lock_file_naming_another_process_is_ignored(infra_dir: Path) -> None:
    with LocalInfra.from_env_or_start(infra_dir):
        pass
    lock_file = infra_dir / "postgres" / "postmaster.pid"
    lock_file.write_text(f"{os.getpid()}\n{infra_dir / 'postgres'}\n0\n1\n\n\n\nready\n")
    with LocalInfra.from_env_or_start(infra_dir) as infra:
        assert port_is_open(port_of(infra.database_url))


async def test_the_session_fixtures_give_a_fresh_database_and_jetstream(
    fresh_database: str, nats_url: str
) -> None:
    connection = await asyncpg.connect(fresh_database)
    assert (
        await connection.fetchval("SELECT current_database()") == urlsplit(fresh_database).path[1:]
    )
    await connection.close()
    client = await nats.connect(nats_url)
    await client.jetstream().account_info()
    await client.close()
