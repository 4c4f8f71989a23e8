"""Perft through the kit equals the rules library's, as the reference
engine's `engine perft` prints it, from every game's start and from
mid-game positions."""

import random

import pytest

import mancala
from conftest import run

# Depths that keep the (debug-built) engine's side of the check short.
START_DEPTHS = {
    "bohnenspiel": 7,
    "bohnenspiel-hemprich": 7,
    "bosh": 9,
    "kalah": 7,
    "kalah-6x6": 6,
    "kimasai": 14,
    "kujifunza": 4,
    "oware": 7,
}


def engine_divide(engine_bin, position, depth):
    """`engine perft` output: ({move: count}, total)."""
    out = run([engine_bin, "perft", str(position), depth])
    assert out.returncode == 0, out.stderr
    rows, total = {}, None
    for line in out.stdout.splitlines():
        if line.startswith("nodes "):
            total = int(line.split()[1])
        else:
            mv, n = line.split(": ")
            rows[mv] = int(n)
    assert total is not None, out.stdout
    return rows, total


def test_every_game_has_a_depth():
    assert sorted(START_DEPTHS) == sorted(mancala.GAMES)


@pytest.mark.parametrize("game", sorted(START_DEPTHS))
def test_start_perft_matches_the_engine(engine_bin, game):
    start = mancala.Position.start(game)
    depth = START_DEPTHS[game]
    rows, total = engine_divide(engine_bin, start, depth)
    divide = mancala.divide(start, depth)
    assert [mv for mv, _ in divide] == start.legal_moves()
    assert dict(divide) == rows
    assert mancala.perft(start, depth) == total
    # Every depth below, too (perft(0) is the root itself).
    for d in range(depth):
        assert mancala.perft(start, d) == engine_divide(engine_bin, start, d)[1]


@pytest.mark.parametrize("game", sorted(START_DEPTHS))
def test_midgame_perft_matches_the_engine(engine_bin, game):
    rng = random.Random(f"perft {game}")
    for _ in range(3):
        pos = mancala.Position.start(game)
        for _ in range(rng.randrange(4, 40)):
            moves = pos.legal_moves()
            if not moves:
                break
            pos = pos.play(rng.choice(moves))
        depth = 2 if game == "kujifunza" else 3
        rows, total = engine_divide(engine_bin, pos, depth)
        assert dict(mancala.divide(pos, depth)) == rows, str(pos)
        assert mancala.perft(pos, depth) == total, str(pos)
