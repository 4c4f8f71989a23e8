#!/usr/bin/env python3
"""A UMI engine that plays OpenSpiel's own agents at Kalah and Oware, for the
strength figures of BENCHMARKS.md (the reference engine against OpenSpiel
at equal time).

The Python kit (python/, `mancala.run_engine`) speaks the protocol and checks
every position; each move is chosen by OpenSpiel on OpenSpiel's own game
(`pyspiel.load_game("mancala")` or `"oware"`), the game so far replayed into
it move by move (tests/openspiel/notation.py maps the notation both ways):

- `Agent alphabeta`: `open_spiel.python.algorithms.minimax.alpha_beta_search`
  by iterative deepening (depth 1, 2, ... until the move's time is spent;
  the unfinished depth is abandoned and the last finished depth's move
  played). OpenSpiel ships no heuristic for these games; the value at the
  depth limit is the store difference, as a fraction of the seeds (inside
  (-1, 1), below a won game's 1).
- `Agent mcts`: OpenSpiel's C++ `pyspiel.MCTSBot` (UCT, c = `UctC`/100,
  one random rollout per leaf, the solver on), limited by its own
  `max_wall_clock_time` to the move's time.
- `Agent mcts-py`: OpenSpiel's Python `open_spiel.python.algorithms.mcts.MCTSBot`
  with random rollouts and a fixed `Simulations` count (it has no clock).

The move's time is the kit's budget (`movetime`, or the clock shared over
the moves left) less `Move Overhead`. OpenSpiel's Python API cannot set up
a board, so a game from an opening position starts from a state reached by
play from OpenSpiel's start (`notation.reach`, a few plies); a start
position it cannot reach that way is reported (`info string error`) and the
kit then plays its first legal move.

Run it with the venv that has both the kit and OpenSpiel (tests/setup.d):
    arbiter match --engine cmd=engine \\
      --engine cmd=target/venv/bin/python arg=bench/openspiel_umi.py option.Agent=mcts ...
"""

import os
import sys
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts, minimax

from mancala import Combo, Spin, run_engine

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "openspiel"))
from notation import ADAPTERS, action_of, reach  # noqa: E402

AGENTS = ("alphabeta", "mcts", "mcts-py")


class _OutOfTime(Exception):
    """Raised from the value function: the move's time is spent."""


class Games:
    """OpenSpiel's game per id, and the states reached for start positions
    (searching one costs a little, and every game of an opening replays it)."""

    def __init__(self):
        self.games = {}
        self.starts = {}

    def state(self, record):
        """OpenSpiel's state for the game so far, checked against the
        project's position after every move."""
        adapter = ADAPTERS.get(record.game)
        if adapter is None:
            raise ValueError(f"OpenSpiel plays only {', '.join(ADAPTERS)}, not {record.game}")
        game = self.games.setdefault(record.game, pyspiel.load_game(adapter.openspiel))
        start = str(record.start)
        if start not in self.starts:
            self.starts[start] = reach(adapter, game, start)
        if self.starts[start] is None:
            raise ValueError(f"OpenSpiel cannot reach the start position {start} by play (a few plies from its start at most)")
        state = self.starts[start].clone()
        for move in record.moves:
            action = action_of(adapter, state, move)
            if action is None:
                raise ValueError(f"move {move} is not legal in OpenSpiel's {state}")
            state.apply_action(action)
        if adapter.position(state) != str(record.position):
            raise ValueError(f"OpenSpiel's state {adapter.position(state)} is not {record.position}")
        return adapter, game, state


def stores(adapter, state):
    return [int(s) for s in adapter.position(state).split()[-1].split("/")]


def seeds(adapter, state):
    """All seeds of the game (board and stores)."""
    _, holes, _, _ = adapter.position(state).split()
    return sum(int(n) for n in holes.split(",")) + sum(stores(adapter, state))


def store_value(adapter, player, total):
    """The value at the depth limit for `player`: the store difference as a
    fraction of all seeds, checking the clock (the search's leaves)."""

    def value(state, deadline):
        if time.monotonic() >= deadline:
            raise _OutOfTime
        mine, theirs = stores(adapter, state)[player], stores(adapter, state)[1 - player]
        return (mine - theirs) / (2 * total)

    return value


def alphabeta(adapter, game, state, limits):
    player = state.current_player()
    deadline = limits.deadline if limits.deadline is not None else time.monotonic() + 1.0
    total = seeds(adapter, state)
    value = store_value(adapter, player, total)
    best, depth = None, 0
    while not limits.should_stop():
        try:
            score, action = minimax.alpha_beta_search(
                game, state=state.clone(),
                value_function=lambda s: value(s, deadline),
                maximum_depth=depth + 1, maximizing_player_id=player)
        except _OutOfTime:
            break
        depth += 1
        best = action
        limits.info(depth=depth, score=round(score * 2 * total * 100),
                    pv=[adapter.move(state, action)])
        if abs(score) >= 1 or (limits.depth is not None and depth >= limits.depth):
            break  # a proven result, or the depth asked for
    return best


def mcts_cpp(game, state, limits):
    seconds = limits.time_left()
    seconds = 1.0 if seconds == float("inf") else max(seconds, 0.001)
    seed = limits.options["RandomSeed"] + len(state.history())
    bot = pyspiel.MCTSBot(
        game, pyspiel.RandomRolloutEvaluator(1, seed), limits.options["UctC"] / 100,
        1_000_000_000, 1000, True, seed, False, max_wall_clock_time=seconds)
    return bot.step(state)


def mcts_python(game, state, limits):
    # why numpy's generator: OpenSpiel's MCTS calls numpy's `choice(p=...)`.
    rng = np.random.RandomState(limits.options["RandomSeed"] + len(state.history()))
    bot = mcts.MCTSBot(
        game, limits.options["UctC"] / 100, limits.options["Simulations"],
        mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    return bot.step(state)


def main():
    games = Games()

    def choose(record, limits):
        adapter, game, state = games.state(record)
        agent = limits.options["Agent"]
        if agent == "alphabeta":
            action = alphabeta(adapter, game, state, limits)
            if action is None:  # not even depth 1 in time: any legal action
                action = state.legal_actions()[0]
        elif agent == "mcts":
            action = mcts_cpp(game, state, limits)
        else:
            action = mcts_python(game, state, limits)
        return adapter.move(state, action)

    run_engine(
        choose,
        name="OpenSpiel agents",
        author="OpenSpiel 2.0.2 via bench/openspiel_umi.py",
        games=list(ADAPTERS),
        options={
            "Agent": Combo(default="alphabeta", vars=AGENTS),
            "UctC": Spin(default=200, min=1, max=10_000),
            "Simulations": Spin(default=1000, min=1, max=10_000_000),
            "RandomSeed": Spin(default=0, min=0, max=2**31 - 1),
        },
    )


if __name__ == "__main__":
    main()
