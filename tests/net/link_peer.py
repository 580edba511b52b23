"""A minimal peer for the two-process test (not a palabre command: ``host``/``join`` come
with the table).

    python -m tests.net.link_peer host --home DIR        prints an invite, waits for one joiner
    python -m tests.net.link_peer join INVITE --home DIR  dials the invite

Each side uses its profile key under DIR, signs one CHAT record with write-ahead to its own
log (DIR/link.log), sends it, takes the other's, and they part.  Every line it prints starts
with its role.  Exit codes as DESIGN.md section 4: 0 done, 4 refused, 1 any other error.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import trio

from net.driver import Link, connect_invite, open_listeners, serve
from net.errors import InviteError, LinkError
from net.events import Event, LinkClosed, RecordReceived, SendRecord
from net.handshake import APP_VERSION
from net.identity import Identity, load_profile_identity
from net.invite import Invite, parse_invite
from net.linkspec import AllowedKeys, LinkConfig, LinkSpec
from net.logfile import LogWriter
from net.records import Kind
from net.signer import RecordSigner

CONFIG = LinkConfig(handshake_timeout=10.0, linger=1.0)


def say(role: str, text: str) -> None:
    print(f"{role}: {text}", flush=True)


async def exchange(role: str, link: Link, signer: RecordSigner, log: LogWriter) -> bool:
    """Send our chat, wait for theirs, then the host says goodbye; True if both went."""
    record = signer.sign(Kind.CHAT, {"text": f"bonjour from the {role}"})
    await link.send(SendRecord(record.data))
    heard = False

    async def deliver(event: Event) -> None:
        nonlocal heard
        if isinstance(event, RecordReceived):
            log.append(event.record.data)
            say(role, f"chat from {link.peer.fingerprint}: {event.record.body['text']}")
            heard = True
            if role == "host":
                await link.close("goodbye")
        elif isinstance(event, LinkClosed):
            say(role, f"link closed: {event.reason}")

    closed = await link.run(deliver)
    return heard and closed.reason == "goodbye"


async def host(home: Path) -> int:
    identity = load_profile_identity("default", home)
    table = os.urandom(16)
    policy = AllowedKeys({identity.public_key})
    listeners = await open_listeners(0, "127.0.0.1")
    port = listeners[0].socket.getsockname()[1]
    print(Invite(("127.0.0.1",), port, table, identity.fingerprint), flush=True)
    spec = LinkSpec(identity, APP_VERSION, policy, table_id=table, config=CONFIG)
    result = 1
    with LogWriter.create(home / "link.log") as log, trio.fail_after(30):
        async with trio.open_nursery() as nursery:

            async def on_link(link: Link) -> None:
                nonlocal result
                say("host", f"linked with {link.peer.fingerprint}")
                policy.keys.add(link.peer.key)
                ok = await exchange("host", link, RecordSigner(identity, table, log), log)
                result = 0 if ok else 1
                nursery.cancel_scope.cancel()

            async def on_failure(remote: str, closed: LinkClosed) -> None:
                nonlocal result
                say("host", f"no link with {remote}: {closed.reason}")
                result = 4
                nursery.cancel_scope.cancel()

            nursery.start_soon(lambda: serve(listeners, spec, on_link, on_failure=on_failure))
    return result


async def join(home: Path, invite_text: str) -> int:
    identity: Identity = load_profile_identity("default", home)
    try:
        invite = parse_invite(invite_text)
    except InviteError as error:
        say("joiner", str(error))
        return 1
    policy = AllowedKeys({identity.public_key})
    spec = LinkSpec(identity, APP_VERSION, policy, listen_port=0, config=CONFIG)
    with trio.fail_after(30):
        try:
            link = await connect_invite(invite, spec)
        except LinkError as error:
            say("joiner", str(error))
            return 4 if error.refused else 1
        say("joiner", f"linked with host {link.peer.fingerprint}")
        policy.keys.add(link.peer.key)
        with LogWriter.create(home / "link.log") as log:
            signer = RecordSigner(identity, invite.table_id, log)
            return 0 if await exchange("joiner", link, signer, log) else 1


def main() -> int:
    parser = argparse.ArgumentParser(prog="link_peer")
    parser.add_argument("role", choices=["host", "join"])
    parser.add_argument("invite", nargs="?")
    parser.add_argument("--home", type=Path, required=True)
    args = parser.parse_args()
    if args.role == "host":
        return trio.run(host, args.home)
    return trio.run(join, args.home, args.invite or "")


if __name__ == "__main__":
    sys.exit(main())
