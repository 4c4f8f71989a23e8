"""The engine loop over the network: ``run_engine(choose, ...,
connect="ws://host:9000/umi", token=...)`` plays for an arbiter elsewhere
(protocol-spec.md section 16) instead of on stdin/stdout.

Each WebSocket text frame is one protocol line, both ways; the token goes in
the upgrade request's ``Authorization: Bearer`` header. One connection is
one engine instance: every connection gets a fresh engine loop (fresh
options, no game), as a fresh process would. When a connection ends the
kit reconnects by itself (at once after a connection that was served,
with backoff from 0.5 s doubling to 30 s after failures); a token
the arbiter refuses raises :class:`PermissionError`. A refusal that says
when to come back (``429 Too Many Requests`` with ``Retry-After``: the
bot's connections are at their limit, or its address failed too many
token checks) is obeyed: the kit says so on stderr and waits that long
(at most 10 minutes) instead of its backoff. So is a connection the
arbiter closes with a reason (the arena's failed admission, ``…; retry in
10 s``, or ``server stopping``): the kit prints the reason on stderr with
when it tries again, waits the ``retry in N s`` the reason names (no engine
loop runs meanwhile), and backs off after any other reason.

A ``wss://`` URL is TLS (the arbiter's ``--tls-cert``): its certificate is
checked against the system's roots (Python's default context), or against
``cafile`` (PEM) for an organiser's private CA. A certificate that is not
trusted, or a ``ws://`` URL for a TLS arbiter, raises
:class:`ConnectionError` naming the cause at once: retrying would fail the
same way.

It uses the ``websockets`` package (its thread-based client; ``pip install
mancala-kit[remote]``), the Python standard for WebSockets: the loop itself
stays the same thread-based code as on stdin/stdout.
"""

from __future__ import annotations

import ssl
import sys
import time
from typing import Callable, Optional

#: First pause before reconnecting after a failed attempt, and the longest.
BACKOFF_S = 0.5
MAX_BACKOFF_S = 30.0
#: The pause after a connection that was served, before the next one.
RECONNECT_PAUSE_S = 0.1
#: The longest ``Retry-After`` obeyed.
MAX_RETRY_AFTER_S = 600.0
#: The close reason of a connection the arbiter ended as usual (to replace
#: the engine, or after its games): nothing to report, come back at once.
CLOSED_BY_ARBITER = "closed by the arbiter"


def _retry_in(reason: str) -> Optional[float]:
    """The seconds a close reason asks for (its last ``retry in N s`` or
    ``try again in N s``, as the arbiter writes them), at most
    :data:`MAX_RETRY_AFTER_S`; ``None`` when it names none."""
    for key in ("retry in ", "try again in "):
        head, found, rest = reason.rpartition(key)
        if not found:
            continue
        digits = len(rest) - len(rest.lstrip("0123456789"))
        if digits and rest[digits:].startswith(" s"):
            return min(float(rest[:digits]), MAX_RETRY_AFTER_S)
    return None


def _retry_after(response) -> Optional[float]:
    """The seconds a refusal's ``Retry-After`` header asks for (the arbiter
    sends whole seconds), at most :data:`MAX_RETRY_AFTER_S`; ``None``
    without a usable one."""
    value = response.headers.get("Retry-After")
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        return None
    if seconds != seconds or seconds < 0:  # NaN or negative
        return None
    return min(seconds, MAX_RETRY_AFTER_S)


class _FrameInput:
    """A binary line stream over received text frames (what the loop reads)."""

    def __init__(self, ws):
        self._ws = ws

    def readline(self, limit: int = -1) -> bytes:
        from websockets.exceptions import ConnectionClosed

        try:
            frame = self._ws.recv()
        except ConnectionClosed:
            return b""
        if isinstance(frame, bytes):
            # Binary frames are not UMI; the arbiter never sends one.
            return b"\n"
        return frame.encode("utf-8") + b"\n"


class _FrameOutput:
    """A text stream whose every line goes out as one text frame."""

    def __init__(self, ws):
        self._ws = ws
        self._pending = ""

    def write(self, text: str) -> int:
        self._pending += text
        while "\n" in self._pending:
            line, self._pending = self._pending.split("\n", 1)
            from websockets.exceptions import ConnectionClosed

            try:
                self._ws.send(line)
            except ConnectionClosed as e:
                # What the loop's output expects of a closed pipe: it stops
                # writing, and the read side sees the end.
                raise BrokenPipeError(str(e)) from e
        return len(text)

    def flush(self) -> None:
        pass


def _tls_context(url: str, cafile: Optional[str]) -> Optional[ssl.SSLContext]:
    """The TLS context of a ``wss://`` URL (``None`` for ``ws://``)."""
    if url.startswith("wss://"):
        return ssl.create_default_context(cafile=cafile)
    if cafile is not None:
        raise ValueError(f"cafile= is for a wss:// URL, not {url}")
    return None


def serve(run_one: Callable[[object, object], None], url: str, token: str,
          connections: Optional[int] = None, cafile: Optional[str] = None) -> None:
    """Connects to ``url`` with ``token`` and runs ``run_one(input, output)``
    on each connection, reconnecting with backoff; ``connections`` caps how
    many are made (``None``: forever); ``cafile``: the CA of a ``wss://``
    arbiter's certificate (default: the system's roots)."""
    try:
        from websockets.sync.client import connect
        from websockets.exceptions import InvalidMessage, InvalidStatus
    except ImportError as e:  # pragma: no cover - depends on the install
        raise ImportError(
            "connect= needs the websockets package: pip install 'mancala-kit[remote]'"
        ) from e
    tls = _tls_context(url, cafile)
    backoff = BACKOFF_S
    made = 0
    while connections is None or made < connections:
        served = False
        told = None
        closed = None
        try:
            with connect(
                url,
                ssl=tls,
                additional_headers={"Authorization": f"Bearer {token}"},
                max_size=2 * (1 << 20),
                # The arbiter pings; answering is enough.
                ping_interval=None,
            ) as ws:
                made += 1
                served = True
                run_one(_FrameInput(ws), _FrameOutput(ws))
            closed = (ws.close_reason or "").strip()
        except InvalidStatus as e:
            if e.response.status_code == 401:
                raise PermissionError(f"{url}: the arbiter refused the token") from e
            if e.response.status_code == 429:
                told = _retry_after(e.response)
                if told is not None:
                    why = (e.response.body or b"").decode("utf-8", "replace").strip()
                    print(f"mancala: {url}: refused for now ({why or 'too many requests'}); "
                          f"trying again in {told:g} s", file=sys.stderr, flush=True)
        except ssl.SSLCertVerificationError as e:
            raise ConnectionError(
                f"{url}: the arbiter's certificate is not trusted ({e.verify_message}); "
                "give the CA that signed it as cafile="
            ) from e
        except ssl.SSLError as e:
            raise ConnectionError(
                f"{url}: TLS handshake failed ({e}); does the arbiter serve TLS? "
                "If not, connect to ws://"
            ) from e
        except InvalidMessage as e:
            if url.startswith("ws://"):
                # why at once: a TLS listener answers a plain request with
                # a TLS alert, no HTTP at all; retrying fails the same way.
                raise ConnectionError(
                    f"{url}: the arbiter did not answer with HTTP ({e}); "
                    "if it serves TLS, connect to wss://"
                ) from e
        except OSError:
            pass
        if connections is not None and made >= connections:
            return
        if served and closed and closed != CLOSED_BY_ARBITER:
            # why: the arbiter ended it with a reason the bot's author needs
            # to see (the log level of a library is not where they look).
            wait = _retry_in(closed)
            if wait is None:
                wait = backoff
                backoff = min(backoff * 2, MAX_BACKOFF_S)
            else:
                backoff = BACKOFF_S
            print(f"mancala: {url}: the arbiter closed the connection: {closed}; "
                  f"trying again in {wait:g} s", file=sys.stderr, flush=True)
            time.sleep(wait)
        elif served:
            # The arbiter closes a connection to replace the engine and
            # waits for the next one: come back at once.
            backoff = BACKOFF_S
            time.sleep(RECONNECT_PAUSE_S)
        elif told is not None:
            # The arbiter said when: then, not sooner (nor later).
            time.sleep(told)
        else:
            time.sleep(backoff)
            backoff = min(backoff * 2, MAX_BACKOFF_S)
