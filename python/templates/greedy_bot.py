#!/usr/bin/env python3
"""Template: a one-ply greedy bot. It plays a move that wins at once if
there is one, never one that loses at once when another exists, and
otherwise the move after which it holds the most seeds (stores, reserves,
or seeds on its own side of the board)."""

from mancala import Side, run_engine


def material(position, me):
    """Seeds that count for `me`: stores/reserves, else seeds on its half."""
    holes = [n or 0 for n in position.holes]  # a closed Bosh hole is None
    half = len(holes) // 2
    mine, theirs = (holes[:half], holes[half:]) if me == Side.SOUTH else (holes[half:], holes[:half])
    score = sum(mine) - sum(theirs)
    if position.stores is not None:
        stores = position.stores
        score = 10 * (stores[me.index] - stores[me.opponent().index]) + score
    return score


def value(record, move, me):
    after = record.copy()
    after.play(move)  # the record applies the repetition rules too
    result = after.result()
    if result is not None:
        return 10**6 if result.winner == me else -(10**6) if result.winner else 0
    return material(after.position, me)


def choose(record, limits):
    me = record.side_to_move
    best, best_value = None, None
    for move in record.legal_moves():
        if best is not None and limits.should_stop():
            break
        v = value(record, move, me)
        if best_value is None or v > best_value:
            best, best_value = move, v
    limits.info(depth=1, score=best_value, pv=[best])
    return best


if __name__ == "__main__":
    run_engine(choose, name="Greedy Bot", author="mancala kit template")
