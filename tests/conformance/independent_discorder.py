"""Discorder's state bytes and chain digests from the docs alone, checked against a real log.

Written from docs/STATE_BYTES.md, docs/LOG_FORMAT.md and docs/rules/discorder.md only: it
imports nothing from palabre (only the standard library and msgpack), as another
implementation would.  Usage: ``python independent_discorder.py LOG...``; for each log it
replays every ply, computes each chain digest and compares it with every ACK and END the
peers signed.  Exit 0 when every one matches, 1 otherwise.
"""

import hashlib
import struct
import sys

import msgpack

START, MOVE, RESIGN, DRAW, REMOVE, TAKEBACK, ACK, END = range(1, 9)
PLIES = (MOVE, RESIGN, DRAW, REMOVE, TAKEBACK)


def h(*parts):
    return hashlib.blake2b(b"".join(parts), digest_size=32).digest()


def enc(v):  # STATE_BYTES.md section 1
    if v is None:
        return b"N"
    if v is True or v is False:
        return b"T" if v else b"F"
    if isinstance(v, int):
        n = (abs(v).bit_length() + 8) // 8
        return b"I" + bytes([n]) + v.to_bytes(n, "big", signed=True)
    return b"L" + struct.pack(">I", len(v)) + b"".join(enc(x) for x in v)


def initial():  # STATE_BYTES.md section 6: board, pegs, tiles_left, pegs_left, to_move,
    return [[0] * 56, [False] * 48, [28, 28], 10, 1, [False, False], 0, 0, 0]


def run(board, pegs, cell, step):  # tiles of cell's colour from cell on, one way
    count, here = 0, cell
    while True:
        nxt = here + step
        if (step in (1, -1) and nxt // 8 != here // 8) or not 0 <= nxt < 56:
            return count
        site = min(here, nxt)  # the peg site between a cell and the one above it
        if (step in (8, -8) and pegs[site]) or board[nxt] != board[cell]:
            return count
        count, here = count + 1, nxt


def can_peg(s, seat):
    board, pegs, _, left, _, banned, *_ = s
    return (
        left > 0 and not banned[seat - 1] and any(peg_ok(board, pegs, site) for site in range(48))
    )


def peg_ok(board, pegs, site):
    below, above = board[site], board[site + 8]
    if pegs[site] or (below and above):
        return False
    col = site % 8
    beside = (col > 0 and pegs[site - 1]) or (col < 7 and pegs[site + 1])
    return bool(below or above or beside)


def apply(s, seat, x):
    s = [list(f) if isinstance(f, list) else f for f in s]
    board, pegs = s[0], s[1]
    if x < 56:
        board[x] = seat
        s[2][seat - 1] -= 1
        row = 1 + run(board, pegs, x, 1) + run(board, pegs, x, -1)
        col = 1 + run(board, pegs, x, 8) + run(board, pegs, x, -8)
        s[5][seat - 1] = row == 3 or col == 3
    else:
        pegs[x - 56] = True
        s[3] -= 1
        s[5][seat - 1] = False
    s[6] = 0
    if all(board):
        s[4], s[7] = 0, 1
        return s
    other = 3 - seat
    s[4] = other
    if s[2][other - 1] == 0 and not can_peg(s, other):  # the turn passes
        s[5][other - 1] = False
        s[4], s[6] = seat, other
    return s


def digest(s):
    return h(b"discorder/1\x00", enc(s))


def records(path):
    with open(path, "rb") as file:
        data = file.read()
    assert data[:14] == b"palabre-log/1\n"
    at = 14
    while at + 4 <= len(data):
        (n,) = struct.unpack(">I", data[at : at + 4])
        envelope = data[at + 4 : at + 4 + n]
        at += 4 + n
        _key, payload, _sig = msgpack.unpackb(envelope)
        kind, _table, _seq, body = msgpack.unpackb(payload)
        yield kind, body, h(envelope)


def check(path):
    chain, states, claims = {}, {}, []
    for kind, body, record_hash in records(path):
        if kind == START:
            states[0] = initial()
            chain[0] = h(bytes(32), record_hash, digest(states[0]))
        elif kind in PLIES:
            n = body["ply"]
            s = states[n - 1]
            if kind == MOVE:
                s = apply(s, body["seat"], body["move"][0])
            elif kind == RESIGN:
                s = [*s[:4], 0, s[5], 0, 2, body["seat"]]
            elif kind == DRAW:
                s = [*s[:4], 0, s[5], 0, 3, 0]
            elif kind == TAKEBACK:
                s = states[n - 2]
            states[n] = s
            chain[n] = h(chain[n - 1], record_hash, digest(s))
        elif kind in (ACK, END):
            claims.append((body["ply"], body["digest"]))
    wrong = [ply for ply, d in claims if chain.get(ply) != d]
    print(f"{path}: {len(chain) - 1} plies, {len(claims)} ACK/END, {len(wrong)} differ {wrong[:5]}")
    return not wrong and claims


if __name__ == "__main__":
    sys.exit(0 if all([check(p) for p in sys.argv[1:]]) else 1)
