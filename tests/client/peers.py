"""Peers for tests, from one set of keyword options: each goes to the frozen value that
holds it (the role's ``HostConfig``/``JoinConfig``, the ``NodeConfig``, or the runtime's
``network`` and ``seams``), so a test names only what it changes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from client.node.hosting import HostConfig
from client.node.joining import JoinConfig
from client.node.peer_node import NodeConfig
from client.runtime.peer import Peer
from engines import AnyEngine
from net.identity import Identity
from net.invite import Invite

__all__ = ["host_peer", "join_peer"]

_RUNTIME = ("network", "seams")


def host_peer(
    identity: Identity,
    engine: AnyEngine,
    params: Mapping[str, int | str],
    name: str,
    **options: Any,
) -> Peer:
    role, node, runtime = _split(options, HostConfig)
    return Peer(identity, HostConfig(engine, params, name, **role), NodeConfig(**node), **runtime)


def join_peer(
    identity: Identity, target: Invite | tuple[str, int], name: str, **options: Any
) -> Peer:
    role, node, runtime = _split(options, JoinConfig)
    return Peer(identity, JoinConfig(target, name, **role), NodeConfig(**node), **runtime)


def _split(options: dict[str, Any], role: type) -> tuple[dict[str, Any], ...]:
    names = {field.name for field in fields(role)}
    return (
        {k: v for k, v in options.items() if k in names},
        {k: v for k, v in options.items() if k not in names and k not in _RUNTIME},
        {k: v for k, v in options.items() if k in _RUNTIME},
    )
