"""Engine configuration (environment variables, parsed once)."""

from __future__ import annotations

from dataclasses import dataclass

from services.engine.cache import CACHE_MATCHES
from tavola.service.config import ServiceConfig, grpc_address, int_setting


@dataclass(frozen=True, slots=True)
class EngineConfig:
    service: ServiceConfig
    grpc_address: str
    max_message_bytes: int
    pool_size: int
    cache_matches: int  # matches held in memory (LRU), and seeds

    @staticmethod
    def from_env() -> EngineConfig:
        return EngineConfig(
            service=ServiceConfig.from_env(),
            grpc_address=grpc_address(),
            max_message_bytes=int_setting("TAVOLA_MAX_MESSAGE_BYTES", 64 * 1024),
            pool_size=int_setting("TAVOLA_DB_POOL_SIZE", 10),
            cache_matches=int_setting("TAVOLA_ENGINE_CACHE_MATCHES", CACHE_MATCHES),
        )
