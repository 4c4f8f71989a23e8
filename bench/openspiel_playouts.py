#!/usr/bin/env python3
"""Random playouts per CPU second of OpenSpiel's `mancala` (Kalah) and `oware`
driven through its Python API (pyspiel), for BENCHMARKS.md: uniformly random
legal moves from the start until the game ends, as `engine bench` plays
them. Usage: bench/openspiel_playouts.py [seconds per game]"""

import random
import sys
import time

import pyspiel


def playouts(name, seconds):
    game = pyspiel.load_game(name)
    rng = random.Random(1)
    games = plies = 0
    began = time.process_time()
    while time.process_time() - began < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            plies += 1
        games += 1
    spent = time.process_time() - began
    return games / spent, plies / games


if __name__ == "__main__":
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    for name in ("mancala", "oware"):
        rate, length = playouts(name, seconds)
        print(f"{name}: {rate:,.0f} playouts per CPU second, {length:.1f} plies each")
