"""The table's alerts: what changed that a player looking away must not miss.

Between two snapshots of one table: this player's pieces passing to another seat (its
Président killed in Consensus) or out of play, a clock that ran out (said as such, not as the
loss of control its resignation brings), a new ruler on e5 (Consensus's centre) and the end
of the game.  Each gives a line of words for the banner; the screen also
asks the system to draw attention to the window (``QApplication.alert``) and, unless the
player muted it, makes a sound.  PySide6-Essentials has no QtMultimedia, so the sound is the
platform's own beep (``QApplication.beep``), the one every desktop has.

Invariants: the first snapshot of a table gives no alert (nothing changed yet); a game whose
engine has no controllers or no centre gives only the end-of-game alert; looking back at
earlier plies changes nothing here (it compares the live snapshots only).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication

from client.sessions.session_api import SessionSnapshot

__all__ = ["alerts_between"]


def _controller(snapshot: SessionSnapshot, seat: int) -> int | None:
    controller = getattr(snapshot.engine, "controller", None)
    return None if controller is None else int(controller(snapshot.state, seat))


def _ruler(snapshot: SessionSnapshot) -> int | None:
    power_status = getattr(snapshot.engine, "power_status", None)
    if power_status is None:
        return None
    ruler: Any = power_status(snapshot.state).ruler
    return None if ruler is None else int(ruler)


def alerts_between(before: SessionSnapshot | None, after: SessionSnapshot) -> list[str]:
    """The alerts from ``before`` to ``after``, in words (none for a table's first look)."""
    if before is None:
        return []
    said: list[str] = []
    seat = after.my_seat
    # A clock that ran out resigns for its seat: the player is told that, not what the
    # resignation did to their pieces (Consensus takes them out of play).
    timed_out = [
        late for late, _ply in after.lost_on_time if (late, _ply) not in before.lost_on_time
    ]
    for late in timed_out:
        if late == seat:
            said.append(QCoreApplication.translate("TableAlerts", "You lost on time."))
        else:
            said.append(
                QCoreApplication.translate("TableAlerts", "{name} lost on time.").format(
                    name=after.seat_name(late)
                )
            )
    if seat is not None and seat not in timed_out and _controller(before, seat) == seat:
        now = _controller(after, seat)
        if now == 0:
            said.append(
                QCoreApplication.translate(
                    "TableAlerts", "You lost control: your pieces are out of play."
                )
            )
        elif now is not None and now != seat:
            said.append(
                QCoreApplication.translate(
                    "TableAlerts", "You lost control: {name} plays your pieces now."
                ).format(name=after.seat_name(now))
            )
    ruler = _ruler(after)
    if ruler is not None and ruler != _ruler(before):
        if ruler == seat:
            said.append(QCoreApplication.translate("TableAlerts", "You rule e5 now."))
        else:
            said.append(
                QCoreApplication.translate("TableAlerts", "{name} rules e5 now.").format(
                    name=after.seat_name(ruler)
                )
            )
    if before.outcome is None and after.outcome is not None:
        said.append(QCoreApplication.translate("TableAlerts", "The game is over."))
    return said
