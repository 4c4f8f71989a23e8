"""The standing arena's scenario with the kit in it: two pools, five bots
(reference-engine levels through `arbiter connect`, the kit's greedy bot
through `run_engine(choose, connect=..., token=...)`, a testbot that breaks
the protocol) playing a few hundred games at instant time controls. The
exported games verify, the ladder's numbers equal those `arbiter merge`
computes from the export, and the JSON's fields (ladder, a bot's history,
the games in progress) say what happened.

(`kill -9`, revocation and the crash-looping bot are arbiter/tests/it/arena.rs,
in Rust, which cannot rely on the kit being installed.)"""

import json
import re
import subprocess
import time
import urllib.request
from datetime import datetime, timezone

from conftest import TIMEOUT, remote_greedy, run

POOLS = [
    {"name": "bohn", "game": "bohnenspiel", "each": "depth=1", "openings": "suite"},
    {"name": "bosh", "game": "bosh", "each": "depth=1", "openings": "suite"},
]
GAMES = 300
#: The reference engine's levels, each a bot connected through `arbiter connect`.
LEVELS = {"ref-1": 1, "ref-2": 2, "ref-3": 3}
KIT = "py-greedy"
#: Answers every `go` with its move twice: the second is a stray bestmove.
STRAY = "stray"
ISO_UTC = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")


def add_bot(arbiter_bin, db, name) -> str:
    out = run([arbiter_bin, "arena", "bot", "add", name, "--db", db])
    assert out.returncode == 0, out.stderr
    return out.stdout.splitlines()[-1]


def get_json(addr, path):
    with urllib.request.urlopen(f"http://{addr}{path}", timeout=60) as r:
        return json.load(r)


def connect(arbiter_bin, url, token, cwd, *engine):
    """`arbiter connect` for one bot with two slots, its engine `engine`."""
    return subprocess.Popen(
        [str(arbiter_bin), "connect", url, "--token", token, "--slots", "2",
         "--stderr-dir", str(cwd / "stderr"), "--engine", *map(str, engine)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=cwd,
    )


def wait_until(what, done, processes=()):
    """Polls `what()` until `done` holds for it; a hang guard, not a timing
    assertion. A bot process that ends meanwhile fails the test at once."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        value = what()
        if done(value):
            return value
        assert time.monotonic() < deadline, value
        for p in processes:
            assert p.poll() is None, p.stderr.read()
        time.sleep(0.05)


def played(addr):
    return get_json(addr, "/api/arena/pools"), get_json(addr, "/api/arena/playing")


def test_five_bots_in_two_pools_play_a_few_hundred_games_that_verify_and_rate_as_exported(
        arbiter_bin, engine_bin, testbot_bin, bot_env, tmp_path):
    db = tmp_path / "arena.sqlite"
    pools = tmp_path / "pools.json"
    pools.write_text(json.dumps(POOLS))
    tokens = {name: add_bot(arbiter_bin, db, name) for name in [*LEVELS, KIT, STRAY]}
    began = datetime.now(timezone.utc).replace(microsecond=0)
    server = subprocess.Popen(
        [str(arbiter_bin), "arena", "run", "--listen", "127.0.0.1:0", "--db", str(db),
         "--pools", str(pools), "--max-games", str(GAMES),
         # why off: the stray bot breaks the protocol, and must play to be rated here.
         "--admission", "off"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=tmp_path,
    )
    bots = []
    try:
        addr = server.stdout.readline().split("http://")[1].split("/")[0]
        url = f"ws://{addr}/umi"
        for name, level in LEVELS.items():
            bots.append(connect(arbiter_bin, url, tokens[name], tmp_path,
                                f"cmd={engine_bin}", f"option.Level={level}"))
        bots.append(connect(arbiter_bin, url, tokens[STRAY], tmp_path,
                            f"cmd={testbot_bin}", "arg=--mode", "arg=double-bestmove"))
        bots.append(remote_greedy(url, tokens[KIT], bot_env, tmp_path, "Arena Greedy"))

        # A game in progress is listed with its pool and players …
        _, playing = wait_until(lambda: played(addr), lambda v: v[1], bots)
        live = playing[0]
        assert live["pool"] in ("bohn", "bosh") and live["south"] != live["north"], playing
        assert {live["south"], live["north"]} <= set(tokens), playing

        # … then every game is played, and rated.
        def ladders():
            return {p["name"]: get_json(addr, f"/api/arena/ladder?pool={p['name']}") for p in POOLS}

        def settled(v):
            (pools_now, playing_now), shown = v
            return (sum(p["finished"] for p in pools_now) == GAMES and not playing_now
                    and all(sum(r["games"] for r in shown[p["name"]]) == 2 * p["finished"]
                            for p in pools_now))

        (pools_now, _), shown = wait_until(lambda: (played(addr), ladders()), settled, bots)
        bot_pages = {name: get_json(addr, f"/api/arena/bot?name={name}") for name in tokens}
        # The game seen in progress finished as it was listed.
        finished = get_json(addr, f"/api/arena/games?pool={live['pool']}&bot={live['south']}")
        assert [(g["south"], g["north"]) for g in finished if g["id"] == live["id"]] == \
            [(live["south"], live["north"])], (live, finished)
    finally:
        for p in bots:
            p.terminate()
        for p in bots:
            p.wait(timeout=TIMEOUT)
        server.kill()
        server.wait()
    ended = datetime.now(timezone.utc)

    assert {p["name"]: p["aborted"] for p in pools_now} == {"bohn": 0, "bosh": 0}
    for pool in pools_now:
        name = pool["name"]
        rows = {r["name"]: r for r in shown[name]}
        # Every bot played in both pools (all of them list both games).
        assert set(rows) == set(tokens), rows
        for r in rows.values():
            assert r["connected"] is True and r["games"] > 0, r
            assert r["wins"] + r["draws"] + r["losses"] == r["games"], r
            assert abs(r["score"] - (r["wins"] + r["draws"] / 2) / r["games"]) < 1e-9, r
            # Everyone met everyone: every interval is finite.
            assert r["interval"] > 0, r
            assert ISO_UTC.match(r["last_seen"]), r
            assert began <= datetime.fromisoformat(r["last_seen"].replace("Z", "+00:00")) <= ended, r
            # The bot's page: its rating history in this pool, a point for
            # each recomputation that changed its game count, the last at
            # its present count.
            [mine] = [p for p in bot_pages[r["name"]]["pools"] if p["pool"] == name]
            counts = [h["games"] for h in mine["history"]]
            assert counts == sorted(set(counts)) and counts[-1] == r["games"], mine["history"]
            assert all(ISO_UTC.match(h["at"]) and isinstance(h["rating"], float)
                       for h in mine["history"]), mine["history"]
            assert mine["ladder"]["rating"] == r["rating"], (mine, r)

        # The pool's games export and verify, and `arbiter merge` rates the
        # export as the ladder does.
        log, pgn = tmp_path / f"{name}.jsonl", tmp_path / f"{name}.pgn"
        out = run([arbiter_bin, "arena", "export", "--db", db, "--pool", name,
                   "--jsonout", log, "--pgnout", pgn])
        assert out.returncode == 0, out.stderr
        for f in (log, pgn):
            verify = run([arbiter_bin, "verify", f])
            assert verify.returncode == 0, verify.stdout + verify.stderr
        records = [json.loads(line) for line in log.read_text().splitlines()]
        assert len(records) == pool["finished"]
        merged = run([arbiter_bin, "merge", "--json", log])
        assert merged.returncode == 0, merged.stderr
        standings = {e["name"]: e for e in json.loads(merged.stdout)["standings"]}
        assert set(standings) == set(rows)
        for r in rows.values():
            e = standings[r["name"]]
            assert (e["games"], e["wins"], e["draws"], e["losses"]) == \
                (r["games"], r["wins"], r["draws"], r["losses"]), (e, r)
            assert abs(e["elo"] - r["rating"]) < 1e-6, (e, r)
            assert abs(e["elo_margin"] - r["interval"]) < 1e-6, (e, r)

        # The kit's bot plays by the rules: it never lost by a verdict.
        # The stray bestmove loses every game of the testbot, by that verdict.
        for g in records:
            players = {g["south"], g["north"]}
            kind = g["termination"]["kind"]
            if STRAY in players:
                assert kind == "stray_bestmove", g
                assert g["result"] == ("0-1" if g["south"] == STRAY else "1-0"), g
            else:
                assert kind == "rules" or kind.endswith("adjudication"), g
