"""`mancala.solve(position)` and Kalah database probes
(`mancala.tablebase(dir).probe`) against the engine's command line
(`engine solve`, `engine tb probe`) on a small Kalah database (layers up
to 8 seeds, built by the engine: well under a second)."""

import json

import pytest

import mancala
from conftest import run

MAX_SEEDS = 8

POSITIONS = [
    "kalah 0,0,0,0,1,2,1,1,0,0,0,0 S 20/23",
    "kalah 1,0,3,0,2,1,1,1,0,2,0,4 S 15/18",
    "kalah 0,2,0,1,0,0,0,1,1,0,3,0 N 24/16",
    "kalah-6x6 0,0,0,2,0,1,0,1,0,0,1,0 S 30/37",
]


@pytest.fixture(scope="module")
def tb_dir(engine_bin, tmp_path_factory):
    out = tmp_path_factory.mktemp("kalah-tb")
    built = run([engine_bin, "tb", "build", "--game", "kalah", "--max-beans", str(MAX_SEEDS), "--out", out])
    assert built.returncode == 0, built.stderr
    return out


def cli_solve(engine_bin, position, *extra):
    out = run([engine_bin, "solve", "--hash", "16", "--threads", "1", *map(str, extra), position])
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.splitlines()[-1])


@pytest.mark.parametrize("position", POSITIONS)
def test_solve_equals_the_engine_cli(engine_bin, tb_dir, position):
    expected = cli_solve(engine_bin, position)
    solved = mancala.solve(position, hash_mb=16)
    assert solved["value"] == expected["value"]
    assert solved["moves"] == expected["moves"]
    assert solved["best"] == [m for m, v in expected["moves"].items() if v == expected["value"]]
    assert solved["best"] and solved["nodes"] >= 0
    # A Position works as well as a string, and the database changes nothing
    # but the work.
    assert mancala.solve(mancala.Position(position), tb=str(tb_dir))["moves"] == solved["moves"]
    # Every best move is legal.
    legal = mancala.Position(position).legal_moves()
    assert all(m in legal for m in solved["best"])


@pytest.mark.parametrize("position", [p for p in POSITIONS if "15/18" not in p])
def test_kalah_probe_equals_the_engine_cli(engine_bin, tb_dir, position):
    probe = mancala.tablebase(str(tb_dir)).probe(position)
    out = run([engine_bin, "tb", "probe", "--tb", tb_dir, position])
    assert out.returncode == 0, out.stderr
    lines = dict(line.split(" ", 1) for line in out.stdout.splitlines())
    assert probe["value"] == int(lines["value"])
    assert probe["moves"] == lines["moves"].split()
    assert probe["result"] == lines["result"]
    assert probe["exact"] is True and probe["bounds"] is None
    # The probe's value is the seeds' share, the solver's the final margin:
    # they agree once the stores are added.
    pos = mancala.Position(position)
    south, north = pos.stores
    mine, theirs = (south, north) if pos.side_to_move == mancala.Side.SOUTH else (north, south)
    assert mancala.solve(position, hash_mb=16)["value"] == mine - theirs + probe["value"]


def test_kalah_outside_the_database_probes_as_none(tb_dir):
    tb = mancala.tablebase(str(tb_dir))
    assert tb.probe(mancala.Position.start("kalah")) is None
    assert tb.probe(POSITIONS[1]) is None  # 15 seeds on the board


def test_bad_input_raises_clear_errors(tmp_path, tb_dir):
    with pytest.raises(ValueError, match="bohnenspiel position; the solver plays kalah and kalah-6x6 only"):
        mancala.solve(mancala.Position.start("bohnenspiel"))
    with pytest.raises(ValueError, match="kalah"):
        mancala.solve("kalah 1,2,3 S 0/0")
    with pytest.raises(OSError, match="missing"):
        mancala.solve(POSITIONS[0], tb=str(tmp_path / "missing"))
    with pytest.raises(OSError, match="no kalah layers"):
        mancala.solve(POSITIONS[0], tb=str(tmp_path))
    with pytest.raises(OSError, match="the table needs at least 1 MB"):
        mancala.solve(POSITIONS[0], hash_mb=0)
    # A truncated layer file: named, and no value.
    broken = tmp_path / "broken"
    broken.mkdir()
    for f in tb_dir.iterdir():
        (broken / f.name).write_bytes(f.read_bytes())
    layer = broken / "kalah-5.tb"
    layer.write_bytes(layer.read_bytes()[:-10])
    with pytest.raises(OSError, match="kalah-5.tb"):
        mancala.solve(POSITIONS[0], tb=str(broken))


def test_ctrl_c_interrupts_a_long_solve():
    import _thread
    import threading
    import time

    # The start of Kalah(6,4) without databases takes minutes; Ctrl-C (here
    # simulated on the main thread after 0.5 s) stops it within moments.
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        mancala.solve(mancala.Position.start("kalah"), hash_mb=16, threads=2)
    timer.join()
    assert time.monotonic() - started < 30
    # The kit still solves afterwards.
    assert mancala.solve(POSITIONS[0], hash_mb=16)["value"] == -4
