#!/usr/bin/env python3
"""A test bot for the engine loop: its `Mode` option picks a behaviour.

- `first`: plays the first legal move, after reporting its limits in an
  `info string` (and printing to stdout, which must land on stderr);
- `raise`: choose raises; `illegal`: choose returns a move that is not legal;
- `wait`: waits until stopped (or the deadline), then plays the first move.
"""

from mancala import Check, Combo, Spin, String, run_engine


def choose(record, limits):
    mode = limits.options["Mode"]
    print("hello from choose")  # must not reach the protocol
    limits.info(
        string=f"mode {mode} side {limits.side.letter} time {limits.time} "
        f"deadline {'none' if limits.deadline is None else 'set'} "
        f"left {limits.time_left():.3f} depth {limits.depth} plies {len(record)} "
        f"level {limits.options['Level']} fast {limits.options['Fast']} "
        f"tag {limits.options['Tag'] or '-'}"
    )
    if mode == "raise":
        raise RuntimeError("a bug in the bot")
    if mode == "illegal":
        return "not-a-move"
    if mode == "wait":
        while not limits.should_stop():
            limits.wait(0.05)
    record.play(record.legal_moves()[0])  # the record is the bot's own copy
    return record.moves[-1]


if __name__ == "__main__":
    run_engine(
        choose,
        name="Probe Bot",
        author="kit tests",
        options={
            "Mode": Combo(default="first", vars=["first", "raise", "illegal", "wait"]),
            "Level": Spin(default=3, min=1, max=9),
            "Fast": Check(default=False),
            "Tag": String(),
        },
        games=["bohnenspiel", "bosh"],
    )
