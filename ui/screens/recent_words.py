"""How the start screen's list of recent tables says one table (issue 21).

Two tables of the same game and players used to read alike ("Consensus — Ana" twice), and a
finished one read like one to rejoin.  Each line now says what tells it apart: the game, when
this profile sat at it, who sat (the seated names, from its game file), and how it stands:
in progress (with every address its players listen at, which *Rejoin* tries) or over, with
its result in the table's own words.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from client.commands.launcher import invite_address
from client.logs.table_facts import TableFacts
from client.profile.settings import RecentTable
from ui.game_names import game_name
from ui.outcomes import reason_text

__all__ = ["recent_words"]


def result_words(facts: TableFacts) -> str:
    """``Over: Ana won. Victory by holding power on e5.`` (or draw, no winner, stopped)."""
    outcome = facts.outcome
    if outcome is None:
        return QCoreApplication.translate("RecentTables", "Over: stopped on a disagreement.")
    reason = reason_text(facts.game, outcome, name_of=facts.name_of)
    if outcome.draw:
        return QCoreApplication.translate("RecentTables", "Over: a draw. {reason}").format(
            reason=reason
        )
    if not outcome.winners:
        return QCoreApplication.translate("RecentTables", "Over: no winner. {reason}").format(
            reason=reason
        )
    names = ", ".join(facts.name_of(seat) or "?" for seat in outcome.winners)
    return QCoreApplication.translate("RecentTables", "Over: {names} won. {reason}").format(
        names=names, reason=reason
    )


def recent_words(table: RecentTable, facts: TableFacts | None) -> str:
    """The list's text for ``table``, its game file's ``facts`` when it has one."""
    engine = facts.game if facts is not None else table.game
    game = game_name(engine) if engine else ""
    who = ", ".join(facts.players) if facts is not None else table.label
    first = " — ".join(part for part in (game, table.when, who) if part)
    if facts is not None and facts.over:
        return f"{first}\n{result_words(facts)}"
    if facts is None and not table.peers:  # never started here: where it was joined
        where = table.address
        address = invite_address(where)
        if address is not None:  # the whole invite is long: its first address
            where = QCoreApplication.translate("RecentTables", "{address} (invite)").format(
                address=address
            )
        return " — ".join(part for part in (where, first) if part)
    state = (
        QCoreApplication.translate("RecentTables", "In progress")
        if facts is not None
        else QCoreApplication.translate("RecentTables", "Not started")
    )
    places = QCoreApplication.translate("RecentTables", "players at {addresses}").format(
        addresses=", ".join(table.addresses)
    )
    return f"{first}\n{state} · {places}"
