#!/usr/bin/env python3
"""Template: a bot that plays a random legal move, in every game.

Run it under the arbiter (after `pip install ./python`):
    arbiter check --engine cmd=python/templates/random_bot.py
"""

import random

from mancala import Spin, run_engine


def choose(record, limits):
    # Seeded by the option and the position: the same game replays the same way.
    rng = random.Random(f"{limits.options['Seed']} {record.position} {len(record)}")
    return rng.choice(record.legal_moves())


if __name__ == "__main__":
    run_engine(
        choose,
        name="Random Bot",
        author="mancala kit template",
        options={"Seed": Spin(default=0, min=0, max=2**31 - 1)},
    )
