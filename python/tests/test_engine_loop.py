"""`run_engine` against real processes: the arbiter's conformance check on
both Python templates and the Node.js bot, and the protocol details the
check does not reach (ponder, held answers, the bot's own mistakes, option
values, malformed bytes), through the probe bot in tests/bots."""

import io
import queue
import subprocess
import threading

import pytest

import mancala
from conftest import BOTS, TEMPLATES, arbiter_check, run

#: Hang guard when waiting for a line; never a timing assertion.
WAIT = 60


class Bot:
    """A bot process: send lines, read lines (with a hang guard)."""

    def __init__(self, args, env):
        self.proc = subprocess.Popen(
            [str(a) for a in args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        self.lines = queue.Queue()
        self.stderr = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=lambda: self.stderr.extend(self.proc.stderr), daemon=True).start()

    def _read(self):
        for raw in self.proc.stdout:
            self.lines.put(raw.decode("utf-8").rstrip("\n"))
        self.lines.put(None)

    def send(self, *lines, raw=None):
        data = raw if raw is not None else "".join(line + "\n" for line in lines).encode()
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def read_until(self, predicate):
        """Lines up to and including the first one `predicate` accepts."""
        seen = []
        while True:
            line = self.lines.get(timeout=WAIT)
            if line is None:
                raise AssertionError(f"bot exited; saw {seen}")
            seen.append(line)
            if predicate(line):
                return seen

    def sync(self):
        """Lines printed before the answer to a fresh `isready`."""
        self.send("isready")
        return self.read_until(lambda line: line == "readyok")[:-1]

    def close(self):
        if self.proc.poll() is None:
            self.send("quit")
        status = self.proc.wait(timeout=WAIT)
        self.proc.stdin.close()
        return status


@pytest.fixture
def probe(bot_env):
    bot = Bot([BOTS / "probe_bot.py"], bot_env)
    bot.send("umi")
    handshake = bot.read_until(lambda line: line == "umiok")
    bot.handshake = handshake
    yield bot
    if bot.proc.poll() is None:
        bot.proc.kill()
        bot.proc.wait()


def bestmoves(lines):
    return [line for line in lines if line.startswith("bestmove")]


CHECKED = {
    "random_bot.py": lambda engine: [],
    "greedy_bot.py": lambda engine: [],
    "node_bot.js": lambda engine: [f"arg={engine}"],
}


@pytest.mark.parametrize("bot", sorted(CHECKED))
def test_arbiter_check_passes(arbiter_bin, engine_bin, bot_env, tmp_path, bot):
    out = arbiter_check(
        arbiter_bin, [f"cmd={TEMPLATES / bot}", *CHECKED[bot](engine_bin)], env=bot_env, cwd=tmp_path
    )
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    assert lines and all(line.startswith("PASS ") for line in lines), out.stdout
    for check in ["handshake", "stop", "positions:kujifunza", "malformed-input", "quit"]:
        assert any(line.startswith(f"PASS {check} ") for line in lines), check


def test_arbiter_check_reports_a_failure(arbiter_bin, bot_env, tmp_path):
    """The check above can fail: asked to set an option the bot does not
    declare, it fails `options` and exits with status 1."""
    out = run(
        [arbiter_bin, "check", "--engine", f"cmd={BOTS / 'probe_bot.py'}", "option.Undeclared=1"],
        env=bot_env,
        cwd=tmp_path,
    )
    assert out.returncode == 1, out.stdout + out.stderr
    assert "FAIL options" in out.stdout


def test_handshake_declares_options_and_games(probe):
    assert probe.handshake[:3] == ["id name Probe Bot", "id author kit tests", "games bohnenspiel bosh"]
    assert "option name Mode type combo default first var first var raise var illegal var wait" in probe.handshake
    assert "option name Level type spin default 3 min 1 max 9" in probe.handshake
    assert "option name Fast type check default false" in probe.handshake
    assert "option name Tag type string default <empty>" in probe.handshake
    assert "option name Move Overhead type spin default 30 min 0 max 5000" in probe.handshake


def test_option_values_reach_choose_and_bad_ones_are_refused(probe):
    probe.send(
        "setoption name level value 7",
        "setoption name Fast value true",
        "setoption name Tag value two words",
        "setoption name Level value 10",
        "setoption name Nope value 1",
        "setoption name Fast value yes",
    )
    errors = probe.sync()
    assert errors == [
        "info string error: option Level: 10 is outside 1..9",
        "info string error: unknown option 'Nope'",
        "info string error: option Fast: expected true or false, got 'yes'",
    ]
    probe.send("newgame bosh", "position startpos moves 3", "go depth 4")
    lines = probe.read_until(lambda line: line.startswith("bestmove"))
    info = [line for line in lines if line.startswith("info string mode")][0]
    assert "side N" in info and "depth 4" in info and "plies 1" in info
    assert "deadline none" in info
    assert "level 7 fast True tag two words" in info
    assert lines[-1] == "bestmove 6"  # the first legal move
    assert probe.close() == 0
    assert "hello from choose" not in "\n".join(lines)
    assert any(b"hello from choose" in line for line in probe.stderr)


def test_clock_becomes_a_deadline(probe):
    probe.send("newgame bohnenspiel", "position startpos", "go p1time 60000 p2time 1000")
    info = [line for line in probe.read_until(lambda l: l.startswith("bestmove")) if "mode" in line][0]
    assert "time 60000" in info and "deadline set" in info
    # (60000 - 30) / 25 = 2398 ms at most.
    left = float(info.split(" left ")[1].split()[0])
    assert left <= 2.398


def test_infinite_search_answers_only_after_stop(probe):
    probe.send("setoption name Mode value first", "newgame bohnenspiel", "position startpos", "go infinite")
    before = probe.sync()  # readyok while "searching": choose has long returned
    before += probe.sync()
    assert bestmoves(before) == []
    probe.send("stop")
    assert bestmoves(probe.read_until(lambda l: l.startswith("bestmove"))) == ["bestmove 1"]
    probe.send("stop")  # ignored when idle: no second bestmove
    assert bestmoves(probe.sync()) == []


def test_ponder_then_ponderhit(probe):
    probe.send("setoption name Mode value wait", "newgame bohnenspiel", "position startpos moves 1",
               "go ponder p1time 10 p2time 1000")
    lines = probe.sync()
    assert bestmoves(lines) == []
    probe.send("ponderhit")  # the clock (1000 ms for North) runs: the wait ends by itself
    lines = probe.read_until(lambda l: l.startswith("bestmove"))
    first = mancala.Position.start("bohnenspiel").play("1").legal_moves()[0]
    assert bestmoves(lines) == [f"bestmove {first}"]
    assert bestmoves(probe.sync()) == []


def test_waiting_search_ends_on_stop_and_new_commands_end_it_first(probe):
    probe.send("setoption name Mode value wait", "newgame bosh", "position startpos", "go infinite")
    assert bestmoves(probe.sync()) == []
    probe.send("position startpos moves 1")  # the running search answers first
    lines = probe.sync()
    assert bestmoves(lines) == ["bestmove 1"]
    probe.send("go infinite", "stop")
    first = mancala.Position.start("bosh").play("1").legal_moves()[0]
    assert bestmoves(probe.read_until(lambda l: l.startswith("bestmove"))) == [f"bestmove {first}"]


@pytest.mark.parametrize("mode", ["raise", "illegal"])
def test_a_broken_choose_still_plays_a_legal_move(probe, mode):
    probe.send(f"setoption name Mode value {mode}", "newgame bohnenspiel", "position startpos", "go movetime 500")
    lines = probe.read_until(lambda l: l.startswith("bestmove"))
    assert lines[-1] == "bestmove 1"
    errors = [line for line in lines if line.startswith("info string error")]
    assert len(errors) == 1 and "playing 1" in errors[0]
    assert probe.close() == 0
    stderr = b"".join(probe.stderr).decode()
    assert ("RuntimeError: a bug in the bot" in stderr) if mode == "raise" else ("'not-a-move'" in stderr)


def test_malformed_input_is_answered_and_survived(probe):
    probe.send(raw=b"\xff\xfe junk\n")
    probe.send(raw=b"position " + b"x" * (1 << 20) + b"\n")
    probe.send(
        "xyzzy ignored entirely",
        "",
        "go depth",
        "newgame chess",
        "newgame kimasai",
        "position startpos moves 1",
        "go",
        "newgame bohnenspiel",
        "position startpos moves 1 2",
        "go movetime 50",
        "position pos bohnenspiel 6,6,6 S 0/0",
        "go perft 1",
        "d",
    )
    lines = probe.sync()
    assert lines[0] == "info string error: line is not valid UTF-8 (byte 0)"
    assert lines[1] == "info string error: line longer than 1 MiB ignored"
    assert lines[2].startswith("info string error: ") and "depth" in lines[2]
    assert lines[3].startswith("info string error: ") and "chess" in lines[3]
    assert lines[4] == "info string error: this engine does not play kimasai (games: bohnenspiel bosh)"
    assert lines[5] == "info string error: position startpos needs a game: send newgame <game-id> first"
    assert lines[6:8] == ["info string error: go without a valid position", "bestmove (none)"]
    assert lines[8].startswith("info string error: move 2 (2): illegal move 2")
    assert lines[9:11] == ["info string error: go without a valid position", "bestmove (none)"]
    assert lines[11] == "info string error: invalid holes: expected 12 holes, found 3"
    assert lines[12] == "info string error: go perft without a valid position"
    assert lines[13] == "info string error: d without a valid position"
    assert len(lines) == 14
    assert probe.close() == 0


def test_debug_commands(probe):
    probe.send("newgame bohnenspiel", "position startpos moves 4", "go perft 2", "d")
    lines = probe.sync()
    after = mancala.Position.start("bohnenspiel").play("4")
    divide = mancala.divide(after, 2)
    assert lines[: len(divide)] == [f"{mv}: {n}" for mv, n in divide]
    assert lines[len(divide)] == f"nodes {sum(n for _, n in divide)}"
    assert lines[len(divide) + 1 : -1] == after.render().splitlines()
    assert lines[-1] == f"pos {after}"


def test_end_of_input_exits_cleanly(bot_env):
    bot = Bot([TEMPLATES / "random_bot.py"], bot_env)
    bot.proc.stdin.close()
    assert bot.proc.wait(timeout=WAIT) == 0


def test_quit_during_a_search_sends_no_bestmove(probe):
    probe.send("setoption name Mode value wait", "newgame bosh", "position startpos", "go infinite")
    assert bestmoves(probe.sync()) == []
    probe.send("quit")
    assert probe.proc.wait(timeout=WAIT) == 0
    rest = []
    while (line := probe.lines.get(timeout=WAIT)) is not None:
        rest.append(line)
    assert bestmoves(rest) == []


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"games": ["chess"]}, "unknown game id 'chess'"),
        ({"games": []}, "at least one game"),
        ({"options": {"my value": mancala.Spin(1, 0, 2)}}, "value"),
        ({"options": {"A": mancala.Check(), "a": mancala.Check()}}, "declared twice"),
        ({"name": "bell\x07"}, "id name"),
    ],
)
def test_bad_declarations_raise_before_reading_input(kwargs, message):
    args = {"name": "Bad", **kwargs}
    out = io.StringIO()
    with pytest.raises(ValueError, match=message):
        mancala.run_engine(lambda r, l: r.legal_moves()[0], input=io.BytesIO(b"umi\n"), output=out, **args)
    assert out.getvalue() == ""


def test_bad_option_specs_raise():
    with pytest.raises(ValueError):
        mancala.Spin(default=5, min=0, max=3)
    with pytest.raises(ValueError):
        mancala.Combo(default="x", vars=["a", "b"])
