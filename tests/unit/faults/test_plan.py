"""The fault suite's plan and set-up, without running anything: the seeded plan of faults,
its timeline of doing and undoing, the options that keep every game short, and the
configuration of a cluster node."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise
from pathlib import Path

from tavola.faults.inject import steps
from tavola.faults.load import players_for, short_options
from tavola.faults.profile import LONG, SHORT
from tavola.faults.schedule import MIN_KILL_GAP, SERVICES, Kind, plan
from tavola.infra.nats_auth import PERMISSIONS, Credentials
from tavola.infra.nats_cluster import ClusterNode, NatsCluster, node_config
from tavola.rules import registry


def test_the_same_seed_gives_the_same_plan_and_another_seed_another() -> None:
    assert plan(SHORT, 17) == plan(SHORT, 17)
    assert plan(SHORT, 17) != plan(SHORT, 18)


def test_the_long_form_kills_every_service_at_least_a_hundred_times_in_all() -> None:
    kills = Counter(f.target for f in plan(LONG, 5) if f.kind is Kind.KILL)
    assert sum(kills.values()) >= 100
    assert set(kills) == set(SERVICES)
    assert max(kills.values()) - min(kills.values()) <= 1


def test_kills_of_one_service_are_apart_long_enough_to_restart_it() -> None:
    for seed in range(20):
        by_service: dict[str, list[float]] = {}
        for fault in plan(LONG, seed):
            if fault.kind is Kind.KILL:
                by_service.setdefault(fault.target, []).append(fault.at)
        for moments in by_service.values():
            gaps = [b - a for a, b in pairwise(moments)]
            assert all(gap >= MIN_KILL_GAP - 0.11 for gap in gaps)


def test_every_kind_of_fault_is_planned_inside_the_phase() -> None:
    for profile in (SHORT, LONG):
        faults = plan(profile, 9)
        kinds = {f.kind for f in faults}
        assert {Kind.KILL, Kind.PAUSE, Kind.POSTGRES, Kind.NATS, Kind.NODE} <= kinds
        assert {Kind.DELAY, Kind.DROPS, Kind.STALL, Kind.CUT} <= kinds
        assert all(0 < f.at < profile.fault_seconds for f in faults)
        assert sum(f.kind is Kind.NODE for f in faults) == profile.node_losses


def test_faults_of_the_infrastructure_never_start_together() -> None:
    infra = sorted(f.at for f in plan(LONG, 3) if f.kind in (Kind.POSTGRES, Kind.NATS, Kind.NODE))
    assert len(set(infra)) == len(infra)


def test_every_lasting_fault_is_undone_after_it_is_done() -> None:
    timeline = steps(plan(SHORT, 4))
    lasting = (Kind.KILL, Kind.PAUSE, Kind.NODE, Kind.DELAY, Kind.DROPS, Kind.STALL)
    for index, step in enumerate(timeline):
        if step.fault.kind in lasting and not step.undo:
            later = [s for s in timeline[index:] if s.undo and s.fault == step.fault]
            assert len(later) == 1 and later[0].at >= step.at


def test_a_profile_scaled_to_fewer_minutes_keeps_one_fault_of_each_kind() -> None:
    quick = SHORT.scaled(0.5)
    assert quick.fault_seconds == 30.0
    assert min(quick.kills, quick.pauses, quick.node_losses, quick.nats_restarts) >= 1


def test_every_registered_game_gets_valid_options_that_keep_a_match_short() -> None:
    for name in registry.names():
        game = registry.get(name)
        options = short_options(name)
        assert options, f"{name}: nothing shortens its matches"
        specs = {spec.name: spec for spec in game.info.options}
        for option, value in options.items():
            spec = specs[option]
            if spec.kind == "int":
                assert spec.minimum is not None and int(value) >= spec.minimum
            else:
                assert value in spec.choices
        info = game.info
        assert info.min_players <= players_for(name) <= info.max_players


def test_a_cluster_node_routes_to_the_others_with_every_service_user() -> None:
    nodes = [ClusterNode(f"n{i}", 4000 + i, 6000 + i) for i in range(3)]
    cluster = NatsCluster(Path("/data"), nodes, Credentials.generate(), "route-secret")
    config = node_config(cluster, nodes[1])
    assert 'server_name: "n1"' in config and "port: 4001" in config
    assert "127.0.0.1:6000" in config and "127.0.0.1:6002" in config
    assert "127.0.0.1:6001" not in config.split("routes:")[1]  # not to itself
    assert "no_advertise: true" in config and 'store_dir: "/data/n1"' in config
    assert all(f'"user": "{user}"' in config for user in PERMISSIONS)
    urls = cluster.url_for("bots").split(",")
    assert len(urls) == 3 and all(url.startswith("nats://bots:") for url in urls)
    assert cluster.url_for("lobby", [9000]).endswith("@127.0.0.1:9000")
