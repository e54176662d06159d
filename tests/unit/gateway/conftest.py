"""Fixtures of the gateway's tests (the fake engine and the app are in fake_engine.py)."""

from unit.gateway.fake_engine import engine, gateway

__all__ = ["engine", "gateway"]
