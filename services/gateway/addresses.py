"""Which browser a request comes from, named as gRPC names a peer (``ipv4:1.2.3.4``,
``ipv6:[::1]``) so the engine's per-address limits count a browser's calls through the
gateway and its direct gRPC calls in one bucket.

The address is the TCP peer's. Behind a reverse proxy every peer is the proxy: list the
proxies in ``TAVOLA_WEB_TRUSTED_PROXIES`` (addresses or networks) and, for a request from
one of them, the client is the last ``X-Forwarded-For`` entry that is not a trusted proxy.
The header is never read from anyone else (a browser could write anything in it).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_networks(text: str) -> tuple[Network, ...]:
    """``"10.0.0.0/8, 192.168.1.7"``; raises ValueError on a bad entry."""
    return tuple(
        ipaddress.ip_network(part.strip(), strict=False) for part in text.split(",") if part.strip()
    )


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        address = ipaddress.ip_address(text.strip().removeprefix("[").split("]")[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def peer_name(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str:
    if isinstance(address, ipaddress.IPv4Address):
        return f"ipv4:{address}"
    return f"ipv6:[{address}]"


def client_address(
    peer: str | None, forwarded_for: Sequence[str], trusted: Sequence[Network]
) -> str | None:
    """The browser's address, or None when the peer's cannot be read."""
    address = _ip(peer or "")
    if address is None:
        return None
    if not any(address in network for network in trusted):
        return peer_name(address)
    hops = [hop for header in forwarded_for for hop in header.split(",") if hop.strip()]
    for hop in reversed(hops):
        found = _ip(hop)
        if found is None:
            return peer_name(address)  # a hop we cannot read: trust nothing beyond it
        if not any(found in network for network in trusted):
            return peer_name(found)
        address = found
    return peer_name(address)
