"""mDNS/DNS-SD over python-zeroconf: a host announces its table, a player finds tables.

python-zeroconf runs its own thread; trio reaches it through ``trio.to_thread`` (its calls
block: registering a service probes the LAN for about 1.5 s) and it reaches trio through
the trio token (``run_sync_soon``), so everything palabre sees happens on the trio thread.

* :class:`Announcer` (the host) observes the host's ``client.runtime.peer.Peer``: the first roster
  registers the service, each roster after it updates the seats free, START withdraws it (goodbye
  packets), and so does the end of the table.  It announces on the machine's LAN addresses
  (``client.runtime.addresses``) and binds zeroconf to exactly those interfaces — never 0.0.0.0: a
  service announced for 0.0.0.0 is not announced at all.  A machine without a LAN address
  announces nothing and says so.
* :class:`TableFinder` (a player) browses ``_palabre._tcp``, resolves each service, keeps the
  tables whose TXT properties read well (``client.node.discovery``) and forgets them when their
  host withdraws them.  ``generation`` grows at every change, for views that poll.

Problems (no multicast, no interface) never stop a table or a window: they become a
sentence (``Announcer`` notifies ``MdnsNote``; ``TableFinder.problem``).  ``PALABRE_MDNS=off``
turns both off (the test suite sets it: tests never multicast on the machine's own LAN;
the network-namespace tests turn it back on inside their namespaces).
"""

from __future__ import annotations

import contextlib
import os
import socket
from collections.abc import Sequence
from typing import TextIO

import trio
from zeroconf import IPVersion, ServiceBrowser, ServiceInfo, ServiceStateChange, Zeroconf

from client.node.discovery import (
    SERVICE_TYPE,
    FoundTable,
    TableAd,
    ad_for_roster,
    ad_properties,
    read_properties,
    service_name,
)
from client.node.lobby_wire import LobbyChanged
from client.node.peer_events import MdnsNote, Observer, PeerEvent, TableStarted
from client.rules.errors import BadAd
from client.runtime.addresses import lan_addresses

__all__ = ["Announcer", "TableFinder", "announce_addresses", "mdns_enabled"]

TTL = 120
"""Seconds a browser keeps an announcement it hears no more (a crashed host's table)."""
RESOLVE_MS = 3000
CLOSE_TIMEOUT = 3.0


def mdns_enabled() -> bool:
    return os.environ.get("PALABRE_MDNS", "").lower() not in ("off", "0", "no")


def announce_addresses() -> tuple[str, ...]:
    """The LAN addresses to announce on (none: only loopback, nobody else could dial)."""
    return tuple(a for a in lan_addresses() if not a.startswith("127."))


def _problem(error: BaseException) -> str:
    text = str(error) or type(error).__name__
    return text[0].lower() + text[1:] if text else "unknown error"


class Announcer:
    """Announces one hosted table while its lobby is open.  See the module docstring."""

    def __init__(
        self,
        port: int,
        table_id: bytes,
        fingerprint: str,
        notify: Observer,
        addresses: Sequence[str] | None = None,
    ) -> None:
        self.port = port
        self.table_id = table_id
        self.fingerprint = fingerprint
        self.notify = notify
        self.addresses = tuple(addresses) if addresses is not None else None
        self._want: TableAd | None = None
        self._closed = False
        self._changed = trio.Event()

    def observe(self, event: PeerEvent) -> None:
        """A host's observer: rosters announce, START withdraws."""
        if isinstance(event, LobbyChanged) and not self._closed:
            self._want = ad_for_roster(event.roster, self.table_id, self.fingerprint)
            self._changed.set()
        elif isinstance(event, TableStarted):
            self._closed = True
            self._want = None
            self._changed.set()

    async def serve(self) -> None:
        """Follow the wanted announcement until cancelled, then withdraw it."""
        zc: Zeroconf | None = None
        shown: ServiceInfo | None = None
        try:
            while True:
                await self._changed.wait()
                self._changed = trio.Event()
                want = self._want
                if want is None and shown is None:
                    if self._closed:
                        return
                    continue
                if zc is None:
                    self.addresses = self.addresses or announce_addresses()
                    if not self.addresses:
                        self.notify(MdnsNote("no LAN address: the table is not announced", True))
                        return
                    zc = await trio.to_thread.run_sync(_zeroconf, self.addresses)
                assert self.addresses is not None
                if want is None:
                    assert shown is not None
                    await trio.to_thread.run_sync(zc.unregister_service, shown)
                    shown = None
                    self.notify(MdnsNote("the table is no longer announced (it started)"))
                    return
                info = ServiceInfo(
                    SERVICE_TYPE,
                    service_name(want),
                    port=self.port,
                    properties=ad_properties(want),
                    server=f"palabre-{want.table_id.hex()[:12]}.local.",
                    host_ttl=TTL,
                    other_ttl=TTL,
                    parsed_addresses=list(self.addresses),
                )
                if shown is None:
                    await trio.to_thread.run_sync(zc.register_service, info)
                    where = ", ".join(f"{a}:{self.port}" for a in self.addresses)
                    self.notify(MdnsNote(f"announced on the LAN at {where}"))
                else:
                    await trio.to_thread.run_sync(zc.update_service, info)
                shown = info
        except Exception as error:  # zeroconf: no multicast, a socket that cannot bind...
            self.notify(MdnsNote(f"cannot announce the table: {_problem(error)}", True))
        finally:
            with trio.CancelScope(shield=True), trio.move_on_after(CLOSE_TIMEOUT):
                await trio.to_thread.run_sync(_close, None, zc, abandon_on_cancel=True)  # type: ignore[call-arg]


class TableFinder:
    """The tables heard on the LAN, updated as hosts announce and withdraw them."""

    def __init__(self, interfaces: Sequence[str] | None = None) -> None:
        self.interfaces = interfaces
        self.generation = 0
        """Grows at every change of ``tables()`` or ``problem``."""
        self.problem: str | None = None
        self.listening = False
        self._found: dict[str, FoundTable] = {}

    def tables(self) -> tuple[FoundTable, ...]:
        """Every table heard, by game, host name and address."""
        return tuple(
            sorted(self._found.values(), key=lambda t: (t.ad.game, t.ad.host_name, t.address))
        )

    def heard(self, name: str, table: FoundTable | None) -> None:
        """Service ``name`` now announces ``table`` (None: it was withdrawn or reads badly)."""
        if table is None:
            if self._found.pop(name, None) is None:
                return
        elif self._found.get(name) == table:
            return
        else:
            self._found[name] = table
        self.generation += 1

    async def serve(self) -> None:
        """Browse until cancelled (a problem is kept in ``problem``, not raised)."""
        if not mdns_enabled():
            self._fail("finding tables on the LAN is turned off (PALABRE_MDNS=off)")
            return
        token = trio.lowlevel.current_trio_token()

        def handler(
            zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange
        ) -> None:  # on zeroconf's browser thread
            table = None
            if state_change is not ServiceStateChange.Removed:
                info = zeroconf.get_service_info(service_type, name, RESOLVE_MS)
                table = None if info is None else _found(info)
            with contextlib.suppress(trio.RunFinishedError):
                token.run_sync_soon(self.heard, name, table)

        zc: Zeroconf | None = None
        browser: ServiceBrowser | None = None
        try:
            zc = await trio.to_thread.run_sync(_zeroconf, self.interfaces)
            browser = ServiceBrowser(zc, SERVICE_TYPE, handlers=[handler])
            self.listening = True
            self.generation += 1
            await trio.sleep_forever()
        except Exception as error:
            self._fail(f"cannot listen for tables on the LAN: {_problem(error)}")
        finally:
            self.listening = False
            with trio.CancelScope(shield=True), trio.move_on_after(CLOSE_TIMEOUT):
                await trio.to_thread.run_sync(_close, browser, zc, abandon_on_cancel=True)  # type: ignore[call-arg]

    def _fail(self, problem: str) -> None:
        self.problem = problem
        self.generation += 1


def _zeroconf(interfaces: Sequence[str] | None) -> Zeroconf:
    """Zeroconf on exactly ``interfaces`` (None: every interface, for browsing)."""
    return Zeroconf() if interfaces is None else Zeroconf(interfaces=list(interfaces))


def _close(browser: ServiceBrowser | None, zc: Zeroconf | None) -> None:
    """Stop browsing and close (withdrawing what was announced: goodbye packets)."""
    if browser is not None:
        browser.cancel()
    if zc is not None:
        zc.close()


def _found(info: ServiceInfo) -> FoundTable | None:
    """The table a resolved service announces; None unless it reads well and has an address."""
    try:
        ad = read_properties(info.properties)
    except BadAd:
        return None
    addresses = tuple(info.parsed_addresses(IPVersion.V4Only))
    usable = tuple(a for a in addresses if _is_ipv4(a))
    if not usable or info.port is None or not 1 <= info.port <= 65535:
        return None
    return FoundTable(ad, usable[:8], info.port)


def _is_ipv4(text: str) -> bool:
    try:
        socket.inet_aton(text)
    except OSError:
        return False
    return text.count(".") == 3 and text != "0.0.0.0"


def run_tables(wait: float, out: TextIO) -> int:
    """``palabre tables``: listen ``wait`` seconds, print one table per line; the exit code."""
    import sys

    from client.node.discovery import table_line
    from engines import engine_names, find_engine

    finder = TableFinder()

    async def listen() -> None:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(finder.serve)
            await trio.sleep(wait)
            nursery.cancel_scope.cancel()

    trio.run(listen)
    if finder.problem is not None:
        print(f"palabre: {finder.problem}", file=sys.stderr, flush=True)
        return 1
    known = {name: find_engine(name).ruleset for name in engine_names()}
    tables = finder.tables()
    for table in tables:
        print(table_line(table, known=known), file=out, flush=True)
    if not tables:
        print(f"palabre: no table heard on the LAN in {wait:g} s", file=sys.stderr, flush=True)
    return 0
