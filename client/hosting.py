"""Hosting a table: ``HostPeer`` builds the runtime (``client.peer.Peer``) of a host.

Everything the host decides is in its node's role (``client.lobby_host.HostRole``);
this module only turns the host's options into its two frozen values (``HostConfig``,
``NodeConfig``) and gives the lobby's state the names front ends read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from client.lobby import Lobby
from client.lobby_host import HostConfig, HostRole
from client.lobby_wire import Roster
from client.peer import Peer
from client.peer_network import TCP, Network
from client.peer_node import NodeConfig
from engines import AnyEngine
from net.identity import Identity

__all__ = ["HostPeer"]


class HostPeer(Peer):
    def __init__(
        self,
        identity: Identity,
        engine: AnyEngine,
        params: Mapping[str, int | str],
        *,
        name: str,
        network: Network = TCP,
        seams: Any = None,
        **options: Any,
    ) -> None:
        role_fields = set(HostConfig.__dataclass_fields__)
        role = {k: v for k, v in options.items() if k in role_fields}
        if role.get("table_id") is None:
            role.pop("table_id", None)
        node = {k: v for k, v in options.items() if k not in role_fields}
        config = HostConfig(engine, params, name, **role)
        super().__init__(identity, config, NodeConfig(**node), network=network, seams=seams)

    @property
    def role_part(self) -> HostRole:
        assert self.host is not None
        return self.host

    @property
    def lobby(self) -> Lobby:
        return self.role_part.lobby

    @property
    def engine(self) -> AnyEngine:
        return self.role_part.config.engine

    @property
    def host_table_id(self) -> bytes:
        return self.role_part.table_id

    @property
    def announce(self) -> bool:
        return self.role_part.config.announced

    def roster(self) -> Roster:
        return self.role_part.roster()
