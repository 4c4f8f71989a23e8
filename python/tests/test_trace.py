"""The sowing trace from Python: steps as dicts in the rules library's JSON
shape. Replaying them onto the board before a move (bookkeeping only: seeds
go where the steps say) must give exactly the position `play` gives, for
every game, in random positions and through game records (Bosh rounds
ended by the history rules included)."""

import random

import pytest

import mancala
from mancala import GameRecord, IllegalMoveError, Position

SIDES = {"south": mancala.Side.SOUTH, "north": mancala.Side.NORTH}


class Replay:
    """A board that moves seeds as steps say; it knows no rule."""

    def __init__(self, pos):
        self.holes = list(pos.holes)
        self.stores = list(pos.stores) if pos.stores is not None else None
        self.round = pos.round
        self.side = pos.side_to_move
        self.hand = 0

    def apply(self, step):
        kind = step["step"]
        if kind == "pick":
            assert self.holes[step["hole"] - 1] == step["count"] > 0, step
            self.holes[step["hole"] - 1] = 0
            self.hand += step["count"]
        elif kind == "sow":
            assert self.hand > 0 and self.holes[step["hole"] - 1] is not None, step
            self.hand -= 1
            self.holes[step["hole"] - 1] += 1
        elif kind == "store":
            # Kalah: a seed of the hand sown into the mover's own store.
            assert self.hand > 0 and self.stores is not None, step
            self.hand -= 1
            self.stores[SIDES[step["side"]].index] += 1
        elif kind == "capture":
            assert self.holes[step["from"] - 1] == step["count"], step
            self.holes[step["from"] - 1] = 0
            if step["to"] in ("store", "reserve"):
                self.stores[SIDES[step["side"]].index] += step["count"]
            elif step["to"] == "hand":
                self.hand += step["count"]
            else:
                assert step["to"] == "removed", step
        elif kind == "refill":
            reserve = SIDES[step["reserve"]].index
            assert self.stores[reserve] >= step["count"], step
            self.stores[reserve] -= step["count"]
            self.holes[step["hole"] - 1] = step["count"]
        elif kind == "close":
            self.holes[step["hole"] - 1] = None
        elif kind == "new_round":
            self.round = step["round"]
        elif kind == "turn":
            self.side = SIDES[step["side"]]
        else:
            assert kind in ("lap", "pass", "round_end"), step

    def matches(self, pos):
        stores = tuple(self.stores) if self.stores is not None else None
        return (self.holes, stores, self.round, self.side, self.hand) == (
            pos.holes, pos.stores, pos.round, pos.side_to_move, 0)


def replayed(before, steps):
    board = Replay(before)
    for step in steps:
        board.apply(step)
    return board


@pytest.mark.parametrize("game", sorted(mancala.GAMES))
def test_replaying_a_trace_gives_the_played_position(game):
    rng = random.Random(f"trace {game}")
    checked = 0
    for _ in range(40):
        pos = Position.start(game)
        for _ in range(rng.randrange(0, 120)):
            moves = pos.legal_moves()
            if not moves:
                break
            for mv in moves:
                steps = pos.trace(mv)
                assert steps[0]["step"] in ("lap", "pass") and steps[-1]["step"] == "turn"
                assert replayed(pos, steps).matches(pos.play(mv)), (str(pos), mv, steps)
                checked += 1
            pos = pos.play(rng.choice(moves))
    assert checked > 500


def test_record_traces_include_round_ends_by_the_history_rules():
    """Random Bosh matches: rounds end because a player cannot move and,
    now and then, by a cycle (a history rule only the record applies); the
    record's trace of every move replays to its next position."""
    reasons = set()
    for seed in range(50):
        rng = random.Random(seed)
        record = GameRecord(Position.start("bosh"))
        while not record.is_over() and len(record) < 3000:
            before = record.position
            steps = record.play_traced(rng.choice(record.legal_moves()))
            reasons.update(s["reason"] for s in steps if s["step"] == "round_end")
            board = replayed(before, steps)
            assert board.matches(record.position), (str(before), record.moves[-1], steps)
        if "cycle" in reasons:
            break
    assert reasons == {"no_move", "cycle"}


def test_trace_errors():
    pos = Position.start("bohnenspiel")
    with pytest.raises(IllegalMoveError):
        pos.trace("7")
    record = GameRecord(pos)
    with pytest.raises(IllegalMoveError):
        record.play_traced("9")
    assert record.moves == []
    with pytest.raises(mancala.MoveError):
        pos.trace("nonsense")
