"""The UMI engine loop: ``run_engine(choose, ...)`` speaks the whole protocol
of protocol-spec.md on stdin/stdout, so that a bot is one function.

``choose(record, limits)`` gets a copy of the game so far (a
:class:`mancala.GameRecord`, history rules included) and the search limits
(:class:`mancala.Limits`), and returns a legal move as a string. It runs on
a worker thread while the loop keeps answering ``isready`` and notes
``stop``; it should return once ``limits.should_stop()`` is true.

The loop, not ``choose``, owns the protocol:

- handshake: ``id name``/``id author``, ``games``, one ``option`` line per
  declared option (plus ``Move Overhead``), ``umiok``;
- ``setoption`` checked against the declarations; ``newgame``; ``position``
  validated move by move with the rules library;
- ``go`` turned into a deadline (:func:`mancala.limits.budget_ms`);
  ``go infinite`` and ``go ponder`` answer only after ``stop`` (or
  ``ponderhit``); exactly one ``bestmove`` per ``go``;
- ``go perft`` and ``d`` (debug); ``gameover``; ``quit`` or end of input;
- unknown commands ignored, malformed ones answered with
  ``info string error: ...`` (invalid UTF-8, overlong lines included).

If ``choose`` raises or returns something that is not a legal move, the loop
writes the traceback (or the bad move) to stderr and an ``info string
error`` line, and plays the first legal move instead, so a bug costs a bad
move, not the game. While the loop runs, ``print()`` goes to stderr:
stdout belongs to the protocol.
"""

from __future__ import annotations

import sys
import threading
import traceback
from typing import IO, Any, Callable, Dict, Iterable, Optional

from . import _native
from ._native import GameRecord, MancalaError, Position, ProtocolError
from .limits import Limits
from .options import OptionSpec, Spin

#: The protocol's longest line, without its newline.
MAX_LINE_BYTES = 1 << 20

MOVE_OVERHEAD = "Move Overhead"

Choose = Callable[[GameRecord, Limits], str]


def _one_line(text: str) -> str:
    """Free text for an ``info string``: one line, single spaces, printable."""
    cleaned = "".join(c if c.isprintable() else " " for c in text)
    return " ".join(cleaned.split()) or "?"


class _Output:
    """Protocol output: whole lines, flushed, from any thread."""

    def __init__(self, stream: IO[str]):
        self._stream = stream
        self._lock = threading.Lock()
        self.closed = False

    def send(self, line: str) -> None:
        with self._lock:
            if self.closed:
                return
            try:
                self._stream.write(line + "\n")
                self._stream.flush()
            except (BrokenPipeError, OSError, ValueError):
                # The GUI is gone; the read loop ends at end of input.
                self.closed = True

    def error(self, what: str) -> None:
        self.send("info string error: " + _one_line(what))


class _Search:
    """One ``go``: ``choose`` on a worker thread, and its single ``bestmove``."""

    def __init__(self, out: _Output, choose: Choose, record: GameRecord, limits: Limits):
        self._out = out
        self._choose = choose
        self._record = record
        self.limits = limits
        self._lock = threading.Lock()
        # go infinite / go ponder: the answer waits for stop (or ponderhit).
        self._hold = limits.infinite or limits.ponder
        self._answer: Optional[str] = None
        self._sent = False
        self._thread = threading.Thread(target=self._run, name="choose", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        move = self._pick()
        with self._lock:
            self._answer = move
            if not self._hold:
                self._send()

    def _pick(self) -> str:
        legal = self._record.legal_moves()
        try:
            move = self._choose(self._record.copy(), self.limits)
        except Exception:  # noqa: BLE001 - a bot's bug must not end the game
            traceback.print_exc(file=sys.stderr)
            self._out.error(f"choose raised {sys.exc_info()[0].__name__}; playing {legal[0]}")
            return legal[0]
        if isinstance(move, str) and move in legal:
            return move
        print(f"mancala: choose returned {move!r}, not one of {legal}", file=sys.stderr)
        self._out.error(f"choose returned {move!r}, not a legal move; playing {legal[0]}")
        return legal[0]

    def _send(self) -> None:
        if not self._sent and self._answer is not None:
            self._sent = True
            self._out.send("bestmove " + self._answer)

    def release(self) -> None:
        """The answer may go out (now, or as soon as ``choose`` returns)."""
        with self._lock:
            self._hold = False
            self._send()

    def ponderhit(self) -> None:
        if not self.limits.ponder:
            return
        self.limits._ponderhit()
        if not self.limits.infinite:
            self.release()

    def stop(self) -> None:
        self.limits._request_stop()
        self.release()

    def finish(self, timeout: Optional[float] = None) -> None:
        """Stops the search and waits for its ``bestmove``."""
        self.stop()
        self._thread.join(timeout)

    def abandon(self, timeout: float) -> None:
        """Stops the search without answering it (after ``quit``)."""
        with self._lock:
            self._sent = True
        self.limits._request_stop()
        self._thread.join(timeout)

    @property
    def running(self) -> bool:
        return self._thread.is_alive() or not self._sent


class _Engine:
    def __init__(
        self,
        choose: Choose,
        name: str,
        author: str,
        options: Dict[str, OptionSpec],
        games: Iterable[str],
        move_overhead: int,
        out: _Output,
    ):
        self.choose = choose
        self.out = out
        self.games = list(dict.fromkeys(games))
        if not self.games:
            raise ValueError("games: a bot must play at least one game")
        for g in self.games:
            if g not in _native.GAMES:
                raise ValueError(f"unknown game id {g!r} (known: {', '.join(_native.GAMES)})")
        specs = dict(options)
        if not any(n.lower() == MOVE_OVERHEAD.lower() for n in specs):
            specs[MOVE_OVERHEAD] = Spin(default=move_overhead, min=0, max=5000)
        self.specs: Dict[str, OptionSpec] = {}
        self.handshake = [
            _native.canonical_message("id name " + name),
            _native.canonical_message("id author " + author),
            "games " + " ".join(self.games),
        ]
        for opt_name, spec in specs.items():
            if not isinstance(spec, OptionSpec):
                raise TypeError(f"option {opt_name!r}: expected a Spin, Check, Combo, String or Button")
            key = opt_name.lower()
            if key in self.specs:
                raise ValueError(f"option {opt_name!r} is declared twice (names ignore case)")
            self.handshake.append(_native.canonical_message(spec.declaration(opt_name)))
            self.specs[key] = spec
        self.names = {n.lower(): n for n in specs}
        self.values: Dict[str, Any] = {self.names[k]: s.default for k, s in self.specs.items()}
        self.game: Optional[str] = None
        self.record: Optional[GameRecord] = None
        self.search: Optional[_Search] = None

    # -- input ------------------------------------------------------------

    def run(self, stream: IO[bytes]) -> None:
        while not self.out.closed:
            raw = stream.readline(MAX_LINE_BYTES + 2)
            if not raw:
                break
            if not raw.endswith(b"\n") and len(raw) == MAX_LINE_BYTES + 2:
                # Overlong: drop the rest of the line unread.
                while raw and not raw.endswith(b"\n"):
                    raw = stream.readline(MAX_LINE_BYTES)
                self.out.error("line longer than 1 MiB ignored")
                continue
            content = raw[:-1] if raw.endswith(b"\n") else raw
            if len(content.rstrip(b"\r")) > MAX_LINE_BYTES:
                self.out.error("line longer than 1 MiB ignored")
                continue
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as e:
                self.out.error(f"line is not valid UTF-8 (byte {e.start})")
                continue
            if not self.handle_line(line):
                break
        self.quit()

    def handle_line(self, line: str) -> bool:
        """Handles one line; ``False`` after ``quit``."""
        try:
            cmd = _native.parse_command(line)
        except ProtocolError as e:
            self.out.error(str(e))
            return True
        if cmd is None:
            return True
        kind = cmd["command"]
        if kind == "quit":
            return False
        handler = getattr(self, "on_" + kind)
        handler(cmd)
        return True

    # -- commands ---------------------------------------------------------

    def on_umi(self, _cmd: Dict[str, Any]) -> None:
        for line in self.handshake:
            self.out.send(line)
        self.out.send("umiok")

    def on_isready(self, _cmd: Dict[str, Any]) -> None:
        self.out.send("readyok")

    def on_setoption(self, cmd: Dict[str, Any]) -> None:
        if self.searching():
            self.out.error("setoption while searching is ignored")
            return
        key = cmd["name"].lower()
        spec = self.specs.get(key)
        if spec is None:
            self.out.error(f"unknown option {cmd['name']!r}")
            return
        try:
            value = spec.parse(self.names[key], cmd["value"])
        except ValueError as e:
            self.out.error(str(e))
            return
        except Exception:  # noqa: BLE001 - a button's callback failed
            traceback.print_exc(file=sys.stderr)
            self.out.error(f"option {self.names[key]}: its action failed")
            return
        self.values[self.names[key]] = value

    def on_newgame(self, cmd: Dict[str, Any]) -> None:
        self.finish_search()
        self.record = None
        if cmd["game"] not in self.games:
            self.game = None
            self.out.error(f"this engine does not play {cmd['game']} (games: {' '.join(self.games)})")
            return
        self.game = cmd["game"]

    def on_position(self, cmd: Dict[str, Any]) -> None:
        self.finish_search()
        self.record = None
        try:
            if cmd["pos"] is None:
                if self.game is None:
                    raise MancalaError("position startpos needs a game: send newgame <game-id> first")
                start = Position.start(self.game)
            else:
                start = Position.parse(cmd["pos"])
            if start.game not in self.games:
                raise MancalaError(f"this engine does not play {start.game}")
            record = GameRecord(start)
            for i, mv in enumerate(cmd["moves"], 1):
                try:
                    record.play(mv)
                except MancalaError as e:
                    raise MancalaError(f"move {i} ({mv}): {e}") from None
        except MancalaError as e:
            self.out.error(str(e))
            return
        self.game = start.game
        self.record = record

    def on_go(self, cmd: Dict[str, Any]) -> None:
        self.finish_search()
        if self.record is None:
            self.out.error("go without a valid position")
            self.out.send("bestmove (none)")
            return
        if self.record.is_over():
            self.out.error(f"go in a finished game ({self.record.result()})")
            self.out.send("bestmove (none)")
            return
        overhead = int(self.values.get(self.names[MOVE_OVERHEAD.lower()]) or 0)
        limits = Limits(cmd, self.record.side_to_move, self.values, overhead, self.out.send)
        self.search = _Search(self.out, self.choose, self.record, limits)

    def on_perft(self, cmd: Dict[str, Any]) -> None:
        self.finish_search()
        if self.record is None:
            self.out.error("go perft without a valid position")
            return
        rows = _native.divide(self.record.position, cmd["depth"])
        for mv, count in rows:
            self.out.send(f"{mv}: {count}")
        self.out.send(f"nodes {sum(n for _, n in rows) + (cmd['depth'] == 0)}")

    def on_stop(self, _cmd: Dict[str, Any]) -> None:
        if self.search is not None:
            self.search.stop()

    def on_ponderhit(self, _cmd: Dict[str, Any]) -> None:
        if self.search is not None:
            self.search.ponderhit()

    def on_gameover(self, _cmd: Dict[str, Any]) -> None:
        self.finish_search()

    def on_d(self, _cmd: Dict[str, Any]) -> None:
        if self.record is None:
            self.out.error("d without a valid position")
            return
        for line in self.record.position.render().splitlines():
            self.out.send(line)
        self.out.send(f"pos {self.record.position}")

    # -- searches ---------------------------------------------------------

    def searching(self) -> bool:
        return self.search is not None and self.search.running

    def finish_search(self) -> None:
        """A new command arrived: the running search answers first."""
        if self.search is not None:
            self.search.finish()
            self.search = None

    def quit(self) -> None:
        if self.search is not None:
            # No bestmove after quit; give choose a moment to see the stop
            # flag, then leave (the worker thread is a daemon).
            self.search.abandon(timeout=0.5)
            self.search = None


def run_engine(
    choose: Choose,
    name: str,
    author: str = "anonymous",
    options: Optional[Dict[str, OptionSpec]] = None,
    games: Optional[Iterable[str]] = None,
    move_overhead: int = 30,
    input: Optional[IO[bytes]] = None,
    output: Optional[IO[str]] = None,
    connect: Optional[str] = None,
    token: Optional[str] = None,
    connections: Optional[int] = None,
    cafile: Optional[str] = None,
) -> None:
    """Runs the UMI protocol until ``quit`` or end of input, calling
    ``choose(record, limits)`` for every ``go``.

    - ``name``, ``author``: the ``id`` lines.
    - ``options``: declared options, name to :class:`mancala.options.Spin`,
      ``Check``, ``Combo``, ``String`` or ``Button``; their values reach
      ``choose`` as ``limits.options``. A ``Move Overhead`` spin option
      (milliseconds kept back from every deadline, default ``move_overhead``)
      is added unless declared.
    - ``games``: the game ids the bot plays (default: all of them).
    - ``input``/``output``: binary input and text output streams (default
      stdin/stdout; while the loop runs on stdout, ``sys.stdout`` points to
      stderr so that ``print()`` cannot break the protocol).

    - ``connect``, ``token``: play for an arbiter elsewhere over WebSocket
      (``connect="ws://host:9000/umi"``, the organiser's token) instead of
      on stdin/stdout; see :mod:`mancala.remote`. Each connection gets a
      fresh loop; the kit reconnects by itself (``connections`` caps how
      many connections are made; default: no cap). A ``wss://`` URL is
      TLS: the arbiter's certificate is checked against the system's
      roots, or against the CA certificate(s) in ``cafile`` (PEM).

    Raises ``ValueError`` at once for a bad declaration (a name the protocol
    cannot carry, an unknown game id), before reading any input.
    """
    if connect is None and cafile is not None:
        raise ValueError("cafile= is for connect='wss://...'")
    if connect is not None:
        if token is None:
            raise ValueError("connect= needs the token= the organiser gave")
        from . import remote

        def one(stream: Any, out: Any) -> None:
            run_engine(choose, name, author, options, games, move_overhead,
                       input=stream, output=out)

        # why check first: a bad declaration is an error before connecting.
        _Engine(choose, name=name, author=author, options=options or {},
                games=_native.GAMES if games is None else games,
                move_overhead=move_overhead, out=_Output(sys.stderr))
        remote.serve(one, connect, token, connections, cafile=cafile)
        return
    engine = _Engine(
        choose,
        name=name,
        author=author,
        options=options or {},
        games=_native.GAMES if games is None else games,
        move_overhead=move_overhead,
        out=_Output(output if output is not None else sys.stdout),
    )
    saved_stdout = sys.stdout
    if output is None:
        sys.stdout = sys.stderr
    try:
        engine.run(input if input is not None else sys.stdin.buffer)
    except KeyboardInterrupt:
        engine.quit()
    finally:
        sys.stdout = saved_stdout
