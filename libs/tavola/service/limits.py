"""Rate limits: token buckets per calling token and per client address.

Every RPC belongs to one class (acting, reading, creating tables...); each class has a rate
per token, and every call also counts against its client address. The numbers are
documented in docs/security.md and may be changed with ``TAVOLA_LIMITS`` (for example
``TAVOLA_LIMITS="act=40/80,create_table=off"``: rate per second / burst, or ``off``).
"""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Rate:
    """``per_second`` tokens refill continuously up to ``burst``; None: unlimited."""

    per_second: float
    burst: int


UNLIMITED: Rate | None = None

# The documented defaults (docs/security.md, "Limits").
DEFAULT_RATES: dict[str, Rate | None] = {
    "act": Rate(20, 60),  # SubmitAction, TakeBack, LeaveMatch, per token
    "read": Rate(50, 150),  # views, matches, tables, games, standings, accounts, per token
    "help": Rate(5, 20),  # GetHint, ExplainAction (a hint runs the hard bot), per token
    "lobby": Rate(10, 40),  # SitDown, FillWithBots, StartMatch, Invite, ChangeOptions
    "create_table": Rate(1, 30),  # CreateTable: 60 a minute after a burst of 30
    "account": Rate(5, 50),  # CreateAccount, IssueToken, RevokeToken, per token
    "stream_open": Rate(5, 30),  # StreamEvents calls started, per token
    "address": Rate(300, 600),  # every call from one client address
    "unauthenticated": Rate(5, 20),  # calls without a valid token, per client address
}

DEFAULT_STREAMS_PER_TOKEN = 32
DEFAULT_STREAMS_PER_ADDRESS = 256
DEFAULT_STREAM_WRITE_TIMEOUT = 20.0  # seconds a stream may wait for its client to read


def parse_rates(
    text: str, base: Mapping[str, Rate | None] = DEFAULT_RATES
) -> dict[str, Rate | None]:
    """``"act=40/80,create_table=off"`` applied over ``base``; raises ValueError."""
    rates = dict(base)
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, _, value = item.partition("=")
        name = name.strip()
        if name not in rates:
            raise ValueError(f"no rate limit named {name!r} (known: {', '.join(rates)})")
        if value.strip() == "off":
            rates[name] = UNLIMITED
            continue
        per_second, _, burst = value.partition("/")
        try:
            rates[name] = Rate(float(per_second), int(burst or max(1, float(per_second))))
        except ValueError:
            raise ValueError(f"bad rate {item!r}: use NAME=PER_SECOND/BURST or NAME=off") from None
    return rates


@dataclass(frozen=True, slots=True)
class LimitSettings:
    rates: dict[str, Rate | None]
    streams_per_token: int = DEFAULT_STREAMS_PER_TOKEN
    streams_per_address: int = DEFAULT_STREAMS_PER_ADDRESS
    stream_write_timeout: float = DEFAULT_STREAM_WRITE_TIMEOUT

    @staticmethod
    def from_env() -> LimitSettings:
        def number(name: str, default: float) -> float:
            raw = os.environ.get(name, "").strip()
            try:
                return float(raw) if raw else default
            except ValueError:
                raise ValueError(f"{name} must be a number, got {raw!r}") from None

        return LimitSettings(
            rates=parse_rates(os.environ.get("TAVOLA_LIMITS", "")),
            streams_per_token=int(number("TAVOLA_STREAMS_PER_TOKEN", DEFAULT_STREAMS_PER_TOKEN)),
            streams_per_address=int(
                number("TAVOLA_STREAMS_PER_ADDRESS", DEFAULT_STREAMS_PER_ADDRESS)
            ),
            stream_write_timeout=number(
                "TAVOLA_STREAM_WRITE_TIMEOUT", DEFAULT_STREAM_WRITE_TIMEOUT
            ),
        )


class Buckets:
    """Token buckets by key, at most ``max_keys`` remembered (least recently used go)."""

    def __init__(self, rate: Rate, clock: Callable[[], float], max_keys: int = 100_000) -> None:
        self._rate = rate
        self._clock = clock
        self._max = max_keys
        self._levels: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, key: str) -> float:
        """Spend one token: 0.0 if allowed, else the seconds until one is available."""
        now = self._clock()
        level, since = self._levels.pop(key, (float(self._rate.burst), now))
        level = min(float(self._rate.burst), level + (now - since) * self._rate.per_second)
        if level >= 1.0:
            self._remember(key, level - 1.0, now)
            return 0.0
        self._remember(key, level, now)
        if self._rate.per_second <= 0:
            return 3600.0
        return (1.0 - level) / self._rate.per_second

    def level(self, key: str) -> float:
        """Tokens available to ``key`` now (spends nothing)."""
        now = self._clock()
        level, since = self._levels.get(key, (float(self._rate.burst), now))
        return min(float(self._rate.burst), level + (now - since) * self._rate.per_second)

    def _remember(self, key: str, level: float, now: float) -> None:
        self._levels[key] = (level, now)
        while len(self._levels) > self._max:
            self._levels.popitem(last=False)

    def __len__(self) -> int:
        return len(self._levels)


class Limiter:
    """Every class's buckets; ``check`` answers how long to wait (0: go on)."""

    def __init__(self, settings: LimitSettings, clock: Callable[[], float]) -> None:
        self.settings = settings
        self._buckets = {
            name: Buckets(rate, clock) for name, rate in settings.rates.items() if rate is not None
        }

    def check(self, name: str, key: str) -> float:
        buckets = self._buckets.get(name)
        return 0.0 if buckets is None else buckets.take(key)

    def check_level(self, name: str, key: str) -> float:
        """Tokens ``key`` has left in class ``name`` (infinite when unlimited)."""
        buckets = self._buckets.get(name)
        return float("inf") if buckets is None else buckets.level(key)


class StreamCounter:
    """Open streams per key, with a cap."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self._open: dict[str, int] = {}

    def open(self, key: str) -> bool:
        count = self._open.get(key, 0)
        if count >= self.cap:
            return False
        self._open[key] = count + 1
        return True

    def close(self, key: str) -> None:
        count = self._open.get(key, 0) - 1
        if count <= 0:
            self._open.pop(key, None)
        else:
            self._open[key] = count

    def count(self, key: str) -> int:
        return self._open.get(key, 0)
