"""What the network layer says, in a window's words.

The peer's messages (``net.driver``, ``client.node.lobby``, ``client.node.joining``) are written for
the terminal too, and some end by naming the command-line option to use ("choose another
port with --port", "join with --watch to follow it").  A window user has no such flag: the
window says what to do on its own screens instead.  A failure to listen comes with a
structured ``problem`` (``LinkError.problem``) and gets a whole sentence of the window's; any
other message keeps the peer's words, with its flag clause taken off.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication

__all__ = ["host_failure", "window_words"]

FLAG_CLAUSE = re.compile(r"[;,:]?\s*(?:choose|join|use|give|without)\b[^;]*?\s--[a-z][a-z-]*[^;]*")
"""A clause that tells the user to use a command-line option (up to the next ``;``)."""
FLAG_ASIDE = re.compile(r"\s*\([^()]*?--[a-z][a-z-]*[^()]*\)")
"""A parenthesis that guesses which option was misused ("a mistyped --secret?")."""


def window_words(reason: str) -> str:
    """``reason`` without the clauses and asides that name a command-line option."""
    return FLAG_CLAUSE.sub("", FLAG_ASIDE.sub("", reason)).strip()


def host_failure(kind: str, reason: str, port: int) -> str:
    """Why hosting on ``port`` failed, for the start screen (``kind`` is the lobby's
    ``failure_kind``: ``listen:`` and the ``LinkError.problem``)."""
    problem = kind.removeprefix("listen:")
    if problem == "port-in-use":
        text = QCoreApplication.translate(
            "StartScreen",
            "Port {port} is already in use (by another palabre or another program): "
            "choose another port in the Port box and host again.",
        )
    elif problem == "port-needs-rights":
        text = QCoreApplication.translate(
            "StartScreen",
            "Port {port} needs administrator rights: choose a port above 1023 in the Port box.",
        )
    else:
        text = QCoreApplication.translate("StartScreen", "The table could not be opened: {reason}")
    return text.format(port=port, reason=window_words(reason))
