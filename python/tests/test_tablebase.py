"""`mancala.tablebase(dir).probe(position)` against `engine tb probe` on a
small database the engine builds (layers up to 6 beans: well under a second)."""

import pytest

import mancala
from conftest import run

MAX_BEANS = 6


@pytest.fixture(scope="module")
def tb_dir(engine_bin, tmp_path_factory):
    out = tmp_path_factory.mktemp("tb")
    for game in ("bohnenspiel", "bohnenspiel-hemprich"):
        built = run([engine_bin, "tb", "build", "--game", game, "--max-beans", str(MAX_BEANS), "--out", out])
        assert built.returncode == 0, built.stderr
    return out


def cli_probe(engine_bin, tb_dir, position):
    out = run([engine_bin, "tb", "probe", "--tb", tb_dir, str(position)])
    assert out.returncode == 0, out.stderr
    lines = dict(line.split(" ", 1) for line in out.stdout.splitlines())
    return int(lines["value"]), lines["moves"].split(), lines["result"]


POSITIONS = [
    "bohnenspiel 1,0,0,0,0,0,1,0,1,0,0,0 S 36/33",
    "bohnenspiel 3,0,0,0,0,1,1,0,0,0,0,1 N 30/36",
    "bohnenspiel-hemprich 0,0,0,0,0,0,2,0,1,0,0,1 S 36/32",
    "bohnenspiel-hemprich 2,0,1,0,0,1,0,0,0,0,0,2 N 40/26",
]


@pytest.mark.parametrize("position", POSITIONS)
def test_probe_equals_the_engine_cli(engine_bin, tb_dir, position):
    tb = mancala.tablebase(str(tb_dir))
    probe = tb.probe(mancala.Position(position))
    value, moves, result = cli_probe(engine_bin, tb_dir, position)
    assert probe["value"] == value
    assert probe["moves"] == moves
    assert probe["result"] == result
    assert probe["exact"] is True and probe["bounds"] is None
    # A position string works as well as a Position.
    assert tb.probe(position) == probe
    # Every move kept the value: it is legal and the child's value agrees.
    pos = mancala.Position(position)
    for mv in probe["moves"]:
        assert mv in pos.legal_moves()


def test_positions_outside_the_database_probe_as_none(tb_dir):
    tb = mancala.tablebase(str(tb_dir))
    assert tb.probe(mancala.Position.start("bohnenspiel")) is None
    assert tb.probe(mancala.Position.start("bosh")) is None


def test_bad_input_raises_clear_errors(tb_dir, tmp_path):
    with pytest.raises(OSError, match="No such file"):
        mancala.tablebase(str(tmp_path / "missing"))
    tb = mancala.tablebase(str(tb_dir))
    with pytest.raises(mancala.PositionError):
        tb.probe("bohnenspiel 1,2,3 S 0/0")
