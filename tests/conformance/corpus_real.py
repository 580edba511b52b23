"""The corpus's real logs: games played by the product's own table code, deterministically.

Each scenario seats in-memory peers (``client.tabletop.table.Table``, the code a running peer runs)
on the seeded virtual network of ``tests.client.harness``: records really signed, really
verified by each receiver, journaled in the order each peer took them.  A peer's game file
is exactly its journal (``Router.logs``), so each file written here is what that peer's
``profiles/<p>/games/<table>.palabre-log`` would hold.  Same seeds, same bytes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from client.rules.records import MOVE, REMOVE
from engines import find_engine
from tests.client.harness import Router, Setup, last_seq
from tests.conformance.corpus_keys import KeyBook

AWAY = 5.0


@dataclass
class RealLog:
    """One real log: its file name, what it shows, what a verifier must say."""

    name: str
    what: str
    data: bytes
    exit: int
    first: tuple[int | None, str] | None = None
    shows: list[str] = field(default_factory=list)


def _setup(game: str, seats: Sequence[str], params: dict[str, Any], seed: int, **kw: Any) -> Setup:
    return Setup(
        list(seats), engine=find_engine(game), params=params, seed=seed, table_id=_tid(seed), **kw
    )


def _tid(seed: int) -> bytes:
    return bytes((seed * 17 + i) % 256 for i in range(16))


def _router(
    setup: Setup,
    *,
    bots: Any = "all",
    presence: bool = False,
    spectator: bool = False,
    bot_delay: float = 0.0,
    seed: int = 0,
    max_delay: float = 0.0,
) -> Router:
    tables = {
        n: setup.table(n, bots=bots, bot_delay=bot_delay, seed=seed) for n in setup.peer_names
    }
    if spectator:
        tables["watcher"] = setup.table(None, spectator=True)
    router = Router(tables, presence=presence, seed=seed, max_delay=max_delay)
    router.start()
    return router


def _until(router: Router, done: Callable[[], bool], limit: float) -> None:
    while not done():
        if not router.step(until=limit):
            return


def _file(router: Router, name: str) -> bytes:
    import struct

    from net.logfile import MAGIC

    return MAGIC + b"".join(
        struct.pack(">I", len(r.envelope)) + r.envelope for r in router.logs[name]
    )


def _act(router: Router, name: str, intent: Callable[[Any, float], Any]) -> None:
    router.take(name, intent(router.tables[name], router.now))
    router.run()


def _first_legal(router: Router, name: str) -> None:
    table = router.tables[name]
    engine = table.engine
    _act(router, name, lambda t, now: t.move(engine.legal_moves(t.head.engine_state)[0], now))


def whole_games(keys: KeyBook) -> list[RealLog]:
    """One whole game of each kind, every seat a bot, with a spectator's log beside."""
    logs = []
    plans = [
        ("discorder", ["Ana", "Bea"], {"seats": 2}),
        ("consensus", ["Ana", "Bea", "Cyd", "Dan"], {"seats": 4}),
        ("forbans", ["Ana", "Bea", "bot:Bea"], {"seats": 3, "max_plies": 60}),
        ("cognes", ["Ana", "bot:Ana", "Bea"], {"seats": 3, "coins": 8, "min_gain": 120}),
    ]
    for seed, (game, seats, params) in enumerate(plans, 1):
        setup = _setup(game, seats, params, seed)
        keys.add_setup(setup)
        router = _router(setup, spectator=True, seed=seed, max_delay=0.05)
        router.run()
        host = setup.peer_names[0]
        logs.append(
            RealLog(
                f"{game}-whole-game",
                f"a whole {game} game played by bots, {host}'s file",
                _file(router, host),
                0,
                shows=["game"],
            )
        )
        if game != "consensus":  # the longest game: one copy is enough
            logs.append(
                RealLog(
                    f"{game}-spectator",
                    f"the same {game} game as a spectator wrote it (it signs nothing)",
                    _file(router, "watcher"),
                    0,
                    shows=["spectator"],
                )
            )
    return logs


def chat_takeback_draw(keys: KeyBook) -> list[RealLog]:
    """Discorder through intents: chat, a pointing, a takeback, a lapsed ask, an agreed draw."""
    setup = _setup("discorder", ["Ana", "Bea"], {"seats": 2}, 11)
    keys.add_setup(setup)
    router = _router(setup, bots=(), seed=11)
    router.run()
    _first_legal(router, "Ana")
    _act(router, "Bea", lambda t, now: t.chat("bonjour, Ana", now))
    _first_legal(router, "Bea")
    _act(router, "Bea", lambda t, now: t.ask_takeback(now))
    _act(router, "Ana", lambda t, now: t.consent_takeback(now))  # ply 3: the takeback
    _first_legal(router, "Bea")
    _act(router, "Ana", lambda t, now: t.point([(0, 9)], [9], now))
    _first_legal(router, "Ana")
    _act(router, "Ana", lambda t, now: t.ask_takeback(now))  # Bea plays on: the ask lapses
    _first_legal(router, "Bea")
    _act(router, "Ana", lambda t, now: t.chat("d'accord : nulle ?", now))
    _act(router, "Ana", lambda t, now: t.offer_draw(now))
    _act(router, "Bea", lambda t, now: t.accept_draw(now))
    shows = ["chat", "point", "takeback", "lapsed ask", "agreed draw"]
    return [
        RealLog(
            f"discorder-takeback-draw-{name.lower()}",
            "Discorder by hand: chat, pointing, a takeback, "
            f"a lapsed ask, an agreed draw ({name}'s file)",
            _file(router, name),
            0,
            shows=shows,
        )
        for name in ("Ana", "Bea")
    ]


def resigned(keys: KeyBook) -> list[RealLog]:
    setup = _setup("discorder", ["Ana", "Bea"], {"seats": 2}, 12)
    keys.add_setup(setup)
    router = _router(setup, bots=(), seed=12)
    router.run()
    for name in ("Ana", "Bea", "Ana"):
        _first_legal(router, name)
    _act(router, "Bea", lambda t, now: t.resign(now))
    return [
        RealLog(
            "discorder-resigned",
            "Discorder: Bea resigns at ply 4",
            _file(router, "Ana"),
            0,
            shows=["resign"],
        )
    ]


def _cognes_three(keys: KeyBook, third: str, seed: int, **router: Any) -> tuple[Setup, Router]:
    """Three Cognes peers, Ana, Bea and ``third``, with presence and a short away timeout."""
    seats, params = ["Ana", "Bea", third], {"seats": 3, "coins": 8, "min_gain": 120}
    setup = _setup("cognes", seats, params, seed, away_ms=int(AWAY * 1000))
    keys.add_setup(setup)
    return setup, _router(setup, presence=True, seed=seed, **router)


def removal(keys: KeyBook) -> list[RealLog]:
    """Three Cognes peers; Cyd vanishes at ply 4 and is voted off; a bot finishes its seat."""
    setup, router = _cognes_three(keys, "Cyd", 13, bot_delay=0.5)
    _until(router, lambda: router.tables["Ana"].head.ply >= 4, 400.0)
    router.down.add("Cyd")
    a, b = router.tables["Ana"], router.tables["Bea"]
    _until(router, lambda: a.ended and b.ended, router.now + 400.0)
    assert any(s.record.kind == REMOVE for s in a.chain.states), "no REMOVE"
    keys.add_replacements(setup, a.chain.states)
    return [
        RealLog(
            "cognes-remove",
            "Cognes, 3 peers: Cyd vanishes at ply 4, is voted off "
            "(REMOVE), a bot run by Ana plays its seat (Ana's file)",
            _file(router, "Ana"),
            0,
            shows=["remove", "vote"],
        ),
        RealLog(
            "cognes-remove-removed-peer",
            "the same game as Cyd's own file: it stops "
            "where Cyd vanished: the game is not over there",
            _file(router, "Cyd"),
            3,
            (3, "not-over"),
            shows=["incomplete"],
        ),
    ]


def abandoned(keys: KeyBook) -> list[RealLog]:
    """Two Discorder peers; Bea vanishes: Ana's table ends abandoned."""
    setup = _setup("discorder", ["Ana", "Bea"], {"seats": 2}, 14, away_ms=int(AWAY * 1000))
    keys.add_setup(setup)
    router = _router(setup, presence=True, bot_delay=0.5, seed=14)
    _until(router, lambda: router.tables["Ana"].head.ply >= 6, 400.0)
    router.down.add("Bea")
    a = router.tables["Ana"]
    _until(router, lambda: a.ended, router.now + 400.0)
    assert a.abandoned is not None
    return [
        RealLog(
            "discorder-abandoned",
            "Discorder: Bea vanishes after ply 6, the table ends abandoned (Ana's file)",
            _file(router, "Ana"),
            0,
            shows=["abandoned"],
        )
    ]


def rejoin(keys: KeyBook) -> list[RealLog]:
    """Forbans, 3 peers: Bea crashes at ply 5, restarts from its own file and finishes."""
    setup = _setup(
        "forbans", ["Ana", "Bea", "Cyd"], {"seats": 3, "max_plies": 40}, 15, away_ms=60_000
    )
    keys.add_setup(setup)
    router = _router(setup, presence=True, bot_delay=0.5, seed=15)
    _until(router, lambda: router.tables["Bea"].head.ply >= 5, 400.0)
    router.down.add("Bea")
    _until(router, lambda: False, router.now + 10)
    log = router.logs["Bea"]
    table = setup.table("Bea", log=log, bot_delay=0.5, seed=15)
    router.tables["Bea"] = table
    router.down.discard("Bea")
    router.take("Bea", table.restore(log, router.now))
    router.heal()
    tables = list(router.tables.values())
    _until(router, lambda: all(t.ended for t in tables), router.now + 600)
    assert all(t.ended and not t.halted for t in tables)
    return [
        RealLog(
            "forbans-rejoin",
            "Les Forbans, 3 peers: Bea crashes at ply 5, restarts "
            "from its own file and the game finishes (Bea's file)",
            _file(router, "Bea"),
            0,
            shows=["rejoin"],
        )
    ]


def halted(keys: KeyBook) -> list[RealLog]:
    """Les Forbans, 3 peers: the host equivocates on ply 1; everyone halts with evidence."""
    setup = _setup("forbans", ["Ana", "Bea", "Cyd"], {"seats": 3}, 16)
    keys.add_setup(setup)
    router = _router(setup, bots=(), seed=16)
    router.run()
    from tests.client.envelopes import signed

    head = router.tables["Ana"].head
    engine = router.tables["Ana"].engine
    legal = engine.legal_moves(head.engine_state)
    ana = setup.identities["Ana"]
    body = {"ply": 1, "prev": head.chain_digest, "seat": 1}
    seq = last_seq(router.logs["Ana"], ana.key)
    one = signed(
        ana, setup.table_id, seq + 1, MOVE, {**body, "move": engine.move_to_wire(legal[0])}
    )
    two = signed(
        ana, setup.table_id, seq + 2, MOVE, {**body, "move": engine.move_to_wire(legal[1])}
    )
    router.deliver(one.envelope, ["Bea"])
    router.deliver(two.envelope, ["Cyd"])
    router.run()
    assert router.tables["Bea"].halted
    return [
        RealLog(
            "forbans-halt",
            "Les Forbans, 3 peers: Ana signs two different first "
            "moves, one to Bea, one to Cyd; the table halts with the evidence "
            "(Bea's file)",
            _file(router, "Bea"),
            1,
            (1, "halt"),
            shows=["halt", "evidence"],
        )
    ]


def late_record(keys: KeyBook) -> list[RealLog]:
    """Cognes, 3 peers by hand: Xan is cut off just as it plays ply 3; Ana and Bea remove it
    (the REMOVE takes ply 3); the network heals and Xan's late move and ACK reach them. Their
    tables ignore them (never journaled): the honest files stay valid, never a fork."""
    setup, router = _cognes_three(keys, "Xan", 17, bots=())
    tables = router.tables
    _until(router, lambda: all(t.final_ply == 0 for t in tables.values()), 5.0)
    for name in ("Ana", "Bea"):
        table = tables[name]
        router.take(
            name, table.move(table.engine.legal_moves(table.head.engine_state)[0], router.now)
        )
        _until(router, lambda: len({t.head.ply for t in tables.values()}) == 1, router.now + 1)
    router.cut |= {frozenset(("Ana", "Xan")), frozenset(("Bea", "Xan"))}
    x = tables["Xan"]
    router.take("Xan", x.move(x.engine.legal_moves(x.head.engine_state)[0], router.now))
    a, b = tables["Ana"], tables["Bea"]
    _until(router, lambda: a.head.ply >= 3 and b.head.ply >= 3, router.now + 60)
    assert a.chain.at(3).record.kind == REMOVE
    keys.add_replacements(setup, a.chain.states)
    router.cut.clear()
    router.heal()
    _until(router, lambda: x.head.chain_digest == a.head.chain_digest, router.now + 5)
    router.take("Ana", a.chat("Xan est parti", router.now))
    _until(router, lambda: False, router.now + 1)
    honest = [
        RealLog(
            f"cognes-late-record-{name.lower()}",
            "Cognes, 3 peers by hand: Xan is cut "
            "off as it plays ply 3 and is removed (the REMOVE takes ply 3); after the "
            f"heal its late move reaches {name}, whose table ignores it (it journals only "
            "what it accepts): valid, the game unfinished",
            _file(router, name),
            3,
            (4, "not-over"),
            shows=["remove", "late record"],
        )
        for name in ("Ana", "Bea")
    ]
    return [
        *honest,
        RealLog(
            "cognes-late-record-xan",
            "the same game as Xan's own file: its "
            "late move, written ahead, then the REMOVE that drops it",
            _file(router, "Xan"),
            3,
            (4, "not-over"),
            shows=["dropped"],
        ),
    ]


SCENARIOS = (
    whole_games,
    chat_takeback_draw,
    resigned,
    removal,
    late_record,
    abandoned,
    rejoin,
    halted,
)


def real_logs(keys: KeyBook) -> list[RealLog]:
    return [log for scenario in SCENARIOS for log in scenario(keys)]
