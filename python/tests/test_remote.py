"""The kit as a remote engine: `run_engine(choose, connect=..., token=...)`
plays a match for an arbiter over WebSocket on the loopback, against the
same bot run locally, and the results log verifies; the same over TLS
(`wss://`, a certificate made by `openssl req`); and a tournament with one
remote engine through `arbiter connect` and one through the kit has the
standings of the same tournament all local. (This test lives here, not in
arbiter/tests/it/remote.rs, because only the Python suite installs the kit.)"""

import json
import shutil
import socket
import subprocess

from conftest import TEMPLATES, TIMEOUT, remote_greedy, run

TOKEN = "python-kit-token-0123456789"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_remote_python_bot_plays_a_match(arbiter_bin, bot_env, tmp_path):
    port = free_port()
    tokens = tmp_path / "tokens.json"
    tokens.write_text(json.dumps({"py": TOKEN}))
    log = tmp_path / "results.jsonl"
    bot = remote_greedy(f"ws://127.0.0.1:{port}/umi", TOKEN, bot_env, tmp_path, "Remote Greedy", 1)
    try:
        out = run(
            [
                arbiter_bin, "match",
                "--engine", f"cmd={TEMPLATES / 'greedy_bot.py'}", "name=Local",
                "--engine", "remote=py", "name=Remote",
                "--each", "tc=20+0.2", "--games", "2", "--openings", "plies=2",
                "--remote-listen", f"127.0.0.1:{port}", "--remote-tokens", tokens,
                "--remote-wait", "30", "--jsonout", log, "--stderr-dir", tmp_path / "logs",
            ],
            env=bot_env,
            cwd=tmp_path,
        )
        if out.returncode != 0:
            bot.kill()
            raise AssertionError(out.stdout + out.stderr + bot.communicate()[1])
    finally:
        try:
            bot.wait(timeout=20)
        except subprocess.TimeoutExpired:
            bot.kill()
            bot.wait()
    # One connection played both games; then the arbiter closed it.
    assert bot.returncode == 0, bot.stderr.read()
    games = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(games) == 2
    for g in games:
        assert g["termination"]["kind"] in ("rules", "adjudication"), g["termination"]
        # The remote side's moves carry their lag and compensation; the
        # local side's do not.
        lagged = [m for m in g["moves"] if "lag_ms" in m]
        assert lagged and all(m["comp_ms"] <= m["lag_ms"] for m in lagged), g["moves"]
        assert len(lagged) < len(g["moves"])
    verify = run([arbiter_bin, "verify", log])
    assert verify.returncode == 0, verify.stdout + verify.stderr


# --- TLS, and a tournament with a bridge and the kit -------------------------


def kit_bot(url, token, tmp_path, bot_env, *, cafile=None, connections=None):
    """The greedy template played over the network by the kit, as a process."""
    return remote_greedy(url, token, bot_env, tmp_path, "Remote Greedy", connections, cafile)


def self_signed(tmp_path, name):
    """A certificate for 127.0.0.1 and its key, by `openssl req` (tests/setup
    installs openssl): self-signed and not a CA, so that it is its own trust
    anchor for rustls as for OpenSSL (docs/tournaments.md, TLS)."""
    openssl = shutil.which("openssl")
    assert openssl, "openssl is not on PATH (tests/setup installs it)"
    cert, key = tmp_path / f"{name}-cert.pem", tmp_path / f"{name}-key.pem"
    out = run([
        openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
        "-nodes", "-keyout", key, "-out", cert, "-days", "2", "-subj", f"/CN={name}",
        "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
        "-addext", "basicConstraints=critical,CA:FALSE",
    ])
    assert out.returncode == 0, out.stderr
    return cert, key


def finish(proc, timeout=20):
    """Waits for a bot process (killed past `timeout`); its stderr."""
    try:
        _, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
    return err


def test_the_kit_plays_over_wss_and_refuses_an_untrusted_certificate(
        arbiter_bin, bot_env, tmp_path):
    port = free_port()
    cert, key = self_signed(tmp_path, "ours")
    other, _ = self_signed(tmp_path, "other")
    tokens = tmp_path / "tokens.json"
    tokens.write_text(json.dumps({"py": TOKEN}))
    log = tmp_path / "results.jsonl"
    event = subprocess.Popen(
        [str(a) for a in [
            arbiter_bin, "match",
            "--engine", f"cmd={TEMPLATES / 'greedy_bot.py'}", "name=Local",
            "--engine", "remote=py", "name=Remote",
            "--each", "tc=20+0.2", "--games", "2", "--openings", "plies=2",
            "--remote-listen", f"127.0.0.1:{port}", "--remote-tokens", tokens,
            "--remote-wait", "60", "--tls-cert", cert, "--tls-key", key,
            "--jsonout", log, "--stderr-dir", tmp_path / "logs",
        ]],
        env=bot_env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    wss = f"wss://127.0.0.1:{port}/umi"
    try:
        # Another certificate as the CA: a clear error at once, no retrying.
        wrong = kit_bot(wss, TOKEN, tmp_path, bot_env, cafile=other)
        err = finish(wrong, timeout=60)
        assert wrong.returncode != 0
        assert "certificate is not trusted" in err and "cafile=" in err, err
        # Plain ws:// to the TLS endpoint: told to use wss://.
        plain = kit_bot(f"ws://127.0.0.1:{port}/umi", TOKEN, tmp_path, bot_env)
        err = finish(plain, timeout=60)
        assert plain.returncode != 0
        assert "connect to wss://" in err, err

        bot = kit_bot(wss, TOKEN, tmp_path, bot_env, cafile=cert, connections=1)
        out, err = event.communicate(timeout=TIMEOUT)
        assert event.returncode == 0, out + err
        assert f"remote engines connect to wss://127.0.0.1:{port}/umi" in out, out
        bot_err = finish(bot)
        assert bot.returncode == 0, bot_err
    finally:
        if event.poll() is None:
            event.kill()
            event.communicate()
    games = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(games) == 2
    verify = run([arbiter_bin, "verify", log])
    assert verify.returncode == 0, verify.stdout + verify.stderr


def standings(text):
    """The standings table and terminations of an event's output."""
    start = text.index("Rank Name")
    end = text.index("\n", text.index("Terminations:", start))
    return text[start:end]


def field(engine_bin, remote):
    """Two local engines and two more, remote (one through `arbiter connect`,
    one through the kit) or local (the same engine and the same bot as
    processes)."""
    args = ["tournament", "--rounds", "2", "--openings", "plies=2", "--seed", "7",
            "--concurrency", "2",
            "--engine", f"cmd={engine_bin}", "name=d1", "depth=1",
            "--engine", f"cmd={engine_bin}", "name=d2", "depth=2"]
    if remote:
        args += ["--engine", "remote=d3", "name=d3", "depth=3",
                 "--engine", "remote=py", "name=greedy", "depth=1"]
    else:
        args += ["--engine", f"cmd={engine_bin}", "name=d3", "depth=3",
                 "--engine", f"cmd={TEMPLATES / 'greedy_bot.py'}", "name=greedy", "depth=1"]
    return args


def test_a_tournament_with_a_bridge_and_a_kit_bot_has_the_all_local_standings(
        arbiter_bin, engine_bin, bot_env, tmp_path):
    local = run([arbiter_bin] + field(engine_bin, remote=False) + ["--stderr-dir", tmp_path / "l"],
                env=bot_env, cwd=tmp_path)
    assert local.returncode == 0, local.stdout + local.stderr
    expected = standings(local.stdout)

    port = free_port()
    url = f"ws://127.0.0.1:{port}/umi"
    d3_token, py_token = "d3-token-0123456789abcdef", "py-token-0123456789abcdef"
    tokens = tmp_path / "tokens.json"
    tokens.write_text(json.dumps({"d3": d3_token, "py": py_token}))
    bridge = subprocess.Popen(
        [str(arbiter_bin), "connect", url, "--token", d3_token, "--slots", "2",
         "--engine", f"cmd={engine_bin}", "--stderr-dir", str(tmp_path / "b")],
        cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    # Two connections of the kit, for the games played at once.
    bots = [kit_bot(url, py_token, tmp_path, bot_env) for _ in range(2)]
    log = tmp_path / "remote.jsonl"
    try:
        remote = run([arbiter_bin] + field(engine_bin, remote=True) + [
            "--remote-listen", f"127.0.0.1:{port}", "--remote-tokens", tokens,
            "--remote-wait", "60", "--jsonout", log, "--stderr-dir", tmp_path / "r",
        ], env=bot_env, cwd=tmp_path)
    finally:
        for p in [bridge, *bots]:
            p.terminate()
        for p in [bridge, *bots]:
            finish(p)
    assert remote.returncode == 0, remote.stdout + remote.stderr
    assert standings(remote.stdout) == expected
    games = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(games) == 24
    # Both remote engines played through the network: their moves carry lag.
    for name in ["d3", "greedy"]:
        theirs = [g for g in games if name in (g["south"], g["north"])]
        assert theirs and all(any("lag_ms" in m for m in g["moves"]) for g in theirs), name
    verify = run([arbiter_bin, "verify", log])
    assert verify.returncode == 0, verify.stdout + verify.stderr


def scripted_arbiter(handlers):
    """A server on the loopback that plays the arbiter: each connection in
    turn gets the HTTP request read off it, then ``handler(conn, request)``.
    Returns the listening socket (closing it ends the script) and the
    thread."""
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    server.settimeout(TIMEOUT)

    def arbiter():
        for handler in handlers:
            try:
                conn, _ = server.accept()
            except OSError:  # closed by the test: the kit stopped early
                return
            with conn:
                conn.settimeout(TIMEOUT)
                request = b""
                while b"\r\n\r\n" not in request:
                    chunk = conn.recv(4096)
                    if not chunk:
                        break
                    request += chunk
                handler(conn, request)

    thread = threading.Thread(target=arbiter, daemon=True)
    thread.start()
    return server, thread


def test_a_refusal_with_retry_after_is_obeyed_not_hammered(monkeypatch):
    """The arbiter's 429 says when to come back (`Retry-After`): the kit
    waits that long, not its own backoff; a 429 without the header gets
    the backoff; a refused token ends it. A scripted HTTP server on the
    loopback plays the arbiter; the sleeps are recorded, not slept."""
    import mancala.remote as remote

    def answer(status, headers="", body=b""):
        # Content-Length from the body itself: a wrong one makes the
        # client's HTTP reader fail before the kit ever sees the status.
        head = f"HTTP/1.1 {status}\r\n{headers}Content-Length: {len(body)}\r\n\r\n"
        return head.encode() + body

    answers = [
        answer("429 Too Many Requests", "Retry-After: 7\r\n",
               b"py already has 1 connection(s), its limit; wait"),
        answer("429 Too Many Requests"),
        answer("429 Too Many Requests", "Retry-After: 86400\r\n"),
        answer("401 Unauthorized"),
    ]
    server, thread = scripted_arbiter(
        [lambda conn, _request, a=a: conn.sendall(a) for a in answers])
    port = server.getsockname()[1]
    slept = []
    monkeypatch.setattr(remote.time, "sleep", slept.append)
    try:
        remote.serve(lambda i, o: None, f"ws://127.0.0.1:{port}/umi", TOKEN, connections=1)
    except PermissionError as e:
        assert "refused the token" in str(e)
    else:
        raise AssertionError("the 401 did not end it")
    finally:
        server.close()
        thread.join(TIMEOUT)
    assert slept == [7.0, remote.BACKOFF_S, remote.MAX_RETRY_AFTER_S], slept


def test_a_close_reason_is_said_and_its_retry_delay_obeyed(monkeypatch, capsys):
    """A connection the arbiter closes with a reason (the arena's failed
    admission names `retry in N s`; `server stopping` names none): the kit
    prints the reason on stderr with when it tries again, waits the delay
    the reason names, backs off after another reason, and comes back at
    once after an ordinary close. A scripted WebSocket server on the
    loopback plays the arbiter; the sleeps are recorded, not slept."""
    import base64
    import hashlib

    import mancala.remote as remote

    reasons = [
        "admission failed: FAIL isready: no readyok in 5 s; retry in 10 s",
        "server stopping",
        "closed by the arbiter",
        "server stopping",
    ]
    def close_with(reason):
        def handler(conn, request):
            key = next(line.split(b":", 1)[1].strip()
                       for line in request.split(b"\r\n")
                       if line.lower().startswith(b"sec-websocket-key:"))
            accept = base64.b64encode(hashlib.sha1(
                key + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest())
            conn.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                         b"Connection: Upgrade\r\nSec-WebSocket-Accept: " + accept
                         + b"\r\n\r\n")
            payload = (1000).to_bytes(2, "big") + reason.encode()
            conn.sendall(bytes([0x88, len(payload)]) + payload)
            try:
                conn.recv(4096)  # the kit's closing frame
            except OSError:
                pass
        return handler

    server, thread = scripted_arbiter([close_with(r) for r in reasons])
    port = server.getsockname()[1]
    slept = []
    monkeypatch.setattr(remote.time, "sleep", slept.append)
    try:
        remote.serve(lambda i, o: i.readline(), f"ws://127.0.0.1:{port}/umi", TOKEN,
                     connections=len(reasons))
    finally:
        server.close()
        thread.join(TIMEOUT)
    assert slept == [10.0, remote.BACKOFF_S, remote.RECONNECT_PAUSE_S], slept
    err = capsys.readouterr().err
    assert f"closed the connection: {reasons[0]}; trying again in 10 s" in err, err
    assert "closed the connection: server stopping; trying again in 0.5 s" in err, err
    assert "closed the connection: closed by the arbiter" not in err, err
