"""What every part of a ``Peer`` shares: its state, its files and keys, and how it ends.

``PeerCore`` is the bottom layer of ``client.peer.Peer`` (above it: ``client.peer_table``,
the table side; ``client.peer_links``, the links of the mesh; ``client.peer_presence``,
presence reports and heartbeats; ``client.peer`` adds the timer and the wind-down).
Invariants:

* one ``NetSigner`` per key at a table (``signer``), its ``seq`` going on after what the game
  file holds when the peer restarted, so no seq is ever signed twice;
* bot keys are kept in the profile: a lobby bot's named after the table, a REMOVE's
  replacement named after the table, seat and ply (the same again after a restart);
* every (key, name) learnt is checked against the profile's known peers once per pair
  (``vouch``, trust on first use); START's peers are remembered;
* ending: ``client.peer_conclusion`` decides when and with what code (a weak conclusion
  gives way to any other, a halt or a lost link overrides an ending, a peer that ``stay``s
  ends only on a fatal problem or when asked); ``done`` is set once, by ``finish``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import trio

from client.bots import Bot, make_bot
from client.evidence_budget import EvidenceBudget
from client.flood_guard import FloodGuard
from client.game_file import GameFile, game_dir
from client.known_peers import KnownPeers
from client.mesh import Mesh
from client.net_adapter import NetSigner
from client.peer_admission import Admission
from client.peer_beat import Beat
from client.peer_conclusion import Conclusion
from client.peer_events import NameWarning, Observer, PeerEvent
from client.peer_link import PeerLink, TablePolicy
from client.peer_network import TCP, Network
from client.peer_relay import Relay
from client.records import Signer
from client.rematch import Rematch
from client.table import Table
from engines import AnyEngine, find_engine
from net.fsutil import os_reason
from net.identity import Identity, load_bot_identity, profile_dir
from net.invite import format_table_id
from net.signer import RecordSigner

log = logging.getLogger("palabre.peer")


class PeerCore:
    """The state, files, keys and ending the layers of ``client.peer.Peer`` share."""

    def __init__(
        self,
        identity: Identity,
        *,
        profile: str = "default",
        home: Path | None = None,
        engine_for: Callable[[str], AnyEngine] = find_engine,
        bot_kind: str = "sensible",
        seed: int = 0,
        bot_delay: float = 0.3,
        bot_me: bool = False,
        think_in_thread: bool = True,
        stay: bool = False,
        rematch: bool = False,
        network: Network = TCP,
    ) -> None:
        self.identity = identity
        self.network = network
        """How this peer listens and dials (``client.peer_network``: TCP but in tests)."""
        self.me = identity.public_key
        self.profile, self.home = profile, home
        self.engine_for = engine_for
        self.bot_kind, self.seed, self.bot_delay, self.bot_me = bot_kind, seed, bot_delay, bot_me
        self.think_in_thread = think_in_thread
        """Bots think in a worker thread (``client.bots.thinking``); off on a virtual clock."""
        self.stay = stay
        self.policy = TablePolicy()
        self.links: list[PeerLink] = []
        self.table: Table | None = None
        self.file: GameFile | None = None
        self.table_id: bytes | None = None
        self.conclusion = Conclusion(stay=stay)
        """When and how this peer ends (``client.peer_conclusion``)."""
        self.mesh = Mesh(self.me)
        self.admission: Admission[PeerLink] = Admission(self.mesh)
        """One link per peer, who joins after START, limits per link (``peer_admission``)."""
        self.relay: Relay[PeerLink] = Relay(self.mesh, self.policy)
        """Dedupe, pass on, pull (``client.peer_relay``); it holds every record held."""
        self.port = 0
        self.name = ""
        """The player's name this peer joins or hosts with (set by ``HostPeer``/``JoinPeer``)."""
        self.secret: str | None = None
        self.observers: list[Observer] = []
        self.exit_code: int | None = None
        self.done = trio.Event()
        self.bot_identities: dict[bytes, Identity] = {}
        self.bytes_sent = 0
        """Record frames written on every link (envelopes and frame overhead)."""
        self._listeners: list[Any] = []
        self._signers: dict[bytes, NetSigner] = {}
        self._last_seqs: dict[bytes, int] = {}
        self._wake = trio.Event()
        self._soon: list[Callable[[], None]] = []
        self._links_changed = trio.Event()
        self._sync_due: float | None = None
        self._halt_count = 0
        self._rejected_count = 0
        self.evidence_budget = EvidenceBudget()
        """What is left to write of refused records' evidence (``client.evidence_budget``)."""
        self.floods = FloodGuard()
        """How fast each author may chat and point (``client.flood_guard``)."""
        self.refused_on_links = 0
        """Records ``net`` refused on every link: counted, never written."""
        self._nursery: trio.Nursery | None = None
        self.beat = Beat(self.mesh, stay=stay)
        """When this peer reports its presence and its book (``client.peer_beat``)."""
        self._mesh_wake = trio.Event()
        self._known: KnownPeers | None = None
        self._warned: set[tuple[bytes, str]] = set()
        self.rematch = Rematch(self, auto=rematch)
        """Playing again after the END (``client.rematch``); ``rematch``: accept by itself."""

    # --- files and keys ---------------------------------------------------------------------
    @property
    def games(self) -> Path:
        return game_dir(self.profile, self.home)

    def game_path(self, table_id: bytes) -> Path:
        return self.games / f"{format_table_id(table_id)}.palabre-log"

    def open_file(self, table_id: bytes) -> GameFile:
        """Create this table's game file (``LogFileError`` if it exists or cannot be made)."""
        if self.file is None:
            self.table_id = table_id
            self.file = GameFile.create(self.game_path(table_id))
            return self.file
        return self.file

    def new_bot_identity(self, table_id: bytes) -> Identity:
        """A new key for a bot seat this peer runs, kept in the profile."""
        name = f"{format_table_id(table_id)}-{len(self.bot_identities) + 1}"
        identity = load_bot_identity(self.profile, name, self.home)
        self.bot_identities[identity.public_key] = identity
        return identity

    def _table_bot_identities(self, table_id: bytes) -> None:
        """After a restart: the lobby bots' keys this profile made for this table."""
        folder = profile_dir(self.profile, self.home) / "bots"
        prefix = f"{format_table_id(table_id)}-"
        for path in sorted(folder.glob(f"{prefix}*.key")) if folder.is_dir() else ():
            identity = load_bot_identity(self.profile, path.stem, self.home)
            self.bot_identities[identity.public_key] = identity

    @property
    def known(self) -> KnownPeers:
        """The profile's known peers (read on first use)."""
        if self._known is None:
            self._known = KnownPeers(profile_dir(self.profile, self.home) / "known-peers.json")
            if self._known.problem is not None:
                self.notify(NameWarning(self._known.problem))
        return self._known

    def vouch(self, peers: Iterable[tuple[bytes, str]], *, remember: bool = False) -> None:
        """Check ``(key, name)`` pairs against the names this profile met (trust on first
        use): a ``NameWarning`` for each known name that comes with a new key, once per
        pair; with ``remember`` (START: the players of this game) note them all."""
        known = self.known
        others = [(key, name) for key, name in peers if key != self.me]
        for key, name in others:
            conflict = known.check(name, key)
            if conflict is not None and (key, name) not in self._warned:
                self._warned.add((key, name))
                self.notify(NameWarning(str(conflict), key))
        if remember and others:
            had_problem = known.problem is not None
            known.remember(others)
            if known.problem is not None and not had_problem:
                self.notify(NameWarning(known.problem))

    def signer(self, identity: Identity) -> NetSigner:
        """The one signer of ``identity`` at this table (its ``seq`` lives there, after what
        the game file holds when the peer restarted)."""
        key = identity.public_key
        if key not in self._signers:
            assert self.file is not None and self.table_id is not None
            last = self._last_seqs.get(key, 0)
            self._signers[key] = NetSigner(RecordSigner(identity, self.table_id, self.file, last))
        return self._signers[key]

    def _replacement_bot(self, seat: int, ply: int) -> tuple[Signer, Bot | None]:
        """The bot key a REMOVE at ``ply`` hands this peer for ``seat`` (the same again after
        a restart: named after the table, the seat and the ply)."""
        assert self.table_id is not None and self.table is not None
        name = f"{format_table_id(self.table_id)}-seat{seat}-ply{ply}"
        identity = load_bot_identity(self.profile, name, self.home)
        self.bot_identities[identity.public_key] = identity
        return self.signer(identity), self._bot(self.table.start.game, seat)

    def _bot(self, game: str, seat: int) -> Bot:
        return make_bot(game, self.bot_kind, self.seed * 100 + seat)

    def call_soon(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` on the peer's loop after the event being handled (an observer
        that wants to act, say, must not re-enter the table from inside its own output)."""
        self._soon.append(callback)
        self._wake.set()

    def notify(self, event: PeerEvent) -> None:
        for observer in list(self.observers):
            observer(event)

    def _write_json(self, name: str, content: dict[str, Any]) -> bool:
        """Write an evidence file; False when the system refuses (no file descriptor left,
        the disk full): logged, and the game goes on without it (issue 19)."""
        assert self.table_id is not None
        path = self.games / f"{format_table_id(self.table_id)}.{name}.json"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            aside = path.with_suffix(".tmp")
            aside.write_text(json.dumps(content, indent=1, ensure_ascii=False), encoding="utf-8")
            aside.replace(path)
        except OSError as error:
            log.warning("cannot write %s (%s); the game goes on", path, os_reason(error).lower())
            return False
        return True

    # --- ending -------------------------------------------------------------------------------
    def conclude(self, code: int, after: float, *, wait_links: bool, weak: bool = False) -> None:
        """End with ``code`` after ``after`` seconds, by the rules of
        ``client.peer_conclusion``."""
        if self.conclusion.conclude(
            code, trio.current_time(), after, wait_links=wait_links, weak=weak
        ):
            self._wake.set()

    def hold(self, seconds: float | None) -> None:
        """Stay at least ``seconds`` more before ending with code 0 (None: stop holding)."""
        self.conclusion.hold(trio.current_time(), seconds)
        self._wake.set()

    @property
    def left_table(self) -> bool:
        """The game file is closed (after ``wind_down``): nothing more reaches the table."""
        return self.file is not None and self.file.closed

    def finish(self, code: int, reason: str = "goodbye") -> None:
        """End now with ``code``, saying goodbye on every link."""
        if self.exit_code is None:
            self.exit_code = code
        for link in self.links:
            link.close(reason)
        self.done.set()
        self._wake.set()

    def peer_links(self) -> list[PeerLink]:
        return [link for link in self.links if not link.spectator]
