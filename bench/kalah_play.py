#!/usr/bin/env python3
"""Perfect Kalah at tournament speed: does the engine, at its default
settings and `go movetime T`, ever play a move whose exact value is below
the position's? (issue 36; BENCHMARKS.md, section 18)

Positions: N random Kalah(6,4) games (uniformly random legal moves, seeded),
one position from each at a uniformly random ply before the end. The engine
(one UMI process, default options, `newgame kalah` once) moves in each at
`go movetime T`; `engine solve` then gives the exact value of every move,
and a move below the position's value is a *losing move* (by how much is
printed). Solves are capped (`--solve-timeout`): a position not solved in
time is counted as unverified, never as right.

Needs the Python kit (`mancala`, for the random games) and a release
engine. The engine finds its Kalah database where `engine tb build --game
kalah --max-beans 20` puts it without --out (or $MANCALA_TABLEBASE); pass
the same directory as --tb for the checking solves.

    target/venv/bin/python bench/kalah_play.py --positions 100 --tb ~/.local/share/mancala/tablebase
"""

import argparse
import json
import os
import random
import subprocess
import sys
import time

import mancala


def random_positions(n, seed):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        pos = mancala.Position.start("kalah")
        line = [pos]
        while pos.result() is None:
            pos = pos.play(rng.choice(pos.legal_moves()))
            line.append(pos)
        # A position before the end (the last one is finished).
        out.append(str(line[rng.randrange(len(line) - 1)]))
    return out


class Engine:
    def __init__(self, path, env):
        self.p = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
        )
        self.send("umi")
        self.until("umiok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError(f"engine ended: {lines}")
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=30)


def solve(engine, position, tb, hash_mb, threads, timeout):
    cmd = [engine, "solve", "--hash", str(hash_mb), "--threads", str(threads), position]
    if tb:
        cmd[2:2] = ["--tb", tb]
    started = time.time()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, time.time() - started
    if r.returncode != 0:
        raise RuntimeError(f"{cmd}: {r.stderr}")
    return json.loads(r.stdout.strip().splitlines()[-1]), time.time() - started


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--movetime", type=int, default=1000)
    ap.add_argument("--engine", default="target/release/engine")
    ap.add_argument("--tb", default=None, help="Kalah database for the checking solves")
    ap.add_argument("--hash", type=int, default=2048, help="MB of the checking solves' table")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--solve-timeout", type=float, default=600.0, help="seconds per checking solve")
    args = ap.parse_args()

    positions = random_positions(args.positions, args.seed)
    env = dict(os.environ)
    if args.tb and "MANCALA_TABLEBASE" not in env:
        env["MANCALA_TABLEBASE"] = args.tb
    eng = Engine(args.engine, env)
    eng.send("newgame kalah")
    eng.send("isready")
    for line in eng.until("readyok"):
        if line.startswith("info string"):
            print(line, flush=True)
    played = []
    for pos in positions:
        eng.send(f"position pos {pos}")
        eng.send(f"go movetime {args.movetime}")
        lines = eng.until("bestmove")
        solved = any("string exact: solved" in l for l in lines)
        played.append((pos, lines[-1].split()[1], solved))
    eng.quit()

    losing = unverified = 0
    solved_count = sum(1 for _, _, s in played if s)
    for i, (pos, mv, solved) in enumerate(played):
        seeds = sum(int(h) for h in pos.split()[1].split(","))
        s, secs = solve(args.engine, pos, args.tb, args.hash, args.threads, args.solve_timeout)
        if s is None:
            unverified += 1
            verdict = f"unverified (solve over {args.solve_timeout:.0f} s)"
        else:
            got = s["moves"][mv]
            if got < s["value"]:
                losing += 1
                verdict = f"LOSES {s['value'] - got}: value {s['value']:+}, move {mv} {got:+}"
            else:
                verdict = f"keeps {s['value']:+}"
        how = "solved" if solved else "search"
        print(f"{i + 1:3} {seeds:2} seeds  move {mv:>2} ({how})  {verdict}  [{secs:.1f} s] {pos}", flush=True)
    print(
        f"positions {len(played)}, solved by the engine {solved_count}, "
        f"losing moves {losing}, unverified {unverified}",
        flush=True,
    )
    return 0 if losing == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
