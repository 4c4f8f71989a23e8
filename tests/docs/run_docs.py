#!/usr/bin/env python3
"""Docs that run: every command block in the user docs is executed, or marked.

The user docs (DOCS below) are read as markdown. Every fenced block whose info
string is `sh`, `bash`, `shell` or `console` is a command block and must be
either

  * run here: each block in a fresh scratch directory (the blocks of a doc
    in SHARED_DOCS share one, in order, as one reader's shell would), every
    command's exit status checked (0), and what it promises: a comment
    `# prints: X` (trailing, or on the next line) is a line the output holds;
    a `$ cmd` transcript's lines are the output, exactly; OUTPUT_SHAPES holds
    what the prose says of an output; or
  * marked illustrative, with a reason a reader understands, on the line
    before the fence: `<!-- illustrative: needs a Slurm cluster -->`.

A server a block starts runs in the background whether the block says so or
not; a block that a reader can paste whole says `CMD &` and `NAME=$!`, waits
for the port with a loop (`until curl -sf URL; do sleep 1; done`, run as it
is, with the server's address), and ends with `kill $NAME` and `wait $NAME`:
the harness stops that server there (SIGTERM, after the doc's paths were
requested from it; exit status 0 expected) and takes `wait` as said.

A block that is neither fails. A block after a line `<!-- file: NAME -->`
(a whole program a doc shows, such as docs/arena.md's KGP client) is written
as the file NAME into each scratch directory, for the command blocks to run.
Besides the blocks:

  * URLS: every path a doc names in a code span (`/live`, `GET /api/logs/N`,
    `/ws/play`, …) is requested from the server that doc's blocks started
    (status 200 and an HTML page, a JSON body, or a WebSocket upgrade);
  * FLAGS: every `--flag` written in a command of the docs (in any block,
    illustrative ones included, and in inline code) exists in that command's
    `--help`, and every default the docs write for a flag equals the default
    `--help` shows.

What the harness changes in a command, so that it runs in CI within a few
seconds, is the table SUBSTITUTIONS below; each change is printed beside
the command it was made to. The binaries are the test-profile ones that
`cargo test --workspace` built (ARBITER_BIN_DIR, default target/debug),
reached by the paths the docs use: `target/release/arbiter`,
`target/release/engine`, and `arbiter` / `engine` on PATH. The engines the
docs name as `./alpha`, `./beta`, `./gamma`, `./delta`, `./my-engine` and
`./mybot` are the reference engine under those names.

Usage: tests/docs/run_docs.py [--only FILE]...
"""

import argparse
import glob
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.path.abspath(os.environ.get("ARBITER_BIN_DIR", os.path.join(ROOT, "target", "debug")))

DOCS = [
    "README.md",
    "docs/arbiter.md",
    "docs/arena.md",
    "docs/gui.md",
    "docs/live.md",
    "docs/tablebase.md",
    "docs/tournaments.md",
    "python/README.md",
]
# Read for flags and defaults only (they hold no command block).
FLAG_ONLY_DOCS = ["protocol-spec.md"] + sorted(
    os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "rules", "*.md")))

COMMAND_INFOS = {"sh", "bash", "shell", "console"}
ENGINE_NAMES = ["alpha", "beta", "gamma", "delta", "my-engine", "mybot"]

# The addresses the docs bind; a command binds port 0 instead.
ADDRESS = r"\b(127\.0\.0\.1|0\.0\.0\.0):(8080|9000|2671)\b"
# (pattern, replacement, why): applied, in order, to every command that runs.
SUBSTITUTIONS = [
    (r"--games \d+", "--games 2", "two games, not an evening's worth"),
    (r"--rounds \d+", "--rounds 1", "one round"),
    (r"\btc=[0-9./+]+", "tc=1+0.02", "a one-second clock"),
    (r"(arbiter check --engine \S+)$", r"\1 timemargin=500 --stop-limit 5000",
     "room for a loaded machine in the timed checks"),
    (r"--max-beans \d+", "--max-beans 8", "a small endgame database"),
    (r"--layer 21\b", "--layer 9", "the layer above --max-beans 8"),
    (r"(arbiter tournament)\s*$", r"\1 --rounds 1 --each st=0.02",
     "the built-in tournament: one round at 20 ms a move"),
    (r"(arbiter arena run .*)$", r"\1 --max-games 2", "the arena starts two games"),
    (r"(arbiter serve)(?!.*--listen)", r"\1 --listen 127.0.0.1:0",
     "port 0, not the default 8080"),
    (ADDRESS, "127.0.0.1:0",
     "port 0 (the harness reads the port the server prints)"),
]
# Commands that are not run, and why (matched against the whole command).
SKIPPED = [
    (r"^cargo build --release\b", "the test-profile binaries stand for the release ones"),
    (r"^tests/run$", "this harness is part of tests/run"),
]
# Commands that run until stopped: started in the background, their URLs
# requested while their block's other commands run, then stopped with SIGTERM
# (exit status 0 expected). `--live` events end by themselves: waited for.
SERVERS = [r"\barbiter serve\b", r"\barbiter arena run\b", r"\barbiter connect\b",
           r"--remote-listen\b", r"--kgp-listen\b", r"\bkgp_client\.py\b"]
# Of those, the clients: they print no address, and run until stopped.
CLIENTS = [r"\barbiter connect\b", r"\bkgp_client\.py\b"]
# A stopped server exits 0 or, an event, 128 + SIGTERM (docs/arbiter.md).
STOPPED = (0, 128 + signal.SIGTERM)
# Servers that drain at a first SIGTERM and then exit 0, never 143
# (docs/gui.md "Stopping", docs/arena.md, docs/live.md).
DRAINS = [r"\barbiter serve\b", r"\barbiter arena run\b", r"--live\b"]
ENDS_BY_ITSELF = [r"--live\b"]

# Files a doc's commands expect to exist (with the why), made before its blocks.
FIXTURES = {
    # the doc's own example of a pools file (the ```json block after
    # "## Pools"), with its time controls shortened as above
    "docs/arena.md": ["pools.json"],
    # the shards of a small sharded tournament, as the batch array would
    # leave them (`merge` and `serve --watch` read them)
    "docs/tournaments.md": ["shards"],
    # a log for `serve --log games.pgn`
    "docs/gui.md": ["games.pgn"],
}

failures = []


def fail(where, what):
    failures.append(f"{where}: {what}")
    print(f"FAIL {where}: {what}", flush=True)


# ---------------------------------------------------------------- markdown


def blocks(path):
    """Every fenced block: (line, info, text, marker) with marker the text of
    an `<!-- illustrative: … -->` comment on the line before the fence."""
    lines = open(os.path.join(ROOT, path), encoding="utf-8").read().split("\n")
    out = []
    i = 0
    while i < len(lines):
        m = re.match(r"^(\s*)(`{3,})\s*([^`]*)$", lines[i])
        if not m:
            i += 1
            continue
        indent, fence, info = m.group(1), m.group(2), m.group(3).strip()
        j = i + 1
        while j < len(lines) and not re.match(r"^\s*" + fence + r"\s*$", lines[j]):
            j += 1
        body = "\n".join(line[len(indent):] if line.startswith(indent) else line
                         for line in lines[i + 1:j])
        marker = None
        prev = lines[i - 1].strip() if i > 0 else ""
        mk = re.match(r"^<!--\s*illustrative:\s*(.*?)\s*-->$", prev)
        if mk:
            marker = mk.group(1)
        out.append((i + 1, info.split()[0] if info else "", body, marker))
        i = j + 1
    return out


def file_blocks(path):
    """(name, text) of each block after a `<!-- file: NAME -->` line."""
    lines = open(os.path.join(ROOT, path), encoding="utf-8").read().split("\n")
    out = []
    for i, line in enumerate(lines[:-1]):
        m = re.match(r"^<!--\s*file:\s*(\S+)\s*-->$", line.strip())
        if m and lines[i + 1].startswith("```"):
            j = i + 2
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            out.append((m.group(1), "\n".join(lines[i + 2:j]) + "\n"))
    return out


def logical_commands(body):
    """(command, promise) pairs: backslash continuations (and lines ending in
    `|` or `&&`) joined, comment lines
    dropped; a comment `# prints: X` (trailing, or on the next line) promises
    that the command's output holds X. A `$ cmd` transcript promises the lines
    after it, exactly."""
    out = []
    lines = body.split("\n")
    transcript = any(l.startswith("$ ") for l in lines)
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if transcript:
            if not line.startswith("$ "):
                continue
            expect = []
            while i < len(lines) and not lines[i].startswith("$ "):
                if lines[i].strip():
                    expect.append(lines[i])
                i += 1
            out.append((line[2:].strip(), {"exact": expect}))
            continue
        s = line.strip()
        if not s:
            continue
        if s.startswith("#"):
            # `# tokens.json: {…}` describes a file the next command reads
            f = re.match(r"#\s*([\w.-]+\.json):\s*(\{.*\})\s*$", s)
            if f:
                out.append(("@write " + f.group(1), {"text": f.group(2)}))
                continue
            m = re.match(r"#\s*prints:\s*(.*)$", s)
            if m and out:
                out[-1][1].setdefault("contains", []).append(m.group(1))
            continue
        while s.endswith(("\\", "|", "&&")) and i < len(lines):
            # why keep `|` and `&&`: a pipeline goes on on the next line
            s = (s[:-1].rstrip() if s.endswith("\\") else s) + " " + lines[i].strip()
            i += 1
        promise = {}
        cmd = s
        m = re.search(r"\s+#\s(.*)$", s)
        if m and s.count('"') % 2 == 0:
            cmd = s[: m.start()].rstrip()
            p = re.search(r"prints:\s*(.*)$", m.group(1))
            if p:
                promise["contains"] = [p.group(1)]
            # `--shard 0/3 …   # and 1/3, 2/3`: the other shards too
            more = re.match(r"and (\d+/\d+(?:, \d+/\d+)*)$", m.group(1).strip())
            if more and re.search(r"--shard \d+/\d+", cmd):
                out.append((cmd, promise))
                for shard in more.group(1).split(", "):
                    out.append((re.sub(r"--shard \d+/\d+", "--shard " + shard, cmd), {}))
                continue
        out.append((cmd, promise))
    return out


# ---------------------------------------------------------------- scratch


def scratch_dir():
    d = tempfile.mkdtemp(prefix="docs-run.")
    os.makedirs(os.path.join(d, "target", "release"))
    os.makedirs(os.path.join(d, "bin"))
    for b in ("arbiter", "engine"):
        os.symlink(os.path.join(BIN, b), os.path.join(d, "target", "release", b))
        os.symlink(os.path.join(BIN, b), os.path.join(d, "bin", b))
    for name in ENGINE_NAMES:
        p = os.path.join(d, name)
        with open(p, "w") as f:
            f.write(f'#!/bin/sh\nexec "{BIN}/engine" "$@"\n')
        os.chmod(p, 0o755)
    # python/README.md runs the templates from the repository root
    os.symlink(os.path.join(ROOT, "python"), os.path.join(d, "python"))
    return d


def env_for(d):
    env = dict(os.environ)
    path = [os.path.join(d, "bin")]
    venv = os.path.join(ROOT, "target", "venv", "bin")
    if os.path.isdir(venv):
        # the venv with the Python kit (tests/setup), as the kit's README asks
        path.append(venv)
    env["PATH"] = os.pathsep.join(path + [env.get("PATH", "")])
    env.pop("RUST_LOG", None)
    return env


def substitute(cmd):
    notes = []
    for pat, rep, why in SUBSTITUTIONS:
        new = re.sub(pat, rep, cmd)
        if new != cmd:
            notes.append(why)
            cmd = new
    return cmd, notes


def make_fixtures(doc, d, env):
    for fx in FIXTURES.get(doc, []):
        if fx == "pools.json":
            text = [b for b in blocks(doc) if b[1] == "json"][0][2]
            text = re.sub(r"\btc=[0-9./+]+", "tc=1+0.02", text)
            text = re.sub(r"\bst=[0-9.]+", "st=0.05", text)
            open(os.path.join(d, "pools.json"), "w").write(text)
        elif fx == "shards":
            os.makedirs(os.path.join(d, "results"))
            for i in (1, 2):
                run_quiet(["arbiter", "tournament", "--engine", "cmd=./alpha",
                           "--engine", "cmd=./beta", "--each", "st=0.02", "--rounds", "1",
                           "--shard", f"{i}/2", "--jsonout", f"results/shard-{i}.jsonl"],
                          d, env, doc)
        elif fx == "games.pgn":
            run_quiet(["arbiter", "match", "--engine", "cmd=./alpha", "--engine", "cmd=./beta",
                       "--each", "st=0.02", "--games", "1", "--pgnout", "games.pgn"], d, env, doc)


def run_quiet(argv, d, env, doc):
    r = subprocess.run(argv, cwd=d, env=env, capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        fail(doc, f"fixture {' '.join(argv)} exited {r.returncode}: {r.stderr[-500:]}")


# ---------------------------------------------------------------- servers


class Server:
    def __init__(self, cmd, d, env, where):
        self.cmd, self.where = cmd, where
        self.log = tempfile.NamedTemporaryFile(prefix="docs-srv.", suffix=".log", delete=False)
        self.proc = subprocess.Popen(["sh", "-c", "exec " + cmd], cwd=d, env=env,
                                     stdout=self.log, stderr=subprocess.STDOUT)
        self.url = None

    def output(self):
        with open(self.log.name, encoding="utf-8", errors="replace") as f:
            return f.read()

    def wait_url(self, timeout=60):
        """The first http(s) URL the server prints (its address)."""
        end = time.time() + timeout
        while time.time() < end:
            m = re.search(r"(https?|wss?)://(127\.0\.0\.1|\[::1\]|localhost):\d+", self.output())
            if m:
                self.url = m.group(0)
                return self.url
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        return None

    def drains(self):
        return any(re.search(p, self.cmd) for p in DRAINS)

    def stop(self, wait_for_end=False):
        """SIGTERM (or, for an event, its own end); the exit status must be 0."""
        if wait_for_end:
            try:
                self.proc.wait(timeout=180)
            except subprocess.TimeoutExpired:
                pass
        self.signalled = self.proc.poll() is None
        if self.signalled:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                fail(self.where, f"`{self.cmd}` did not stop within 20 s of SIGTERM")
        code = self.proc.returncode
        if code is not None and code < 0:
            pass  # killed above, already reported
        elif code not in (STOPPED if self.signalled and not self.drains() else (0,)):
            fail(self.where, f"`{self.cmd}` exited {code} (after "
                 f"{'SIGTERM' if self.signalled else 'its end'}); "
                 f"output: {self.output()[-800:]}")
        os.unlink(self.log.name)


# ---------------------------------------------------------------- blocks


# What a file a doc describes in a comment holds in place of its placeholders.
FILE_PLACEHOLDERS = [("<at least 16 characters>", "docs-token-0123456789"),
                     ("…", "docs-token-9876543210")]


def stop_named(cmd, where, state):
    """`kill $A $B`: those servers are stopped (the doc's paths requested
    from them first); `wait $A`: nothing more (a stopped server has ended).
    True when `cmd` was one of those."""
    m = re.fullmatch(r"(kill|wait)((?:\s+\$\w+)+)", cmd)
    if not m:
        return False
    names = re.findall(r"\$(\w+)", m.group(2))
    named = state.setdefault("named", {})
    unknown = [n for n in names if n not in named]
    if unknown:
        fail(where, f"`{cmd}`: no server was started as ${unknown[0]} (`CMD &` then `{unknown[0]}=$!`)")
        return True
    if m.group(1) == "wait":
        print(f"  wait  {cmd}  (stopped at its kill)")
        return True
    for n in names:
        srv = named[n]
        if srv.url is not None and state.get("urls") and not state.get("urls_checked"):
            # why now: the paths are asked of the servers still up
            check_urls(where.split(":")[0], where, state["urls"])
            state["urls_checked"] = True
        print(f"  stop  {srv.cmd}  (kill ${n})", flush=True)
        state["servers"] = [(s, e) for s, e in state.get("servers", []) if s is not srv]
        state["urls"] = [(u, o) for u, o in state.get("urls", []) if u != srv.url]
        srv.stop()
    return True


def run_command(cmd, promise, d, env, where, state):
    m = re.fullmatch(r"(\w+)=\$!", cmd)
    if m:
        # `NAME=$!`: the server started last, by that name (for `kill $NAME`)
        if state.get("last_background") is None:
            fail(where, f"`{cmd}`: no command was started with `&` before it")
        else:
            state.setdefault("named", {})[m.group(1)] = state["last_background"]
        return
    if stop_named(cmd, where, state):
        return
    background = bool(re.search(r"[^&]&$", cmd))
    if background:
        cmd = cmd[:-1].rstrip()
    if cmd.startswith("@write "):
        name, text = cmd.split(" ", 1)[1], promise["text"]
        for a, b in FILE_PLACEHOLDERS:
            text = text.replace(a, b)
        json.loads(text)
        open(os.path.join(d, name), "w").write(text)
        print(f"  file  {name}: {text}")
        return
    for pat, why in SKIPPED:
        if re.search(pat, cmd):
            print(f"  skip  {cmd}  ({why})")
            return
    # `<token>`: what `arena bot add NAME` printed, for the bot whose engine
    # is `./NAME`; else the first bot that no `--house "name=NAME …"` of the
    # doc plays (a house bot's account is the server's, never a client's)
    # (the block's own bots first: a later block has a database of its own)
    tokens = state.get("tokens") or TOKENS.get(where.split(":")[0], {})
    if "<token>" in cmd and tokens:
        named = [t for name, t in tokens.items() if f"cmd=./{name}" in cmd]
        house = HOUSE.get(where.split(":")[0], set())
        guests = [t for name, t in tokens.items() if name not in house]
        cmd = cmd.replace("<token>", (named or guests or list(tokens.values()))[0])
    for name in re.findall(r'--house "name=([^\s"]+)', cmd):
        HOUSE.setdefault(where.split(":")[0], set()).add(name)
    # addresses the block's servers bound (port 0) replace the documented ones
    for documented, actual in state.get("addresses", {}).items():
        cmd = cmd.replace(documented, actual)
    original = cmd
    cmd, notes = substitute(cmd)
    if re.search(r"\barena event add\b", cmd):
        state["event"] = True
    if state.get("event") and re.search(r"\barbiter arena run\b", cmd):
        # why: an event's games would not all start under --max-games 2 (the
        # ladder may take some first); the block's stop drains the server.
        cmd = cmd.replace(" --max-games 2", "")
        notes = [n for n in notes if n != "the arena starts two games"] + [
            "no --max-games: the event plays all its games"]
    note = f"  [{'; '.join(notes)}]" if notes else ""
    if background and not any(re.search(p, original) for p in SERVERS + ENDS_BY_ITSELF):
        fail(where, f"`{cmd} &`: only a server is started in the background here")
        return
    if any(re.search(p, original) for p in SERVERS + ENDS_BY_ITSELF):
        print(f"  start {cmd}{note}", flush=True)
        srv = Server(cmd, d, env, where)
        state["last_background"] = srv
        ends = any(re.search(p, original) for p in ENDS_BY_ITSELF)
        if any(re.search(p, original) for p in CLIENTS):
            state.setdefault("servers", []).append((srv, False))
            return
        url = srv.wait_url()
        if url is None:
            fail(where, f"`{cmd}` printed no address: {srv.output()[-800:]}")
            state.setdefault("servers", []).append((srv, False))
            return
        m = re.search(ADDRESS, original)
        if m:
            state.setdefault("addresses", {})[m.group(0)] = url.split("://", 1)[1]
        elif re.search(r"\barbiter serve\b", original):
            state.setdefault("addresses", {})["127.0.0.1:8080"] = url.split("://", 1)[1]
        m = re.search(r"--kgp-listen\s+(127\.0\.0\.1:2671)", original)
        if m:
            # its second line: `arbiter: KGP bots connect to tcp://ADDR …`
            end = time.time() + 30
            while time.time() < end:
                k = re.search(r"KGP bots connect to tcp://(\S+)", srv.output())
                if k:
                    state.setdefault("addresses", {})[m.group(1)] = k.group(1)
                    break
                time.sleep(0.1)
        for text in promise.get("contains", []):
            text = text.replace("127.0.0.1:8080", url.split("://", 1)[1])
            if text not in srv.output():
                fail(where, f"`{cmd}` does not print {text!r}: {srv.output()[-500:]}")
        state.setdefault("servers", []).append((srv, ends))
        state.setdefault("urls", []).append((url, original))
        return
    m = re.search(r"\barena export\b.*--pool (\S+)", cmd)
    if m and state.get("urls"):
        # a reader exports later; here: once the arena has finished a game
        wait_for_arena_game(state["urls"][-1][0], m.group(1), where)
    m = re.search(r"\barena export\b.*--event (\d+)", cmd)
    if m and state.get("urls"):
        # "once it is over": the harness waits for it
        wait_for_arena_event(state["urls"][-1][0], m.group(1), where)
    print(f"  run   {cmd}{note}", flush=True)
    try:
        r = subprocess.run(["sh", "-c", cmd], cwd=d, env=env, capture_output=True, text=True,
                           timeout=180)
    except subprocess.TimeoutExpired:
        fail(where, f"`{cmd}` did not finish within 180 s")
        return
    out = r.stdout + r.stderr
    if r.returncode != 0:
        fail(where, f"`{cmd}` exited {r.returncode}: {out[-1200:]}")
        return
    lines = [l for l in r.stdout.split("\n") if l.strip()]
    if re.search(r"\barena bot add\b", cmd):
        # the doc promises the token alone on the last line
        if not lines or not re.fullmatch(r"\S{16,}", lines[-1]):
            fail(where, f"`{cmd}`: the last line is no token: {r.stdout[-300:]}")
        else:
            name = re.search(r"\bbot add (\S+)", cmd).group(1)
            TOKENS.setdefault(where.split(":")[0], {})[name] = lines[-1]
            state.setdefault("tokens", {})[name] = lines[-1]
    a, b = re.search(r"--games (\d+)", original), re.search(r"--games (\d+)", cmd)
    if a and b:
        state["games"] = (a.group(1), b.group(1))
    for text in promise.get("contains", []):
        if "games" in state:
            # a promise counting games follows the --games substitution
            text = text.replace(f"({state['games'][0]} games)", f"({state['games'][1]} games)")
        if text not in out:
            fail(where, f"`{cmd}` does not print {text!r}: {out[-800:]}")
    for pat, shape, what in OUTPUT_SHAPES:
        if re.search(pat, cmd) and not shape(lines):
            fail(where, f"`{cmd}` does not print {what}: {r.stdout[-400:]}")
    if "exact" in promise and lines != promise["exact"]:
        fail(where, f"`{cmd}` printed {lines!r}, the doc shows {promise['exact']!r}")


# What the prose around a block says its output looks like.
OUTPUT_SHAPES = [
    (r"\bengine perft\b",
     lambda ls: len(ls) > 1 and re.fullmatch(r"nodes \d+", ls[-1])
     and all(re.fullmatch(r"\S+: \d+", x) for x in ls[:-1]),
     "one `<move>: <count>` line per root move, then `nodes <total>` (README)"),
    (r"\barbiter check\b",
     lambda ls: ls and all(x.startswith("PASS ") for x in ls),
     "only `PASS` lines (README, python/README.md)"),
]


def wait_for_arena_game(base, pool, where, timeout=150):
    end = time.time() + timeout
    while time.time() < end:
        try:
            with urllib.request.urlopen(f"{base}/api/arena/games?pool={pool}", timeout=20) as r:
                games = json.loads(r.read())
            if isinstance(games, dict):
                games = games.get("games", [])
            if games:
                print(f"  wait  the arena finished {len(games)} game(s) of {pool}")
                return
        except (OSError, ValueError):
            pass
        time.sleep(1)
    fail(where, f"the arena finished no game of {pool} within {timeout} s")


def wait_for_arena_event(base, event, where, timeout=240):
    end = time.time() + timeout
    state = None
    while time.time() < end:
        try:
            with urllib.request.urlopen(f"{base}/api/arena/event?id={event}", timeout=20) as r:
                state = json.loads(r.read())["state"]
            if state in ("finished", "cancelled"):
                print(f"  wait  the arena's event {event} is {state}")
                return
        except (OSError, ValueError, KeyError):
            pass
        time.sleep(1)
    fail(where, f"the arena's event {event} did not end within {timeout} s (last: {state})")


def split_and(commands):
    """`a && b`: a, then b (the promise goes with the last)."""
    out = []
    for cmd, promise in commands:
        parts = cmd.split(" && ") if "@write" not in cmd and "'" not in cmd else [cmd]
        out += [(p.strip(), {}) for p in parts[:-1]] + [(parts[-1].strip(), promise)]
    return out


# Docs whose blocks continue each other (one reader's session): they share
# one directory. Every other block gets a fresh copy of its doc's directory
# (the binaries, the engines, the doc's fixtures), as a reader who runs one
# block of the doc by itself.
SHARED_DOCS = {"docs/tablebase.md": "build, then join a layer, then probe the database"}


# What a doc's blocks need from the machine, checked first so that a missing
# prerequisite is named once rather than as each command's failure.
REQUIRES = {
    "python/README.md": (["python3", "-c", "import mancala"],
                         "the Python kit in target/venv (tests/setup installs it)"),
}


def run_doc(doc):
    template = scratch_dir()
    dirs = [template]
    try:
        if doc in REQUIRES:
            argv, what = REQUIRES[doc]
            if subprocess.run(argv, env=env_for(template), capture_output=True).returncode:
                fail(doc, f"needs {what}; its blocks were not run")
                return
        make_fixtures(doc, template, env_for(template))
        for name, text in file_blocks(doc):
            with open(os.path.join(template, name), "w") as f:
                f.write(text)
            print(f"  file  {name} ({text.count(chr(10))} lines, from the doc)")
        for line, info, body, marker in blocks(doc):
            where = f"{doc}:{line}"
            if info not in COMMAND_INFOS:
                # a command block must say so, or it would escape the harness
                if info in ("", "text") and re.match(
                        r"(\$ )?(target/release/|arbiter |engine |cargo |\./)", body.lstrip()):
                    fail(where, "a block of commands without `sh` after its fence")
                continue
            if marker is not None:
                if not marker:
                    fail(where, "illustrative marker without a reason")
                print(f"{where}: illustrative ({marker})")
                continue
            print(f"{where}:", flush=True)
            d = template
            if doc not in SHARED_DOCS:
                d = tempfile.mkdtemp(prefix="docs-run.")
                os.rmdir(d)
                shutil.copytree(template, d, symlinks=True)
                dirs.append(d)
            env = env_for(d)
            state = {}
            try:
                for cmd, promise in split_and(logical_commands(body)):
                    run_command(cmd, promise, d, env, where, state)
                if state.get("urls") and not state.get("urls_checked"):
                    check_urls(doc, where, state["urls"])
            finally:
                # why finally: no server outlives its block, whatever failed
                for srv, ends in reversed(state.get("servers", [])):
                    srv.stop(wait_for_end=ends)
    finally:
        for d in dirs:
            shutil.rmtree(d, ignore_errors=True)


# {doc: {bot: token}}: a later block of the doc may use what an earlier printed
TOKENS = {}
# {doc: {bot}}: the bots a doc's `arena run --house "name=…"` plays itself
HOUSE = {}


# ---------------------------------------------------------------- URLs

# What a placeholder in a documented path stands for when it is requested.
PLACEHOLDERS = [
    (r"\[([^\]]*)\]", r"\1"),              # an optional part: requested with it
    (r"\|[^&]*", ""),                       # a|b|c: the first alternative
    (r"event\?id=N$", "event?id=1"),     # events are numbered from 1
    (r"(?<=[=/])(N|K|L|I|<log>|<index>)(?=$|[&?/])", "0"),
    (r"(?<==)P(?=$|&)", "1"),
    (r"(?<==)ID(?=$|&)", "bohnenspiel"),
    (r"pool=NAME", "pool=bohn-blitz"),
    (r"(bot|name)=NAME", r"\1=alpha"),
    (r"pools=NAME,NAME", "pools=bohn-blitz,bosh-1s"),
    (r"(?<==)(…|<draft>)", "START"),
    # named bare in prose; they answer about a position, so one is given
    (r"^/api/(position|view)$", r"/api/\1?position=START"),
]
START = "bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0"
WEBSOCKET_PATHS = ("/ws/", "/umi", "/kgp")
# API paths the docs say answer with text, not JSON
TEXT_PATHS = ("/api/export",)


def documented_paths(doc):
    text = open(os.path.join(ROOT, doc), encoding="utf-8").read()
    paths = set()
    for span in re.findall(r"`([^`\n]+)`", text):
        m = re.fullmatch(r"(?:GET )?(/[A-Za-z][^ ]*)", span.strip())
        # why not `*`: `/ws/*` names a family of paths, each named on its own
        if m and "*" not in m.group(1) \
                and not re.match(r"/(etc|engines|results|shared|usr|tmp|bin)\b", m.group(1)):
            paths.add(m.group(1))
    for m in re.finditer(r"https?://127\.0\.0\.1:8080(/[^\s`)\"<>,]*)", text):
        paths.add(m.group(1))
    return sorted(paths)


def concrete(path):
    for pat, rep in PLACEHOLDERS:
        path = re.sub(pat, rep, path)
    path = path.replace("moves=START", "moves=1")
    path = path.replace("START", urllib.parse.quote(START))
    return path


PASSED_PATHS = set()
PATH_ERRORS = {}


def check_urls(doc, where, urls):
    """The paths the doc names, from the servers this block started: a path
    passes when one of them answers it (200 and the kind of body the path
    promises). A path no server of any doc answers fails at the end."""
    deadline = time.time() + 60
    for path in documented_paths(doc):
        if path in PASSED_PATHS:
            continue
        target = concrete(path)
        while True:
            errors = []
            for url, _ in urls:
                err = request(url, target)
                if err is None:
                    break
                errors.append(f"{url}: {err}")
            else:
                # a game's replay exists once the game is finished: retried
                if "log" in target and "HTTP 404" in " ".join(errors) \
                        and time.time() < deadline:
                    time.sleep(0.5)
                    continue
                PATH_ERRORS.setdefault((doc, path), []).append(f"{where}: {'; '.join(errors)}")
                print(f"  url   {target}  not here ({'; '.join(errors)})")
                break
            PASSED_PATHS.add(path)
            print(f"  url   {target}  ok")
            break


def unanswered_paths(docs):
    for doc in docs:
        for path in documented_paths(doc):
            if path not in PASSED_PATHS:
                tried = PATH_ERRORS.get((doc, path), [
                    "no server of the doc's blocks was up to ask (none started, or it failed)"])
                fail(doc, f"documented path {path} ({concrete(path)}) answered by no server: "
                     f"{' | '.join(tried)}")


def request(base, path):
    host = base.split("://", 1)[1]
    if path.startswith(WEBSOCKET_PATHS):
        return websocket(host, path)
    try:
        with urllib.request.urlopen(base + path, timeout=20) as r:
            body = r.read()
            kind = r.headers.get("Content-Type", "")
    except urllib.error.HTTPError as e:
        return f"HTTP {e.code}"
    except Exception as e:  # noqa: BLE001 (named in the failure)
        return f"{type(e).__name__}: {e}"
    if path.startswith(TEXT_PATHS):
        if "text/plain" not in kind:
            return f"content type {kind!r}, text expected"
    elif path.startswith("/api/"):
        if "json" not in kind:
            return f"content type {kind!r}, JSON expected"
        try:
            json.loads(body)
        except ValueError as e:
            return f"not JSON: {e}"
    elif "text/html" not in kind:
        return f"content type {kind!r}, a page expected"
    return None


def websocket(host, path):
    """A WebSocket upgrade (RFC 6455) answered 101 Switching Protocols."""
    h, p = host.rsplit(":", 1)
    try:
        with socket.create_connection((h, int(p)), timeout=20) as s:
            s.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\n"
                       "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                       "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                       "Sec-WebSocket-Version: 13\r\n\r\n").encode())
            head = s.recv(4096).decode("latin-1")
    except OSError as e:
        return f"{type(e).__name__}: {e}"
    status = head.split("\r\n", 1)[0]
    return None if " 101 " in status + " " else f"upgrade answered {status!r}"


# ---------------------------------------------------------------- flags


def help_of(argv):
    r = subprocess.run(argv + ["--help"], capture_output=True, text=True, timeout=60)
    return r.stdout if r.returncode == 0 else None


def all_helps():
    """{("arbiter", "arena", "run"): help text, …} for every (sub)command."""
    helps = {}

    def walk(path):
        text = help_of([os.path.join(BIN, path[0])] + list(path[1:]))
        if text is None:
            return
        helps[path] = text
        m = re.search(r"^Commands:\n((?:  .*\n?)+)", text, re.M)
        if m:
            for line in m.group(1).split("\n"):
                w = line.split()
                if w and w[0] != "help":
                    walk(path + (w[0],))

    walk(("arbiter",))
    walk(("engine",))
    return helps


def flags_in_help(text):
    return set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", text))


def defaults_in_help(text):
    """{flag: default} from clap's `--flag <X>  … [default: D]` entries."""
    out = {}
    for entry in re.split(r"\n(?=\s*(?:-\w, )?--)", text):
        m = re.match(r"\s*(?:-\w, )?(--[a-z][a-z0-9-]*)", entry)
        # clap's `[default: D]`, else a help text's own `(default D;`
        d = re.search(r"\[default: ([^\]]*)\]", entry) \
            or re.search(r"\(default:? ([^\s;,)]+)[;,)]", entry)
        if m and d:
            out[m.group(1)] = d.group(1)
    return out


# Flags of other programs the docs name (never the arbiter's or the engine's).
FOREIGN = {"--release", "--workspace", "--profile", "--all-targets", "--all", "--parsable",
           "--array", "--wait", "--dependency", "--cpus-per-task", "--mem", "--job-name",
           "--wrap", "--time", "--requeue", "--output", "--rm", "--restart", "--image",
           "--overrides", "--compliance", "--no-build-isolation", "--no-deps",
           "--force-reinstall", "--quiet", "--full", "--user", "--example", "--features",
           "--manifest-path", "--target", "--locked", "--bin", "-p", "--test", "--lib",
           "--nocapture", "--ignored", "--show-output", "--interactive", "--version",
           "--ignore-certificate-errors",  # Chromium's, in docs/gui.md
           # cutechess/fastchess spellings the arbiter answers with a hint
           # (docs/tournaments.md), never options of its own
           "--srand", "--repeat", "--tc"}


def command_of(words, helps):
    """The deepest (sub)command a command line names, and where its args start."""
    for i, w in enumerate(words):
        base = os.path.basename(w)
        # a command word: first, after a separator, or a path (not `-p engine`)
        first = i == 0 or words[i - 1] in ("&&", "||", ";", "|", "$", "srun", "exec", "nice")
        if base in ("arbiter", "engine") and ((w == base and first) or "/" in w):
            path = (base,)
            j = i + 1
            while j < len(words) and path + (words[j],) in helps:
                path += (words[j],)
                j += 1
            return path, j
    return None, None


def check_flags(helps):
    for doc in DOCS + FLAG_ONLY_DOCS:
        text = open(os.path.join(ROOT, doc), encoding="utf-8").read()
        commands = []
        for line, info, body, _ in blocks(doc):
            if info in COMMAND_INFOS:
                commands += [(f"{doc}:{line}", c) for c, _ in logical_commands(body)]
        for span in re.findall(r"`([^`\n]+)`", text):
            commands.append((doc, span))
        for where, cmd in commands:
            try:
                words = shlex.split(cmd.replace("…", " "), comments=True)
            except ValueError:
                words = cmd.split()
            path, start = command_of(words, helps)
            if path is None:
                continue
            known = flags_in_help(helps[path])
            for w in words[start:]:
                flag = w.split("=", 1)[0]
                if re.fullmatch(r"--[a-z][a-z0-9-]*", flag) and flag not in known \
                        and flag != "--help":
                    fail(where, f"`{' '.join(path)}` has no {flag} (its --help does not "
                         f"list it): `{cmd[:120]}`")
        check_defaults(doc, text, helps)
        every = set()
        for t in helps.values():
            every |= flags_in_help(t)
        for span in re.findall(r"`([^`\n]+)`", text):
            # `--tls-*`: a family of flags, not one
            for flag in re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)(?![*\w-])", span):
                if flag not in every and flag not in FOREIGN:
                    fail(doc, f"{flag} (in `{span[:80]}`) is in no arbiter or engine --help")


def norm_default(v):
    v = v.strip().strip("`").strip()
    v = re.sub(r"(?<=\d)\s*(s|ms|seconds?|milliseconds?)$", "", v)
    return v.rstrip("/")


checked = []


# The command a doc's option tables describe: its defaults are compared
# with that command's --help first (the same flag may differ elsewhere).
DOC_COMMAND = {
    "docs/gui.md": ("arbiter", "serve"),
    "docs/arena.md": ("arbiter", "arena", "run"),
    "docs/live.md": ("arbiter", "tournament"),
    "docs/arbiter.md": ("arbiter", "match"),
    "docs/tournaments.md": ("arbiter", "tournament"),
    "docs/tablebase.md": ("engine", "tb", "build"),
}


def check_defaults(doc, text, helps):
    """A default the doc writes for a flag must be the one --help shows: in a
    table row whose first cell names one flag, `default X` anywhere in the
    row; in prose, `--flag …` followed in the same clause, with no other
    flag between, by `default X`."""
    found = []
    lines, prose = [], []
    # a paragraph's lines joined (a clause may wrap); table rows one by one
    for line in text.split("\n") + [""]:
        if line.startswith("|"):
            lines.append(line)
        elif line.strip():
            prose.append(line.strip())
        elif prose:
            lines.append(" ".join(prose))
            prose = []
    for line in lines:
        if line.startswith("|"):
            cells = line.strip("|").split("|", 1)
            flags = re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", cells[0])
            m = re.search(r"\(?default:? (`[^`]+`|[^\s,;)]+)", line)
            if len(flags) == 1 and m and len(cells) > 1:
                found.append((flags[0], m.group(1)))
                continue
        for unit in re.split(r"(?<=[.;])\s|\|", line):
            for m in re.finditer(r"`(--[a-z][a-z0-9-]*)[^`]*`([^`;]*?(?:`[^`]*`[^`;]*?)*?)"
                                 r"\(?default:? (`[^`]+`|[^\s,;)]+)", unit):
                if "--" in m.group(2) or "default" in m.group(2):
                    continue
                found.append((m.group(1), m.group(3)))
    for flag, value in found:
        if not re.match(r"`?[\w.:/-]+`?$", value) or value in ("the", "a", "no", "none"):
            continue
        main = DOC_COMMAND.get(doc)
        if main in helps and flag in flags_in_help(helps[main]):
            defaults = [defaults_in_help(helps[main]).get(flag)]
        else:
            defaults = [defaults_in_help(t).get(flag) for t in helps.values()
                        if flag in flags_in_help(t)]
        defaults = [x for x in defaults if x is not None]
        if not defaults:
            if re.fullmatch(r"`?[0-9.]+`?", value) and any(flag in flags_in_help(t)
                                                          for t in helps.values()):
                fail(doc, f"{flag}: the doc says default {value}, --help shows no default")
            continue
        checked.append((doc, flag, value))
        # a default with a remark (`1; 6 for the built-in tournament`): its value
        if norm_default(value) not in {norm_default(re.split(r"[;,] ", x)[0]) for x in defaults}:
            fail(doc, f"{flag}: the doc says default {value}, --help says "
                 f"{' / '.join(sorted(set(defaults)))}")


# ---------------------------------------------------------------- main


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", action="append", help="run only this doc's blocks")
    ap.add_argument("--no-blocks", action="store_true", help="only the flag checks")
    args = ap.parse_args()
    for b in ("arbiter", "engine"):
        if not os.access(os.path.join(BIN, b), os.X_OK):
            print(f"docs: {BIN}/{b} is missing: build the test profile first "
                  "(cargo build --profile test -p arbiter -p engine)", file=sys.stderr)
            return 1
    started = time.time()
    helps = all_helps()
    check_flags(helps)
    if not args.no_blocks:
        for doc in args.only or DOCS:
            print(f"== {doc}", flush=True)
            run_doc(doc)
        unanswered_paths(args.only or DOCS)
    print(f"docs: {len(failures)} failure(s) in {time.time() - started:.0f} s")
    for f in failures:
        print("  " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
