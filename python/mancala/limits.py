"""What ``choose(record, limits)`` is allowed to spend: the ``go`` command's
fields, turned into one deadline, and the ``stop`` flag."""

from __future__ import annotations

import math
import threading
import time
from typing import Any, Callable, Dict, Iterable, Optional

from ._native import Side

#: Moves assumed left in a sudden-death game (no ``movestogo``).
DEFAULT_MOVES_TO_GO = 25


def budget_ms(go: Dict[str, Any], side: Side, overhead_ms: int) -> Optional[int]:
    """Milliseconds to think for one move, or ``None`` when ``go`` sets no
    clock: ``movetime`` minus the overhead; with a clock, the time left
    shared over ``movestogo`` (default 25) plus three quarters of the
    increment, never more than half the clock (nine tenths on the last move
    before the time control)."""
    if go.get("movetime") is not None:
        return max(1, go["movetime"] - overhead_ms)
    south = side == Side.SOUTH
    left = go.get("p1time" if south else "p2time")
    if left is None:
        return None
    inc = go.get("p1inc" if south else "p2inc") or 0
    avail = max(0, left - overhead_ms)
    mtg = min(max(go.get("movestogo") or DEFAULT_MOVES_TO_GO, 1), 100)
    share = avail // mtg + inc * 3 // 4
    cap = avail * 9 // 10 if mtg == 1 else avail // 2
    return max(1, min(share, cap))


class Limits:
    """The limits of one search, for ``choose`` to respect.

    - ``deadline``: the ``time.monotonic()`` instant by which ``choose``
      should have returned, or ``None`` (no clock: ``depth``/``nodes`` only,
      ``infinite``, or a ponder search before ``ponderhit``). It can move: on
      ``ponderhit`` it is set from the clock.
    - ``time_left()``: seconds until the deadline (``math.inf`` without one).
    - ``stopped``: ``True`` once ``stop`` (or ``quit``) arrived: return at once.
    - ``should_stop()``: stopped, or the deadline has passed. Check it often.
    - ``depth``, ``nodes``, ``movetime``: the ``go`` fields (``None`` if absent).
    - ``time``, ``inc``, ``opponent_time``, ``opponent_inc``, ``movestogo``:
      the clocks in milliseconds, from the mover's point of view.
    - ``infinite``, ``ponder``: the ``go`` flags.
    - ``side``: the side to move; ``options``: the option values by name.
    - ``info(...)``: send an ``info`` line (depth, score in centi-seeds,
      nodes, pv, free text) for the GUI and the logs.
    """

    def __init__(
        self,
        go: Dict[str, Any],
        side: Side,
        options: Dict[str, Any],
        overhead_ms: int,
        send: Callable[[str], None],
        started: Optional[float] = None,
    ):
        self._go = dict(go)
        self._overhead_ms = overhead_ms
        self._send = send
        self._stop = threading.Event()
        self.side = side
        self.options = dict(options)
        self.depth: Optional[int] = go.get("depth")
        self.nodes: Optional[int] = go.get("nodes")
        self.movetime: Optional[int] = go.get("movetime")
        self.movestogo: Optional[int] = go.get("movestogo")
        self.infinite: bool = bool(go.get("infinite"))
        self.ponder: bool = bool(go.get("ponder"))
        me, them = ("p1", "p2") if side == Side.SOUTH else ("p2", "p1")
        self.time: Optional[int] = go.get(me + "time")
        self.inc: Optional[int] = go.get(me + "inc")
        self.opponent_time: Optional[int] = go.get(them + "time")
        self.opponent_inc: Optional[int] = go.get(them + "inc")
        self.deadline: Optional[float] = None
        if not self.infinite and not self.ponder:
            self._start_clock(time.monotonic() if started is None else started)

    def _start_clock(self, now: float) -> None:
        ms = budget_ms(self._go, self.side, self._overhead_ms)
        self.deadline = None if ms is None else now + ms / 1000.0

    def _ponderhit(self) -> None:
        """The ponder move was played: the clock runs from now."""
        self.ponder = False
        if not self.infinite:
            self._start_clock(time.monotonic())

    def _request_stop(self) -> None:
        self._stop.set()

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    def time_left(self) -> float:
        """Seconds until the deadline; ``math.inf`` when there is none."""
        deadline = self.deadline
        return math.inf if deadline is None else deadline - time.monotonic()

    def should_stop(self) -> bool:
        return self._stop.is_set() or self.time_left() <= 0

    def wait(self, seconds: float) -> bool:
        """Sleeps up to ``seconds`` (less if stopped); ``True`` if stopped."""
        return self._stop.wait(max(0.0, min(seconds, self.time_left())))

    def info(
        self,
        depth: Optional[int] = None,
        score: Optional[int] = None,
        nodes: Optional[int] = None,
        pv: Optional[Iterable[str]] = None,
        string: Optional[str] = None,
    ) -> None:
        """Sends ``info depth D score cp S nodes N pv M... string TEXT``
        (fields given only); ``score`` is in centi-seeds for the side to move."""
        parts = ["info"]
        if depth is not None:
            parts += ["depth", str(int(depth))]
        if score is not None:
            parts += ["score", "cp", str(int(score))]
        if nodes is not None:
            parts += ["nodes", str(int(nodes))]
        if pv:
            parts += ["pv", *pv]
        if string:
            parts += ["string", " ".join(str(string).split())]
        self._send(" ".join(parts))
