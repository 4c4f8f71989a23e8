"""The kit's bot in the standing arena: `run_engine(choose, connect=...,
token=...)` with a token from `arbiter arena bot add` plays rated games
against a house bot over the arena's `/umi`, and shows on the ladder.
(The rest of the arena's scenario is arbiter/tests/arena.rs, in Rust, which
cannot rely on the kit being installed.)"""

import json
import subprocess
import time
import urllib.request

from conftest import remote_greedy, run

POOLS = [{"name": "bohn", "game": "bohnenspiel", "each": "depth=1", "openings": "suite"}]
GAMES = 6


def add_bot(arbiter_bin, db, name) -> str:
    out = run([arbiter_bin, "arena", "bot", "add", name, "--db", db])
    assert out.returncode == 0, out.stderr
    return out.stdout.splitlines()[-1]


def get_json(addr, path):
    with urllib.request.urlopen(f"http://{addr}{path}", timeout=60) as r:
        return json.load(r)


def test_a_kit_bot_connects_to_the_arena_and_is_rated(arbiter_bin, engine_bin, bot_env, tmp_path):
    db = tmp_path / "arena.sqlite"
    pools = tmp_path / "pools.json"
    pools.write_text(json.dumps(POOLS))
    token = add_bot(arbiter_bin, db, "py-greedy")
    add_bot(arbiter_bin, db, "ref")
    server = subprocess.Popen(
        [
            str(arbiter_bin), "arena", "run", "--listen", "127.0.0.1:0", "--db", str(db),
            "--pools", str(pools), "--max-games", str(GAMES),
            "--house", f"name=ref cmd={engine_bin} option.Level=1",
        ],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=tmp_path,
    )
    bot = None
    try:
        first = server.stdout.readline()
        addr = first.split("http://")[1].split("/")[0]
        bot = remote_greedy(f"ws://{addr}/umi", token, bot_env, tmp_path, "Arena Greedy")
        deadline = time.monotonic() + 120  # a hang guard, not a timing assertion
        while True:
            pool = get_json(addr, "/api/arena/pools")[0]
            ladder = get_json(addr, "/api/arena/ladder?pool=bohn")
            counted = sum(r["games"] or 0 for r in ladder)
            if pool["finished"] == GAMES and pool["playing"] == 0 and counted == 2 * GAMES:
                break
            assert time.monotonic() < deadline, (pool, ladder)
            assert bot.poll() is None, bot.stderr.read()
            time.sleep(0.2)
        rows = {r["name"]: r for r in ladder}
        assert set(rows) == {"py-greedy", "ref"}, ladder
        assert rows["py-greedy"]["connected"] is True
        assert rows["py-greedy"]["games"] == GAMES
        assert rows["py-greedy"]["rating"] is not None
        games = get_json(addr, "/api/arena/bot?name=py-greedy")["games"]
        assert len(games) == GAMES
        # The kit's bot plays by the rules: its games end on the board.
        assert all(g["termination"] == "rules" or g["termination"].endswith("adjudication")
                   for g in games), games
    finally:
        if bot is not None:
            bot.kill()
            bot.wait()
        server.kill()
        server.wait()
    log = tmp_path / "bohn.jsonl"
    out = run([arbiter_bin, "arena", "export", "--db", db, "--pool", "bohn", "--jsonout", log])
    assert out.returncode == 0, out.stderr
    verify = run([arbiter_bin, "verify", log])
    assert verify.returncode == 0, verify.stdout + verify.stderr
