#!/usr/bin/env python3
"""KGP clients written like the KGP repository's (student_client.py: one
`sock.makefile('rw')` shared by a reader and writers, so it loses lines)
play rated Kalah games in an arena against a house bot. Passes when the
arena finished GAMES games with no time forfeit and no fault of the KGP
bot, its admission passed (none failed), the export verifies, and the bot
page's count of KGP random moves equals the records'. Prints the figures
(random moves, states sent again, states the clients never saw).

Usage: arena_run.py [--games N] [--clients K] (binaries from
ARBITER_BIN_DIR, default target/debug)
"""

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.path.abspath(os.environ.get("ARBITER_BIN_DIR", os.path.join(ROOT, "target", "debug")))
ARBITER = os.path.join(BIN, "arbiter")
ENGINE = os.path.join(BIN, "engine")
CLIENT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "student_client.py")
POOL = "kalah-kgp"


def run(*argv, **kw):
    return subprocess.run(argv, capture_output=True, text=True, check=True, timeout=120, **kw)


def get(base, path):
    with urllib.request.urlopen(base + path, timeout=20) as r:
        return json.loads(r.read())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--each", default="st=0.1 timemargin=300")
    ap.add_argument("--limit", type=float, default=300, help="seconds for all the games")
    args = ap.parse_args()
    d = tempfile.mkdtemp(prefix="kgp-arena.")
    db, pools = os.path.join(d, "arena.sqlite"), os.path.join(d, "pools.json")
    token = run(ARBITER, "arena", "bot", "add", "student", "--db", db).stdout.split()[-1]
    run(ARBITER, "arena", "bot", "add", "ref", "--db", db)
    with open(pools, "w") as f:
        json.dump([{"name": POOL, "game": "kalah", "each": args.each}], f)
    server_log = open(os.path.join(d, "arena.log"), "w")
    arena = subprocess.Popen(
        [ARBITER, "arena", "run", "--db", db, "--pools", pools, "--listen", "127.0.0.1:0",
         "--kgp-listen", "127.0.0.1:0", "--max-games", str(args.games),
         "--house", f"name=ref cmd={ENGINE} option.Level=1 slots={args.clients}"],
        cwd=d, stdout=subprocess.PIPE, stderr=server_log, text=True)
    clients = []
    failures = []
    try:
        base = arena.stdout.readline().split()[-1].rsplit("/arena", 1)[0]
        kgp = arena.stdout.readline().split("tcp://", 1)[1].split()[0]
        print(f"arena at {base}, KGP at {kgp}", flush=True)
        for i in range(args.clients):
            clients.append(subprocess.Popen(
                [sys.executable, CLIENT, kgp, token, "--log", os.path.join(d, f"client-{i}.log")]
                + (["--chatty"] if i % 2 else []),
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
        t0 = time.time()
        finished = 0
        while finished < args.games:
            if time.time() - t0 > args.limit:
                failures.append(f"only {finished} of {args.games} games in {args.limit:.0f} s")
                break
            time.sleep(1)
            finished = sum(p["finished"] for p in get(base, "/api/arena/pools"))
        print(f"{finished} games finished in {time.time() - t0:.0f} s", flush=True)
        page = get(base, "/api/arena/bot?name=student")
    finally:
        arena.send_signal(signal.SIGTERM)
        try:
            arena.wait(timeout=60)
        except subprocess.TimeoutExpired:
            arena.kill()
            arena.wait()
            failures.append("the arena did not stop within 60 s of SIGTERM")
        counts = []
        for c in clients:
            try:
                out, _ = c.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                c.kill()
                out, _ = c.communicate()
                failures.append("a client did not end with the arena")
            last = [l for l in out.splitlines() if l.startswith("{")]
            if last:
                counts.append(json.loads(last[-1]))
            else:
                failures.append(f"a client printed no counts: {out[-400:]}")

    # The records: no time forfeit, no fault of the KGP bot.
    export = os.path.join(d, "games.jsonl")
    run(ARBITER, "arena", "export", "--db", db, "--pool", POOL, "--jsonout", export)
    games = [json.loads(l) for l in open(export)]
    kinds = {}
    random_moves = 0
    for g in games:
        kinds[g["termination"]["kind"]] = kinds.get(g["termination"]["kind"], 0) + 1
        random_moves += sum(1 for m in g["moves"] if m.get("kgp_random"))
        if g["termination"]["kind"] == "time_forfeit":
            failures.append(f"a time forfeit: {json.dumps(g['termination'])}")
        elif g["termination"].get("side") is not None:
            failures.append(f"a fault: {json.dumps(g['termination'])}")
    if len(games) < args.games:
        failures.append(f"{len(games)} games exported, {args.games} expected")
    verify = subprocess.run([ARBITER, "verify", export], capture_output=True, text=True, timeout=120)
    if verify.returncode != 0:
        failures.append(f"arbiter verify failed: {verify.stdout[-400:]}{verify.stderr[-400:]}")
    # Admission: passed, and no version failed it.
    if not (page.get("admission") or {}).get("passed"):
        failures.append(f"admission not passed: {page.get('admission')}")
    for v in page.get("versions", []):
        if v.get("admission") and not v["admission"]["passed"]:
            failures.append(f"version {v['n']} failed its admission: {v['admission']}")
    # The bot page counts what the records say (house bots never get one).
    if page.get("kgp_random_moves") != random_moves:
        failures.append(f"the bot page counts {page.get('kgp_random_moves')} random moves, "
                        f"the records {random_moves}")
    total = {k: sum(c.get(k, 0) for c in counts) for k in (counts[0] if counts else {})}
    print(f"terminations: {kinds}")
    print(f"KGP random moves: {random_moves} (bot page: {page.get('kgp_random_moves')}) "
          f"of {sum(len(g['moves']) for g in games)} moves")
    print(f"clients: {json.dumps(total)}")
    if failures:
        print("FAIL\n  " + "\n  ".join(failures[:20]))
        print(f"(kept for a look: {d})")
        return 1
    shutil.rmtree(d, ignore_errors=True)
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
