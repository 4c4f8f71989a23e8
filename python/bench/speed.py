#!/usr/bin/env python3
"""Speed of the kit from Python: legal moves + play, against the same loop
over a pure-Python Bohnenspiel.

    target/venv/bin/python python/bench/speed.py [seconds]

Each loop plays whole Bohnenspiel games from the start, choosing moves from
one seeded sequence (so both loops play exactly the same games; the script
checks that they end in the same positions) and stops when the side to move
has no legal move. Rates are plies per second of this process's CPU time.

BENCHMARK BASELINE ONLY: `PurePythonBohnenspiel` below is a plain-Python
copy of the Bohnenspiel sowing rules written for this measurement. It is
not part of the kit and must not be used by bots: the rules live in the
Rust rules library, which the kit exposes.
"""

import random
import sys
import time
import timeit

import mancala


class PurePythonBohnenspiel:
    """BENCHMARK BASELINE: the same interface as mancala.Position, in Python."""

    __slots__ = ("pits", "stores", "side")

    def __init__(self, pits, stores, side):
        self.pits, self.stores, self.side = pits, stores, side

    @classmethod
    def start(cls):
        return cls([6] * 12, [0, 0], 0)

    def legal_moves(self):
        first = 6 * self.side
        if not any(self.pits[first:first + 6]):
            return []
        return [str(i + 1) for i in range(first, first + 6) if self.pits[i]]

    def play(self, move):
        if move not in self.legal_moves():
            raise ValueError(f"illegal move {move}")
        pits, stores = self.pits[:], self.stores[:]
        origin = int(move) - 1
        beans, pits[origin] = pits[origin], 0
        pit = origin
        for _ in range(beans):
            pit = (pit + 1) % 12
            pits[pit] += 1
        for _ in range(12):
            if pits[pit] not in (2, 4, 6):
                break
            stores[self.side] += pits[pit]
            pits[pit] = 0
            pit = (pit - 1) % 12
        return PurePythonBohnenspiel(pits, stores, 1 - self.side)

    def __str__(self):
        return "bohnenspiel {} {} {}/{}".format(
            ",".join(map(str, self.pits)), "SN"[self.side], *self.stores
        )


class PurePythonRecord:
    """BENCHMARK BASELINE: mancala.GameRecord's interface over the baseline
    positions, with Bohnenspiel's cycle rule (a game ends when a position
    occurs for the third time; positions before a capture never recur)."""

    def __init__(self, start):
        self.position, self.moves, self.over = start, [], False
        self.history = [self._key(start)]

    @staticmethod
    def _key(pos):
        return (tuple(pos.pits), pos.stores[0], pos.stores[1], pos.side)

    def legal_moves(self):
        return [] if self.over else self.position.legal_moves()

    def play(self, move):
        if self.over:
            raise ValueError("the game is over")
        before = self.position
        pos = self.position = before.play(move)
        self.moves.append(move)
        if pos.stores != before.stores:
            self.history.clear()
        key = self._key(pos)
        self.history.append(key)
        self.over = not pos.legal_moves() or self.history.count(key) >= 3
        return move


class NullPosition:
    """The interpreter's floor: the loop's own cost, with rules that cost
    nothing (six moves always, a game of fixed length)."""

    __slots__ = ("plies",)
    MOVES = ["1", "2", "3", "4", "5", "6"]

    def __init__(self, plies=0):
        self.plies = plies

    def legal_moves(self):
        return self.MOVES if self.plies < 62 else []

    def play(self, move):
        return NullPosition(self.plies + 1)

    def __str__(self):
        return "null"


def playout(start, choices):
    """One game: legal moves and play until no move is left."""
    pos, plies = start, 0
    while True:
        moves = pos.legal_moves()
        if not moves:
            return pos, plies
        pos = pos.play(moves[choices[plies % len(choices)] % len(moves)])
        plies += 1


def record_playout(make, choices):
    """The random template's loop: a game record's legal moves and play."""
    record, plies = make(), 0
    while True:
        moves = record.legal_moves()
        if not moves:
            return record.position, plies
        record.play(moves[choices[plies % len(choices)] % len(moves)])
        plies += 1


def measure(name, start, games, loop=playout):
    clock = time.process_time()
    plies = 0
    finals = []
    for choices in games:
        final, n = loop(start, choices)
        plies += n
        finals.append(str(final))
    secs = time.process_time() - clock
    rate = plies / secs
    print(f"{name:<34} {rate:>12,.0f} plies/s  ({len(games)} games, {plies} plies, {secs:.2f} s CPU)")
    return rate, finals


def per_call(name, stmt, pos):
    """Nanoseconds per call, best of 5 (as `python -m timeit` reports)."""
    timer = timeit.Timer(stmt, globals={"pos": pos})
    number = 200_000
    best = min(timer.repeat(5, number)) / number
    print(f"  {name:<32} {best * 1e9:>8.0f} ns per call")
    return best


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    rng = random.Random(2026)
    # Calibrate the number of games so that the slow loop takes about `seconds`.
    games = [[rng.randrange(720) for _ in range(64)] for _ in range(20)]
    slow_start = PurePythonBohnenspiel.start()
    clock = time.process_time()
    for g in games:
        playout(slow_start, g)
    per_game = (time.process_time() - clock) / len(games)
    count = max(20, int(seconds / max(per_game, 1e-9)))
    games = [[rng.randrange(720) for _ in range(64)] for _ in range(count)]

    print(f"python {sys.version.split()[0]}, mancala kit {mancala.__version__}")
    measure("loop alone (no rules: the floor)", NullPosition(), games)
    base, base_finals = measure("pure Python (baseline)", slow_start, games)
    kit, kit_finals = measure("mancala.Position (kit)", mancala.Position.start("bohnenspiel"), games)
    if base_finals != kit_finals:
        sys.exit("the baseline and the kit played different games: the baseline is wrong")
    print(f"  kit / pure Python, positions: {kit / base:.1f}x")
    base, base_finals = measure(
        "pure Python record (baseline)",
        lambda: PurePythonRecord(PurePythonBohnenspiel.start()),
        games,
        record_playout,
    )
    kit, kit_finals = measure(
        "mancala.GameRecord (kit)",
        lambda: mancala.GameRecord(mancala.Position.start("bohnenspiel")),
        games,
        record_playout,
    )
    if base_finals != kit_finals:
        sys.exit("the baseline record and the kit played different games: the baseline is wrong")
    print(f"  kit / pure Python, game records: {kit / base:.1f}x")

    print("one call from the start position (wall time, best of 5):")
    kit_start = mancala.Position.start("bohnenspiel")
    slow = per_call("pure Python legal_moves()", "pos.legal_moves()", slow_start)
    slow += per_call("pure Python play('4')", "pos.play('4')", slow_start)
    fast = per_call("kit legal_moves()", "pos.legal_moves()", kit_start)
    fast += per_call("kit play('4')", "pos.play('4')", kit_start)
    print(f"  kit / pure Python, legal_moves() + play(): {slow / fast:.1f}x")


if __name__ == "__main__":
    main()
