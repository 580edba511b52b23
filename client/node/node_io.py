"""What goes into the peer node and what comes out of it: inputs, effects, seams.

``client.node.peer_node.PeerNode.handle`` takes one ``NodeInput`` and returns a ``NodeOutput``.
Every input carries ``now`` (the node reads no clock); the output is a list of effects in
the order the node decided them, for the runtime (``client.runtime.peer``) to carry out in that
order: put a message on a link's queue (``Send``), say goodbye on a link (``Close``), dial a
peer (``Dial``), tell the front ends (``Tell``), end (``Finish``).  Two flags say which of
the runtime's waits to re-arm (the timer, the beat), exactly where the node's state changed
what they wait for.

Write-ahead does not go through effects: the game file is a synchronous journal port the
node appends to and fsyncs inside ``handle``, before it returns the ``Send`` effects the
fsync must precede.  Evidence files are a synchronous port too (``EvidenceStore``): the
event telling of one comes only once it is written, before the halt it documents.

A link is an opaque handle the runtime owns (``NodeLink``): the node reads and sets the
table-side facts on it (admitted, spectator, how many records were refused...), never its
socket.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeVar

from net.errors import CloseCode
from net.events import Event as NetEvent
from net.events import LinkClosed, MessageReceived, SendEvent

if TYPE_CHECKING:
    from client.bots import Bot
    from client.node.mesh import Address, Mesh
    from client.node.peer_events import PeerEvent
    from client.rules.records import SignedRecord, Signer
    from client.tabletop.events import Output
    from client.tabletop.table import Table
    from engines import AnyEngine
    from net.identity import Identity
    from net.logfile import TornTail

T = TypeVar("T")

__all__ = [
    "AddBot",
    "BeatDue",
    "Close",
    "Dial",
    "DialEnded",
    "Effect",
    "EvidenceStore",
    "Finish",
    "FromLink",
    "HostLinked",
    "HostUnreached",
    "Journal",
    "Leave",
    "LinkDown",
    "LinkEnded",
    "LinkUp",
    "ListenFailed",
    "LobbyAct",
    "NodeInput",
    "NodeLink",
    "NodeOutput",
    "NodeSeams",
    "Opened",
    "Play",
    "RematchAnswer",
    "RemoveBot",
    "RemovePlayer",
    "Reopening",
    "RoleNode",
    "Send",
    "SetReady",
    "StartTable",
    "Started",
    "Tell",
    "TimerDue",
    "WindDown",
]


class NodeLink(Protocol):
    """What the node reads and keeps of one link (``client.runtime.peer_link.PeerLink``)."""

    key: bytes
    name: str
    spectator: bool
    dialed_by: bytes
    admitted: bool
    refused: int
    closing: bool
    watching: bool

    @property
    def remote(self) -> str: ...

    @property
    def address(self) -> str | None: ...

    @property
    def listen_port(self) -> int: ...


class RoleNode(Protocol):
    """What the lobby roles (``client.node.hosting.HostRole``, ``client.node.joining.JoinRole``)
    use of the node they are part of (``client.node.peer_node.PeerNode``): what it holds, and the
    node's own steps, each deciding effects into the output being made."""

    identity: Identity
    me: bytes
    port: int
    links: list[NodeLink]
    mesh: Mesh
    finished: bool
    table_id: bytes | None

    @property
    def engine_for(self) -> Callable[[str], AnyEngine]: ...

    @property
    def table(self) -> Table | None: ...

    def send(self, link: NodeLink, event: SendEvent) -> None: ...

    def close(self, link: NodeLink, reason: str, code: CloseCode = CloseCode.CLOSING) -> None: ...

    def notify(self, event: PeerEvent) -> None: ...

    def admit(self, link: NodeLink) -> None: ...

    def vouch(self, peers: Iterable[tuple[bytes, str]]) -> None: ...

    def refuse_spectator(self, link: NodeLink) -> bool: ...

    def link_refused(self, link: NodeLink, reason: str) -> None: ...

    def mesh_message(self, link: NodeLink, message: MessageReceived, now: float) -> bool: ...

    def rematch_message(self, link: NodeLink, message: MessageReceived) -> None: ...

    def link_down(self, link: NodeLink, now: float) -> None: ...

    def peer_left(self, key: bytes) -> None: ...

    def new_bot_identity(self, table_id: bytes) -> Identity: ...

    def open_file(self, table_id: bytes, game: str, players: Sequence[str]) -> Journal: ...

    def signer(self, identity: Identity) -> Signer: ...

    def begin(self, start: SignedRecord, spectator: bool, now: float) -> None: ...

    def resume(self, reopening: Reopening, now: float) -> None: ...

    def effects_so_far(self) -> int: ...

    def undo_after(self, mark: int) -> None: ...

    def finish(self, code: int, reason: str = "goodbye") -> None: ...


class Journal(Protocol):
    """The game file as the node writes it (``client.profile.game_file.GameFile``): appended as the
    table takes each record, fsynced before anything it holds is sent."""

    @property
    def path(self) -> Path: ...

    @property
    def closed(self) -> bool: ...

    @property
    def unsynced(self) -> int: ...

    def append(self, record: bytes, *, sync: bool = False) -> None: ...

    def sync(self) -> None: ...


@dataclass(frozen=True)
class Reopening:
    """This table's game file, found and read again by the runtime for a rejoin."""

    journal: Journal
    records: Sequence[SignedRecord]
    torn: TornTail | None


class EvidenceStore(Protocol):
    """Where evidence files go: the path written, None when the system refused it."""

    def write(self, table_id: bytes, name: str, content: dict[str, object]) -> Path | None: ...


# --- inputs ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Started:
    """START arrived (or the host signed it): set the table up and begin."""

    start: SignedRecord
    spectator: bool
    now: float


@dataclass(frozen=True)
class FromLink:
    """A ``net`` event of a link of the mesh after START: one this peer dialed, or one
    dialed to it (``pull`` first from a peer, ``join`` from one that rejoins or watches)."""

    link: NodeLink
    event: NetEvent
    now: float


@dataclass(frozen=True)
class LinkUp:
    """``link`` takes part in the table (admitted)."""

    link: NodeLink
    now: float


@dataclass(frozen=True)
class LinkEnded:
    """``link`` stopped running (``closed`` says why; None: its task was cancelled): it is
    no longer one of the node's links, and it is shown when it was the other side's fault."""

    link: NodeLink
    closed: LinkClosed | None
    now: float


@dataclass(frozen=True)
class LinkDown:
    """``link`` ended (``closed`` says how): the mesh dials again, or waits to be dialed; a
    joiner leaves the host's lobby; the host's link gone, a joiner may have to give up."""

    link: NodeLink
    closed: LinkClosed
    now: float


@dataclass(frozen=True)
class Opened:
    """The runtime serves: it listens, its timer and beat run (a host shows its lobby and
    starts it if it is complete; a joiner dials the host)."""

    now: float


@dataclass(frozen=True)
class ListenFailed:
    """A joiner could not listen (``reason``): the join ends before it began."""

    reason: str
    now: float


@dataclass(frozen=True)
class HostUnreached:
    """A joiner's dial of the host failed for good (``code``: the REFUSE's, if any)."""

    reason: str
    code: CloseCode | None
    refused: bool
    now: float


@dataclass(frozen=True)
class HostLinked:
    """A joiner's link with the host is up (``table_id``: the table it named;
    ``fingerprint``: the host's).  ``rejoin``: this table's game file, read again by the
    runtime (a text saying why it could not be; None: this profile has none)."""

    link: NodeLink
    table_id: bytes | None
    fingerprint: str
    rejoin: Reopening | str | None
    now: float


@dataclass(frozen=True)
class SetReady:
    """This peer's player is ready (or not) in the lobby."""

    ready: bool
    now: float


@dataclass(frozen=True)
class AddBot:
    """This peer adds a bot it runs (``seat`` None: any free one)."""

    seat: int | None
    now: float


@dataclass(frozen=True)
class RemoveBot:
    """This peer takes its bot off ``seat``."""

    seat: int
    now: float


@dataclass(frozen=True)
class RemovePlayer:
    """The host sends a joiner away before START (``NodeOutput.answer``: its name)."""

    who: int | str | bytes
    now: float


@dataclass(frozen=True)
class StartTable:
    """The host's player starts the table (``JoinRefused`` saying what is missing)."""

    now: float


LobbyAct = SetReady | AddBot | RemoveBot | RemovePlayer | StartTable
"""The lobby intents of a peer's player (``JoinRefused`` says why not)."""


@dataclass(frozen=True)
class DialEnded:
    """A dial of ``key`` ended: ``link`` is the new link, None when it failed."""

    key: bytes
    link: NodeLink | None
    now: float


@dataclass(frozen=True)
class TimerDue:
    """The timer: bots' delays, the deferred fsync, floods told, the conclusion."""

    now: float


@dataclass(frozen=True)
class BeatDue:
    """The mesh's beat: dial what is due, presence reports, pulls."""

    now: float


@dataclass(frozen=True)
class Play:
    """An intent of this peer's player on the table (``IntentRefused`` says why not)."""

    intent: Callable[[Table, float], Output]
    now: float


@dataclass(frozen=True)
class RematchAnswer:
    """This peer's player plays again (or not); ``NodeOutput.accepted`` False when it cannot
    be said now."""

    yes: bool
    now: float


@dataclass(frozen=True)
class WindDown:
    """The runtime winds down: a burst of dropped chat still going on is told all the same."""

    now: float


@dataclass(frozen=True)
class Leave:
    """End now with ``code``, saying ``reason`` on every link; ``on_purpose``: the player
    leaves, so a peer still at the table signs LEAVE first (``client.tabletop.table_leaving``)."""

    code: int
    reason: str
    now: float
    on_purpose: bool = False


NodeInput = (
    Opened
    | ListenFailed
    | HostUnreached
    | HostLinked
    | SetReady
    | AddBot
    | RemoveBot
    | RemovePlayer
    | StartTable
    | Started
    | FromLink
    | LinkUp
    | LinkEnded
    | LinkDown
    | DialEnded
    | TimerDue
    | BeatDue
    | Play
    | RematchAnswer
    | Leave
    | WindDown
)


# --- effects --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Send:
    """Queue ``event`` on ``link`` (the node never sends on a link it closed)."""

    link: NodeLink
    event: SendEvent


@dataclass(frozen=True)
class Close:
    """Say goodbye on ``link`` after what is queued already."""

    link: NodeLink
    reason: str
    code: CloseCode = CloseCode.CLOSING


@dataclass(frozen=True)
class Dial:
    """Dial ``key`` at ``where`` (``watch``: as a spectator) and feed ``DialEnded``."""

    key: bytes
    where: Address
    watch: bool = False


@dataclass(frozen=True)
class Tell:
    """Tell the front ends (observers) ``event``."""

    event: PeerEvent


@dataclass(frozen=True)
class Finish:
    """The node is done (``PeerNode.exit_code``): the runtime winds down."""

    code: int


Effect = Send | Close | Dial | Tell | Finish


@dataclass
class NodeOutput:
    """What one input made the node do, in order."""

    effects: list[Effect] = field(default_factory=list)
    wake_timer: bool = False
    """The timer's deadline may have moved (``PeerNode.next_deadline``)."""
    wake_beat: bool = False
    """The beat is due at once (links changed, the table started)."""
    accepted: bool = True
    """Whether the input was taken (False: a rematch answer that cannot be given now)."""
    answer: str = ""
    """What an intent answers (``RemovePlayer``: the name of the player sent away)."""

    @property
    def events(self) -> list[PeerEvent]:
        return [effect.event for effect in self.effects if isinstance(effect, Tell)]


def _same(value: T) -> T:
    return value


@dataclass(frozen=True)
class NodeSeams:
    """Where a test peer bends the node (``tests/e2e/liar.py``, ``faulty_peer.py``): each
    filter returns what goes on, None to drop it.  The product uses none."""

    inputs: Callable[[NodeInput], NodeInput | None] = _same
    """Every input, before the node handles it."""
    effects: Callable[[Effect], Effect | None] = _same
    """Every effect, as the node decides it."""
    table_output: Callable[[Output], Output] = _same
    """What the table returns, before the node makes it durable and sends it."""
    signer: Callable[[Identity, Signer], Signer] = lambda identity, signer: signer
    """The signer of a key at the table (``identity``, the node's own signer)."""
    bot: Callable[[str, int, Bot], Bot] = lambda game, seat, bot: bot
    """The bot this peer runs for ``seat`` of ``game`` (the one the node made)."""
