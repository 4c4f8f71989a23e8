"""Kalah and Oware through the kit: the rules of docs/rules/kalah.md and
docs/rules/oware.md on hand-worked positions, and whole games played with
the kit's records (the games the other suites play for every id too)."""

import random

import mancala


def test_kalah_extra_turn_and_capture():
    start = mancala.Position.start("kalah")
    assert str(start) == "kalah 4,4,4,4,4,4,4,4,4,4,4,4 S 0/0"
    # The last seed in the own store: South moves again.
    again = start.play("3")
    assert str(again) == "kalah 4,4,0,5,5,5,4,4,4,4,4,4 S 1/0"
    assert again.side_to_move == mancala.Side.SOUTH
    steps = [s["step"] for s in start.trace("3")]
    assert steps == ["lap", "pick", "sow", "sow", "sow", "store", "turn"]
    # An empty own hole with seeds opposite captures both.
    pos = mancala.Position("kalah 0,0,0,0,1,10,4,4,4,4,4,4 S 13/0")
    after = pos.play("6")
    assert str(after) == "kalah 1,1,0,0,1,0,5,5,5,0,5,5 N 20/0"
    assert after.stores == (20, 0)


def test_kalah_row_empty_ends_and_each_takes_his_row():
    pos = mancala.Position("kalah 4,4,4,4,4,4,0,0,0,0,0,8 N 0/16")
    end = pos.play("12")
    outcome = end.result()
    assert outcome.result == "1-0"
    assert outcome.reason == "row_empty"
    assert outcome.scores == (25, 23)
    assert end.legal_moves() == []


def test_oware_grand_slam_captures_nothing_and_feeding_is_forced():
    pos = mancala.Position("oware 0,0,0,0,0,2,1,2,0,0,0,0 S 21/22")
    after = pos.play("6")
    assert str(after) == "oware 0,0,0,0,0,0,2,3,0,0,0,0 N 21/22"
    assert "capture" not in [s["step"] for s in pos.trace("6")]
    # North cannot feed South: the game is over, each keeps his own row.
    assert after.result().reason == "no_legal_move"
    assert after.result().scores == (21, 27)
    assert mancala.Position("oware 1,0,0,0,0,1,0,0,0,0,0,0 S 23/23").legal_moves() == ["6"]


def test_oware_first_repetition_ends_the_game():
    record = mancala.GameRecord(mancala.Position("oware 0,0,0,0,0,1,0,0,0,0,0,1 S 23/23"))
    for move in "6 12 1 7 2 8 3 9 4 10 5 11".split():
        assert not record.is_over()
        record.play(move)
    outcome = record.result()
    assert outcome.reason == "repetition"
    assert outcome.scores == (24, 24)
    assert outcome.result == "1/2-1/2"


def test_whole_games_of_both_end_by_the_rules():
    for game in ("kalah", "kalah-6x6", "oware"):
        rng = random.Random(game)
        for _ in range(20):
            record = mancala.GameRecord(mancala.Position.start(game))
            while not record.is_over():
                record.play(rng.choice(record.legal_moves()))
            scores = record.result().scores
            assert sum(scores) == (72 if game == "kalah-6x6" else 48)
