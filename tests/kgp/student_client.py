#!/usr/bin/env python3
"""A KGP client written the way the KGP repository's Python client is: ONE
text-mode socket file (`sock.makefile('rw')`) shared by the reader loop
(which also answers `ping` itself) and a search thread per `state` (which
writes its moves on that same file). In CPython a write on such a file
throws away what the reader had already read off the socket but not yet
handed out (TextIOWrapper clears its decoded buffer on write), so this
client loses lines now and then: the arbiter must cope (protocol-spec.md
section 17: the state is sent again, pings are retried, a state left
unanswered gets KGP's random move).

Its search: iterative deepening minimax on KGP's board, a move sent after
each depth that changes it; one state in four it yields after depth 4,
the others it leaves to the arbiter's `stop`. Written for the arbiter's
tests (tests/kgp/arena_run.py); not taken from the KGP repository.

Usage: student_client.py HOST:PORT TOKEN [--name NAME] [--log FILE] [--chatty]
It runs until the server says `goodbye` or closes; then prints its counts
as one JSON line on stdout.
"""

import argparse
import json
import random
import re
import socket
import sys
import threading
import time

LINE = re.compile(r"^\s*(?:(\d+)?(?:@(\d+))?\s+)?(\w+)(?:\s+(.*?))?\s*$")


def sow(mine, theirs, ms, ts, pit):
    """Plays `pit` for the side whose row is `mine`: the new rows and
    stores, and whether that side moves again."""
    mine, theirs = list(mine), list(theirs)
    n = len(mine)
    seeds, mine[pit] = mine[pit], 0
    side, pos = 0, pit + 1  # side 0: the mover's row
    while seeds:
        if side == 0 and pos == n:
            ms += 1
            seeds -= 1
            side, pos = 1, 0
            if not seeds:
                return mine, theirs, ms, ts, True
            continue
        if side == 1 and pos == n:
            side, pos = 0, 0
            continue
        row = mine if side == 0 else theirs
        row[pos] += 1
        seeds -= 1
        if not seeds and side == 0 and row[pos] == 1 and theirs[n - 1 - pos] > 0:
            ms += 1 + theirs[n - 1 - pos]
            mine[pos], theirs[n - 1 - pos] = 0, 0
        pos += 1
    return mine, theirs, ms, ts, False


def negamax(mine, theirs, ms, ts, depth):
    moves = [i for i, s in enumerate(mine) if s]
    if not moves or not any(theirs):
        return ms + sum(mine) - ts - sum(theirs), None
    if depth == 0:
        return ms - ts, None
    best, best_move = None, None
    for m in moves:
        a, b, c, d, again = sow(mine, theirs, ms, ts, m)
        if again:
            v, _ = negamax(a, b, c, d, depth - 1)
        else:
            v, _ = negamax(b, a, d, c, depth - 1)
            v = -v
        if best is None or v > best:
            best, best_move = v, m
    return best, best_move


def searches(board):
    """The moves of an iterative deepening search, one per depth."""
    depth = 1
    while True:
        _, move = negamax(board["mine"], board["theirs"], board["ms"], board["ts"], min(depth, 4))
        yield move
        depth += 1


def parse_board(text):
    v = [int(x) for x in text.strip("<>").split(",")]
    n = v[0]
    return {"ms": v[1], "ts": v[2], "mine": v[3:3 + n], "theirs": v[3 + n:3 + 2 * n]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("address")
    ap.add_argument("token")
    ap.add_argument("--name", default="student minimax")
    ap.add_argument("--log")
    # why: the repository's client writes a move only when it changes, so
    # its late writes (and lost lines) are rare; this one writes every
    # depth's move, so that a test sees them often.
    ap.add_argument("--chatty", action="store_true", help="send every depth's move")
    args = ap.parse_args()
    host, port = args.address.rsplit(":", 1)
    log = open(args.log, "a") if args.log else None
    counts = {"states": 0, "duplicate_states": 0, "stops": 0, "stops_unknown": 0,
              "pings": 0, "moves_sent": 0, "yields": 0}
    sock = socket.create_connection((host, int(port)))
    f = sock.makefile("rw")  # one buffered text file, read and written
    lock = threading.Lock()
    ids = [1]

    def send(text, ref=None):
        with lock:
            line = f"{ids[0]}{'@' + str(ref) if ref else ''} {text}"
            ids[0] += 2
            if log:
                log.write(f"> {line}\n")
            f.write(line + "\r\n")
            f.flush()

    running = {}
    seen = set()

    def query(board, stopped, sid):
        last = None
        for n, move in enumerate(searches(board)):
            if stopped.is_set() or move is None:
                return
            if move != last or args.chatty:
                # why a pause between the check and the write: as a thread
                # of the repository's client preempted there (CPython
                # switches threads every 5 ms), its move may go out after
                # the stop, while the next state waits in the reader's buffer.
                time.sleep(random.random() * 0.004)
                send(f"move {move + 1}", sid)
                counts["moves_sent"] += 1
                last = move
            if n >= 3 and sid % 8 == 2:
                send("yield", sid)
                counts["yields"] += 1
                return
            # why a sleep: the search takes time (without burning the
            # test machine's CPU), so the arbiter's stop ends most of them.
            time.sleep(0.01)

    for raw in f:
        if log:
            log.write(f"< {raw.rstrip()}\n")
        m = LINE.match(raw)
        if not m:
            continue
        cid = int(m.group(1)) if m.group(1) else None
        ref = int(m.group(2)) if m.group(2) else None
        cmd, rest = m.group(3), m.group(4) or ""
        if cmd == "kgp":
            send(f'set info:name "{args.name}"')
            send(f'set auth:token "{args.token}"')
            send("mode freeplay")
        elif cmd == "state":
            if cid in running or cid in seen:
                counts["duplicate_states"] += 1  # sent again: ignored
                continue
            counts["states"] += 1
            seen.add(cid)
            running[cid] = threading.Event()
            threading.Thread(target=query, args=(parse_board(rest.split()[0]), running[cid], cid),
                             daemon=True).start()
        elif cmd == "stop":
            counts["stops"] += 1
            if ref in running:
                running.pop(ref).set()
            elif ref not in seen:
                counts["stops_unknown"] += 1  # a state this client never saw
        elif cmd == "ping":
            counts["pings"] += 1
            send("pong", cid)  # the reader writes: what it had read is lost
        elif cmd == "goodbye":
            break
    for e in running.values():
        e.set()
    print(json.dumps(counts), flush=True)


if __name__ == "__main__":
    sys.exit(main())
