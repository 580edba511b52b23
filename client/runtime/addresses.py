"""This machine's LAN addresses, for the invite a host prints (never 0.0.0.0).

Found without sending anything: the source address the kernel would pick for a private and
for a public destination (a UDP socket is "connected", which only chooses a route), then
the addresses of the interfaces (a LAN without a default route has no route to probe),
then the addresses the host name resolves to.  Loopback, unspecified and link-local
addresses are left out unless nothing else exists, in which case the invite says 127.0.0.1
(a machine with no network can still host for itself).
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket

import ifaddr

__all__ = ["lan_addresses"]

_PROBES = ("10.255.255.255", "192.168.255.255", "192.0.2.1")
"""Destinations whose routes name the interfaces a LAN peer would reach (no packet is sent)."""
MAX_ADDRESSES = 8


def lan_addresses() -> tuple[str, ...]:
    """IPv4 addresses other machines on the LAN can dial, best first; never empty."""
    found: list[str] = []
    for probe in _PROBES:
        with (
            contextlib.suppress(OSError),
            socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock,
        ):
            sock.connect((probe, 9))
            found.append(str(sock.getsockname()[0]))
    with contextlib.suppress(OSError):
        for adapter in ifaddr.get_adapters():
            found += [str(ip.ip) for ip in adapter.ips if isinstance(ip.ip, str)]
    with contextlib.suppress(OSError, UnicodeError):
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(info[4][0]))
    usable = [a for a in dict.fromkeys(found) if _usable(a)]
    return tuple(usable[:MAX_ADDRESSES]) or ("127.0.0.1",)


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.IPv4Address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_unspecified or ip.is_link_local or ip.is_multicast)
