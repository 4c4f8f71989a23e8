#!/usr/bin/env python3
"""Kalah and Oware against OpenSpiel, an implementation written by others.

For `kalah` (OpenSpiel's `mancala`) and `oware` (OpenSpiel's `oware`):

- perft from the start position to DEPTH plies, the project's rules (the
  Python kit's `perft`, which is the rules library's) against a count over
  OpenSpiel's states;
- every opening of the game's suite (openings/<game>.txt) reached by play
  from OpenSpiel's start (what bench/openspiel_umi.py does to play from it);
- GAMES random whole games, compared ply by ply: the legal moves, the
  position, whether the game is over, and at the end the result and the
  final scores.

`kalah-6x6` is not compared: OpenSpiel's `mancala` takes no parameters (4
seeds a hole only). Exit status 0 when everything agrees; otherwise the
first disagreement of each kind is printed and the status is 1.

Usage: compare.py [--games N] [--depth D] [--seed S]
"""

import argparse
from pathlib import Path
import random
import sys
import time

import mancala
import pyspiel

from notation import KalahAdapter, OwareAdapter, reach

OPENINGS = Path(__file__).resolve().parents[2] / "openings"


def openspiel_perft(adapter, state, depth, memo):
    """Leaves at `depth`, memoised on the state (no history rule can act
    within a few plies of the start, so the state alone decides)."""
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    key = (adapter.key(state), depth)
    if key in memo:
        return memo[key]
    actions = state.legal_actions()
    if depth == 1:
        total = len(actions)
    else:
        total = 0
        for action in actions:
            child = state.clone()
            child.apply_action(action)
            total += openspiel_perft(adapter, child, depth - 1, memo)
    memo[key] = total
    return total


def result_of(state):
    first = state.returns()[0]
    return "1-0" if first > 0 else "0-1" if first < 0 else "1/2-1/2"


class Mismatches:
    def __init__(self):
        self.count = 0

    def report(self, what, detail):
        self.count += 1
        if self.count <= 10:
            print(f"MISMATCH {what}: {detail}", file=sys.stderr)


def compare_game(adapter, game, rng, bad):
    """One random game; returns its length in plies."""
    state = game.new_initial_state()
    record = mancala.GameRecord(mancala.Position.start(adapter.game_id))
    moves = []
    while True:
        where = f"{adapter.game_id} after {' '.join(moves) or 'no move'}"
        over = state.is_terminal()
        if record.is_over() != over:
            bad.report("end", f"{where}: ours over={record.is_over()}, OpenSpiel over={over}")
            return len(moves)
        ours = str(record.position)
        if not over or adapter.compare_finished_position:
            theirs = adapter.position(state)
            if ours != theirs:
                bad.report("position", f"{where}: ours {ours}, OpenSpiel {theirs}")
                return len(moves)
        if over:
            outcome = record.result()
            if outcome.result != result_of(state):
                bad.report("result", f"{where}: ours {outcome}, OpenSpiel {result_of(state)}")
            if tuple(outcome.scores) != adapter.final_scores(state):
                bad.report(
                    "scores",
                    f"{where}: ours {outcome.scores}, OpenSpiel {adapter.final_scores(state)}",
                )
            return len(moves)
        actions = state.legal_actions()
        theirs = sorted(int(adapter.move(state, a)) for a in actions)
        legal = sorted(int(m) for m in record.legal_moves())
        if legal != theirs:
            bad.report("legal moves", f"{where}: ours {legal}, OpenSpiel {theirs}")
            return len(moves)
        if len(moves) >= 990:
            # why: OpenSpiel's Oware aborts the process at 1000 plies.
            bad.report("length", f"{where}: no end after {len(moves)} plies")
            return len(moves)
        action = rng.choice(actions)
        move = adapter.move(state, action)
        state.apply_action(action)
        record.play(move)
        moves.append(move)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--seed", type=int, default=20)
    args = parser.parse_args()
    bad = Mismatches()
    for adapter in (KalahAdapter(), OwareAdapter()):
        game = pyspiel.load_game(adapter.openspiel)
        start = mancala.Position.start(adapter.game_id)
        if str(start) != adapter.position(game.new_initial_state()):
            bad.report("start", f"{start} vs {adapter.position(game.new_initial_state())}")
        began = time.process_time()
        for depth in range(1, args.depth + 1):
            ours = mancala.perft(start, depth)
            theirs = openspiel_perft(adapter, game.new_initial_state(), depth, {})
            if ours != theirs:
                bad.report("perft", f"{adapter.game_id} depth {depth}: ours {ours}, OpenSpiel {theirs}")
        perft_time = time.process_time() - began
        print(f"{adapter.game_id}: perft 1..{args.depth} = {ours:,} at depth {args.depth} "
              f"({perft_time:.1f} s CPU)")
        reached = 0
        for line in (OPENINGS / f"{adapter.game_id}.txt").read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                if reach(adapter, game, line.strip()) is None:
                    bad.report("opening", f"{line.strip()} not reached by play in OpenSpiel")
                else:
                    reached += 1
        print(f"{adapter.game_id}: {reached} openings of the suite reached by play in OpenSpiel")
        rng = random.Random(args.seed)
        began = time.process_time()
        plies = sum(compare_game(adapter, game, rng, bad) for _ in range(args.games))
        print(f"{adapter.game_id}: {args.games} random games, {plies:,} plies compared "
              f"({time.process_time() - began:.1f} s CPU)")
    if bad.count:
        print(f"{bad.count} mismatches", file=sys.stderr)
        return 1
    print("OpenSpiel agrees")
    return 0


if __name__ == "__main__":
    sys.exit(main())
