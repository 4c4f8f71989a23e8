"""Shared fixtures: the repository's binaries and template bots.

The tests run the arbiter and the reference engine as processes. They are
found in ``$MANCALA_BIN_DIR`` (tests/suites/python.sh sets it to
target/debug after building them), else in target/debug or target/release.
A missing binary is an error, not a skip.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TEMPLATES = REPO / "python" / "templates"
BOTS = Path(__file__).resolve().parent / "bots"

#: Hang guard for one process run; never a timing assertion.
TIMEOUT = 600


def _bin_dir() -> Path:
    env = os.environ.get("MANCALA_BIN_DIR")
    candidates = [Path(env)] if env else [REPO / "target" / "debug", REPO / "target" / "release"]
    for d in candidates:
        if (d / "arbiter").is_file() and (d / "engine").is_file():
            return d
    raise RuntimeError(
        f"arbiter and engine binaries not found in {', '.join(map(str, candidates))}: "
        "run `cargo build -p arbiter -p engine` (tests/suites/python.sh does)"
    )


@pytest.fixture(scope="session")
def bin_dir() -> Path:
    return _bin_dir()


@pytest.fixture(scope="session")
def engine_bin(bin_dir) -> Path:
    return bin_dir / "engine"


@pytest.fixture(scope="session")
def arbiter_bin(bin_dir) -> Path:
    return bin_dir / "arbiter"


@pytest.fixture(scope="session")
def testbot_bin(bin_dir) -> Path:
    """The misbehaving test engine (tests/bots), built beside the arbiter."""
    path = bin_dir / "testbot"
    if not path.is_file():
        raise RuntimeError(f"{path} not found: run `cargo build -p testbots` (tests/suites/python.sh does)")
    return path


@pytest.fixture(scope="session")
def bot_env():
    """The environment for bot processes: this interpreter's bin directory
    first on PATH, so the templates' `#!/usr/bin/env python3` finds the kit."""
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    return env


def run(args, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, timeout=TIMEOUT, **kwargs
    )


def remote_greedy(url, token, bot_env, cwd, name, connections=None, cafile=None) -> subprocess.Popen:
    """The greedy template with its choose() played over the network for the
    arbiter at `url` (`run_engine(..., connect=url, token=token)`); `cafile`
    is the certificate to trust for a `wss://` url."""
    script = (
        "import sys; sys.path.insert(0, sys.argv[3]); import greedy_bot; "
        "from mancala import run_engine; "
        "run_engine(greedy_bot.choose, name=sys.argv[4], connect=sys.argv[1], "
        "token=sys.argv[2], connections=None if sys.argv[5] == 'None' else int(sys.argv[5]), "
        "cafile=sys.argv[6] or None)"
    )
    return subprocess.Popen(
        [sys.executable, "-c", script, url, token, str(TEMPLATES), name, str(connections),
         str(cafile or "")],
        env=bot_env, stderr=subprocess.PIPE, text=True, cwd=cwd,
    )


#: The lateness `arbiter check` allows over a timed search (`timemargin=`,
#: milliseconds): generous, because these tests check the bots' protocol, not
#: their speed, on a loaded machine where a Python start-up can take long.
CHECK_TIME_MARGIN_MS = 1000


def arbiter_check(arbiter_bin, engine_args, **kwargs) -> subprocess.CompletedProcess:
    """`arbiter check` on one engine, with a generous `timemargin=`."""
    return run(
        [arbiter_bin, "check", "--engine", *engine_args, f"timemargin={CHECK_TIME_MARGIN_MS}"],
        **kwargs,
    )
