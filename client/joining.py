"""Joining a table: ``JoinPeer`` builds the runtime (``client.peer.Peer``) of a joiner.

Everything the joiner decides is in its node's role (``client.lobby_join.JoinRole``);
this module only turns the joiner's options into its two frozen values (``JoinConfig``,
``NodeConfig``).
"""

from __future__ import annotations

from typing import Any

from client.lobby_join import JOIN_FAILURE_KINDS, JoinConfig, JoinRole, parse_target
from client.lobby_wire import Roster
from client.peer import Peer
from client.peer_events import JoinFailed
from client.peer_network import TCP, Network
from client.peer_node import NodeConfig
from net.identity import Identity
from net.invite import Invite

__all__ = ["JOIN_FAILURE_KINDS", "JoinPeer", "parse_target"]


class JoinPeer(Peer):
    def __init__(
        self,
        identity: Identity,
        target: Invite | tuple[str, int],
        *,
        name: str,
        network: Network = TCP,
        seams: Any = None,
        **options: Any,
    ) -> None:
        role_fields = set(JoinConfig.__dataclass_fields__)
        role = {k: v for k, v in options.items() if k in role_fields}
        node = {k: v for k, v in options.items() if k not in role_fields}
        config = JoinConfig(target, name, **role)
        super().__init__(identity, config, NodeConfig(**node), network=network, seams=seams)

    @property
    def role_part(self) -> JoinRole:
        assert self.joining is not None
        return self.joining

    @property
    def target(self) -> Invite | tuple[str, int]:
        return self.role_part.config.target

    @property
    def watch(self) -> bool:
        return self.role_part.watch

    @property
    def roster(self) -> Roster | None:
        return self.role_part.roster

    @property
    def failure(self) -> JoinFailed | None:
        return self.role_part.failure

    @property
    def proved_secret(self) -> str | None:
        return self.role_part.config.proved_secret
