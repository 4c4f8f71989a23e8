"""Games through the kit equal games under the Rust rules, both ways:

- games the Rust side played (the arbiter running the reference engine)
  replayed through `GameRecord` end the same way, with the same result,
  reason and scores;
- random games played through the kit are accepted by `arbiter verify`
  (which replays them with the rules library and checks their results),
  and the reference engine reaches the same position string after every
  ply.
"""

import json
import random

import pytest

import mancala
from conftest import run

GAMES = sorted(mancala.GAMES)
#: A random game longer than this is logged as adjudicated (Bosh can go on for ever).
MAX_PLIES = 3000


def random_game(game, seed):
    rng = random.Random(f"{game} {seed}")
    record = mancala.GameRecord(mancala.Position.start(game))
    while not record.is_over() and len(record) < MAX_PLIES:
        record.play(rng.choice(record.legal_moves()))
    return record


def log_line(record, seed):
    """One game in the arbiter's JSON-lines log format."""
    result = record.result()
    entry = {
        "event": "python kit random games",
        "site": "local",
        "date": "2026.01.01",
        "round": str(seed),
        "game": record.game,
        "start_position": str(record.start),
        "south": "PySouth",
        "north": "PyNorth",
        "result": result.result if result else "1/2-1/2",
        "termination": (
            {"kind": "rules", "detail": result.description}
            if result
            else {"kind": "adjudication", "detail": f"ply limit {MAX_PLIES}"}
        ),
        "time_control": "inf",
        "moves": [{"move": m, "time_ms": 0} for m in record.moves],
    }
    if result is not None and result.scores is not None:
        entry["scores"] = list(result.scores)
    return json.dumps(entry)


@pytest.mark.parametrize("game", GAMES)
def test_random_games_pass_arbiter_verify(arbiter_bin, tmp_path, game):
    records = [random_game(game, seed) for seed in range(20)]
    assert any(r.is_over() for r in records)
    log = tmp_path / f"{game}.jsonl"
    log.write_text("".join(log_line(r, i) + "\n" for i, r in enumerate(records)))
    out = run([arbiter_bin, "verify", log])
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"OK ({len(records)} games)" in out.stdout


def test_arbiter_verify_catches_a_wrong_result(arbiter_bin, tmp_path):
    """The check above can fail: a flipped result is refused."""
    record = random_game("bohnenspiel", 1)
    entry = json.loads(log_line(record, 1))
    entry["result"] = {"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1-0"}[entry["result"]]
    log = tmp_path / "bad.jsonl"
    log.write_text(json.dumps(entry) + "\n")
    out = run([arbiter_bin, "verify", log])
    assert out.returncode == 1, out.stdout + out.stderr


@pytest.mark.parametrize("game", GAMES)
def test_engine_reaches_the_same_positions(engine_bin, game):
    record = random_game(game, 7)
    moves = record.moves[:400]
    replay = mancala.GameRecord(record.start)
    expected = []
    commands = [f"newgame {game}"]
    for i in range(len(moves) + 1):
        commands.append("position startpos" + (" moves " + " ".join(moves[:i]) if i else ""))
        commands.append("d")
        expected.append(str(replay.position))
        if i < len(moves):
            replay.play(moves[i])
    commands.append("quit")
    out = run([engine_bin], input="\n".join(commands) + "\n")
    assert out.returncode == 0, out.stderr
    seen = [line[4:] for line in out.stdout.splitlines() if line.startswith("pos ")]
    assert seen == expected


@pytest.mark.parametrize("game", GAMES)
def test_rust_played_games_replay_the_same(arbiter_bin, engine_bin, tmp_path, game):
    log = tmp_path / "match.jsonl"
    out = run(
        [
            arbiter_bin, "match",
            "--engine", f"cmd={engine_bin}", "name=A", "option.Level=1", "option.RandomSeed=11",
            "--engine", f"cmd={engine_bin}", "name=B", "option.Level=2", "option.RandomSeed=12",
            "--each", "depth=1",
            "--game", game, "--games", "4", "--openings", "plies=4", "--seed", "5",
            "--max-plies", "2000",
            "--jsonout", log, "--stderr-dir", tmp_path / "logs",
        ]
    )
    assert out.returncode == 0, out.stdout + out.stderr
    logs = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(logs) == 4
    for entry in logs:
        record = mancala.GameRecord(mancala.Position.parse(entry["start_position"]))
        for m in entry["moves"]:
            assert record.play(m["move"]) == m["move"]
        kind = entry["termination"]["kind"]
        if kind == "rules":
            result = record.result()
            assert result is not None
            assert str(result).startswith(entry["result"] + " ")
            assert result.result == entry["result"]
            assert result.description == entry["termination"]["detail"]
            assert result.scores == (tuple(entry["scores"]) if "scores" in entry else None)
        else:
            assert kind == "adjudication", entry["termination"]
            assert record.result() is None


@pytest.mark.parametrize("pick", [0, -1])
def test_bosh_round_start_cycle_agrees_with_arbiter_verify(arbiter_bin, tmp_path, pick):
    """Always playing the first (last) legal move, a Bosh match comes back to
    a round start a third time: drawn by the match-level cycle rule, which
    only the record knows. `arbiter verify` replays it with the Rust rules."""
    record = mancala.GameRecord(mancala.Position.start("bosh"))
    while not record.is_over():
        assert len(record) < MAX_PLIES
        record.play(record.legal_moves()[pick])
    result = record.result()
    assert result.reason == "round_start_repeated"
    assert result.result == "1/2-1/2" and result.winner is None
    assert sum(result.scores) == 40
    assert record.position.result() is None and record.position.legal_moves()
    log = tmp_path / "bosh.jsonl"
    log.write_text(log_line(record, pick) + "\n")
    out = run([arbiter_bin, "verify", log])
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.startswith("OK (1 game")
