"""The kit as a remote engine: `run_engine(choose, connect=..., token=...)`
plays a match for an arbiter over WebSocket on the loopback, against the
same bot run locally, and the results log verifies."""

import json
import socket
import subprocess

from conftest import TEMPLATES, remote_greedy, run

TOKEN = "python-kit-token-0123456789"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_remote_python_bot_plays_a_match(arbiter_bin, bot_env, tmp_path):
    port = free_port()
    tokens = tmp_path / "tokens.json"
    tokens.write_text(json.dumps({"py": TOKEN}))
    log = tmp_path / "results.jsonl"
    bot = remote_greedy(f"ws://127.0.0.1:{port}/umi", TOKEN, bot_env, tmp_path, "Remote Greedy", 1)
    try:
        out = run(
            [
                arbiter_bin, "match",
                "--engine", f"cmd={TEMPLATES / 'greedy_bot.py'}", "name=Local",
                "--engine", "remote=py", "name=Remote",
                "--each", "tc=20+0.2", "--games", "2", "--openings", "plies=2",
                "--remote-listen", f"127.0.0.1:{port}", "--remote-tokens", tokens,
                "--remote-wait", "30", "--jsonout", log, "--stderr-dir", tmp_path / "logs",
            ],
            env=bot_env,
            cwd=tmp_path,
        )
        if out.returncode != 0:
            bot.kill()
            raise AssertionError(out.stdout + out.stderr + bot.communicate()[1])
    finally:
        try:
            bot.wait(timeout=20)
        except subprocess.TimeoutExpired:
            bot.kill()
            bot.wait()
    # One connection played both games; then the arbiter closed it.
    assert bot.returncode == 0, bot.stderr.read()
    games = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(games) == 2
    for g in games:
        assert g["termination"]["kind"] in ("rules", "adjudication"), g["termination"]
        # The remote side's moves carry their lag and compensation; the
        # local side's do not.
        lagged = [m for m in g["moves"] if "lag_ms" in m]
        assert lagged and all(m["comp_ms"] <= m["lag_ms"] for m in lagged), g["moves"]
        assert len(lagged) < len(g["moves"])
    verify = run([arbiter_bin, "verify", log])
    assert verify.returncode == 0, verify.stdout + verify.stderr
