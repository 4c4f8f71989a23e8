"""A short tournament of both Python templates and the reference engine
under the arbiter, whose results log `arbiter verify` accepts."""

import json

import pytest

import mancala
from conftest import TEMPLATES, run


@pytest.mark.parametrize("game", sorted(mancala.GAMES))
def test_templates_and_the_reference_engine(arbiter_bin, engine_bin, bot_env, tmp_path, game):
    log = tmp_path / "results.jsonl"
    out = run(
        [
            arbiter_bin, "tournament",
            "--engine", f"cmd={TEMPLATES / 'random_bot.py'}", "name=Random",
            "--engine", f"cmd={TEMPLATES / 'greedy_bot.py'}", "name=Greedy",
            "--engine", f"cmd={engine_bin}", "name=Reference", "option.Level=5",
            "--each", "tc=20+0.2",
            "--game", game, "--rounds", "1", "--openings", "plies=2", "--seed", "3",
            "--jsonout", log, "--pgnout", tmp_path / "results.pgn",
            "--stderr-dir", tmp_path / "logs",
        ],
        env=bot_env,
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    games = [json.loads(line) for line in log.read_text().splitlines()]
    # A round robin of three: three pairings, two games each (colours swapped).
    assert len(games) == 6
    for g in games:
        assert g["game"] == game
        # No forfeits: every game ended under the rules (or the ply limit).
        assert g["termination"]["kind"] in ("rules", "adjudication"), g["termination"]
    names = {g["south"] for g in games} | {g["north"] for g in games}
    assert names == {"Random", "Greedy", "Reference"}
    for path in (log, tmp_path / "results.pgn"):
        verify = run([arbiter_bin, "verify", path])
        assert verify.returncode == 0, verify.stdout + verify.stderr
        assert "OK (6 games)" in verify.stdout
