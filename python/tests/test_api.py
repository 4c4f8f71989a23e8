"""The Python API: names and behaviour bots rely on, and the errors bad
input raises (always a `MancalaError`, a `ValueError`, naming what was
wrong; never a crash)."""

import copy
import pickle
import random

import pytest

import mancala
from mancala import (
    GameOverError,
    GameRecord,
    IllegalMoveError,
    MancalaError,
    MoveError,
    Position,
    PositionError,
    Side,
)


def test_start_positions_round_trip_through_their_strings():
    for game in mancala.GAMES:
        pos = Position.start(game)
        assert pos.game == game
        assert str(pos).startswith(game + " ")
        assert Position.parse(str(pos)) == pos
        assert Position(str(pos)) == pos
        assert hash(Position.parse(str(pos))) == hash(pos)
        assert pos.side_to_move == Side.SOUTH
        assert pos.result() is None
        assert "South" in pos.render()
        assert pickle.loads(pickle.dumps(pos)) == pos
        assert copy.deepcopy(pos) == pos


def test_bohnenspiel_start_and_one_move():
    pos = Position.start("bohnenspiel")
    assert pos.legal_moves() == ["1", "2", "3", "4", "5", "6"]
    after = pos.play("4")
    assert str(after) == "bohnenspiel 6,6,6,0,7,7,7,7,7,7,6,6 N 0/0"
    assert str(pos) == "bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0"  # unchanged
    assert after.side_to_move == Side.NORTH
    assert after.holes == [6, 6, 6, 0, 7, 7, 7, 7, 7, 7, 6, 6]
    assert after.stores == (0, 0)
    assert after.round is None


def test_board_fields():
    bosh = Position.parse("bosh 5,5,x,0,5,5,5,0,5,5 N 5/0 2")
    assert bosh.holes == [5, 5, None, 0, 5, 5, 5, 0, 5, 5]
    assert bosh.stores == (5, 0) and bosh.round == 2
    kimasai = Position.start("kimasai")
    assert kimasai.holes.count(1) == 46 and kimasai.holes[23] == 0 and kimasai.stores is None
    assert Position.start("kimasai").legal_moves() == ["23"]


def test_sides():
    assert Side.SOUTH.opponent() == Side.NORTH and Side.NORTH.opponent() == Side.SOUTH
    assert (Side.SOUTH.index, Side.NORTH.index) == (0, 1)
    assert (Side.SOUTH.letter, str(Side.NORTH)) == ("S", "North")


def test_finished_position_result():
    # North to move with no bean: the game is over, South sweeps the board.
    pos = Position.parse("bohnenspiel 1,0,0,0,0,3,0,0,0,0,0,0 N 40/28")
    result = pos.result()
    assert result is not None
    assert str(result).startswith("1-0")
    assert result.result == "1-0" and result.winner == Side.SOUTH
    assert result.reason == "no_seeds_to_move"
    assert result.scores == (44, 28)
    assert pos.legal_moves() == []
    with pytest.raises(GameOverError):
        pos.play("7")


def test_game_record_applies_history_and_keeps_moves():
    record = GameRecord(Position.start("bosh"))
    assert record.game == "bosh" and len(record) == 0 and record.moves == []
    assert record.play("3") == "3"
    assert record.moves == ["3"] and len(record) == 1
    assert record.position == Position.start("bosh").play("3")
    assert record.start == Position.start("bosh")
    assert record.side_to_move == Side.NORTH
    twin = record.copy()
    twin.play(twin.legal_moves()[0])
    assert len(record) == 1 and len(twin) == 2
    assert len(copy.copy(record)) == 1


def test_game_record_ends_by_a_cycle_where_the_position_does_not():
    # Bohnenspiel: a position occurring for the third time ends the game,
    # each player taking the beans on his side. Random game 19 (seeded) does.
    rng = random.Random(19)
    record = GameRecord(Position.start("bohnenspiel"))
    while not record.is_over():
        record.play(rng.choice(record.legal_moves()))
    result = record.result()
    assert result.reason == "cycle"
    assert str(result).startswith(result.result + " (cycle (third occurrence); South ")
    assert sum(result.scores) == 72
    assert record.position.result() is None  # the position alone goes on
    assert record.position.legal_moves() != []
    assert record.legal_moves() == []
    with pytest.raises(GameOverError):
        record.play(record.position.legal_moves()[0])
    # Replaying the same moves on positions alone never ends the game there.
    pos = record.start
    for mv in record.moves:
        pos = pos.play(mv)
    assert pos == record.position and pos.result() is None


@pytest.mark.parametrize(
    "text, field",
    [
        ("", "position string"),
        ("chess 1,2,3 S", "game id"),
        ("bosh 4,4,4 S 0/0 1", "holes"),
        ("bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 X 0/0", "side to move"),
        ("bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0", "stores"),
        ("bosh 4,4,4,4,4,4,4,4,4,4 S 0/0 0", "round"),
        ("kimasai " + ",".join(["1"] * 48) + " S extra", "trailing"),
        ("bohnenspiel  6,6,6,6,6,6,6,6,6,6,6,6 S 0/0", "position string"),
    ],
)
def test_bad_position_strings_name_the_field(text, field):
    with pytest.raises(PositionError) as e:
        Position.parse(text)
    assert field in str(e.value)
    assert isinstance(e.value, ValueError) and isinstance(e.value, MancalaError)


def test_unknown_game_names_the_known_ones():
    with pytest.raises(PositionError, match="unknown game id \"chess\".*bohnenspiel"):
        Position.start("chess")


def test_move_errors():
    pos = Position.start("bohnenspiel")
    with pytest.raises(IllegalMoveError) as e:
        pos.play("7")
    assert e.value.move == "7" and e.value.legal == ["1", "2", "3", "4", "5", "6"]
    assert "illegal move 7" in str(e.value)
    with pytest.raises(MoveError, match="unparseable move \"x\""):
        pos.play("x")
    with pytest.raises(MoveError):
        pos.play("04")  # not canonical
    record = GameRecord(pos)
    with pytest.raises(IllegalMoveError):
        record.play("12")
    assert record.moves == [] and record.position == pos  # unchanged


def test_wrong_types_raise_type_errors():
    with pytest.raises(TypeError):
        Position.start("bosh").play(4)
    with pytest.raises(TypeError):
        GameRecord("bosh 4,4,4,4,4,4,4,4,4,4 S 0/0 1")


def test_bad_perft_depth():
    with pytest.raises(ValueError, match="depth must be 0 or more, got -1"):
        mancala.perft(Position.start("bosh"), -1)
    assert mancala.perft(Position.start("bosh"), 0) == 1
    assert mancala.divide(Position.start("bosh"), 0) == []


def test_garbage_never_crashes():
    """Random strings as positions and moves: each is accepted or raises a
    MancalaError; nothing else escapes (no panic, no crash)."""
    rng = random.Random(99)
    alphabet = "0123456789,x/ SNbohnespiltkmajfuz+-\t\x00é"
    starts = [str(Position.start(g)) for g in mancala.GAMES]
    for _ in range(3000):
        base = rng.choice(starts)
        cut = list(base)
        for _ in range(rng.randrange(1, 4)):
            i = rng.randrange(len(cut) + 1)
            cut[i:i + rng.randrange(3)] = rng.choice(alphabet) * rng.randrange(3)
        text = "".join(cut)
        try:
            pos = Position.parse(text)
        except MancalaError:
            continue
        assert str(Position.parse(str(pos))) == str(pos)
        for mv in [rng.choice(alphabet) * 2, "".join(rng.choices(alphabet, k=4)), "99999999999"]:
            try:
                pos.play(mv)
            except MancalaError:
                pass


def test_game_record_replay_and_pickle():
    start = Position.start("kujifunza")
    record = GameRecord(start)
    rng = random.Random(5)
    for _ in range(30):
        record.play(rng.choice(record.legal_moves()))
    again = GameRecord.replay(start, record.moves)
    assert again.moves == record.moves and again.position == record.position
    restored = pickle.loads(pickle.dumps(record))
    assert restored.moves == record.moves and restored.position == record.position
    assert restored.result() == record.result()
    with pytest.raises(IllegalMoveError, match=r"^move 2 \(4\): illegal move 4: legal moves are 7 ") as e:
        GameRecord.replay(Position.start("bohnenspiel"), ["4", "4"])
    assert e.value.move == "4" and "7" in e.value.legal
