"""Render the table screen of a two-peer table whose other player's palabre was killed, to a PNG.

    python scripts/screenshot_abandoned.py [--out docs/img/abandoned-after.png] [--wait S]

Hugo hosts Consensus with two bots of his own in a second process (``palabre host --headless
--bot``, away timeout 5 s, on loopback); a real window ("Ana") joins him by address and says
she is ready.  After the first ply Hugo's process is killed.  The window is grabbed once the
table screen shows the ending, or after ``--wait`` seconds (30) if it never does: the
README's "before" picture is this script run against a tree from before every ending reached
the table screen (it still said Hugo was away, and whose move it was).
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PALABRE_HOME", tempfile.mkdtemp(prefix="palabre-shot-"))

import qtrio  # noqa: E402
import trio  # noqa: E402
from screenshot_lobby import free_port, until  # noqa: E402  (a sibling script)

from ui.app import MainWindow  # noqa: E402
from ui.i18n import install_language  # noqa: E402


def hugo_hosts(port: int) -> subprocess.Popen[str]:
    """Hugo's palabre, in its own process, hosting with two bots of his and his seat by bot."""
    command = [
        *(sys.executable, "-m", "client", "--profile", "hugo", "host", "--game", "consensus"),
        *("--bots", "2", "--port", str(port), "--away-timeout", "5", "--no-announce"),
        *("--bot", "--headless", "--bot-delay", "200", "--name", "Hugo"),
    ]
    env = {**os.environ, "PALABRE_MDNS": "off", "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        command, env=env, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, text=True
    )


def listening(port: int) -> bool:
    """Whether Hugo's process takes connections on ``port`` yet (loopback: answered at once)."""
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


async def shoot(out: Path, wait: float) -> None:
    install_language("en")
    port = free_port()
    hugo = hugo_hosts(port)
    try:
        await until(lambda: listening(port), "Hugo's port")
        async with trio.open_nursery() as nursery:
            window = MainWindow(nursery)
            window.resize(1100, 720)
            window.show()
            start = window.start
            start.name.setText("Ana")
            start.name.editingFinished.emit()
            start.join_target.setText(f"127.0.0.1:{port}")
            start.join_button.click()
            lobby = window.lobby
            await until(lobby.ready.isEnabled, "the lobby")
            lobby.ready.click()
            table = window.table
            await until(lambda: window.stack.currentWidget() is table, "the table")
            session = window.session
            assert session is not None
            await until(lambda: session.snapshot.ply >= 1, "the first ply")
            hugo.kill()
            await trio.to_thread.run_sync(hugo.wait)
            with trio.move_on_after(wait):
                while not table.banner.isVisible():
                    await trio.sleep(0.05)
            await trio.sleep(0.5)
            out.parent.mkdir(parents=True, exist_ok=True)
            if not window.grab().save(str(out)):
                raise SystemExit(f"could not write {out}")
            print(f"wrote {out} (status: {table.status.text()})")
            window.close()
            nursery.cancel_scope.cancel()
    finally:
        if hugo.poll() is None:
            hugo.kill()
            hugo.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img" / "abandoned-after.png")
    parser.add_argument("--wait", type=float, default=30.0, help="seconds to wait for an ending")
    args = parser.parse_args()
    qtrio.run(shoot, args.out, args.wait)
    return 0


if __name__ == "__main__":
    sys.exit(main())
