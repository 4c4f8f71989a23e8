"""Fixtures for the browser-board tests: a real `arbiter serve` process and a
real headless Chromium driven over WebDriver (Debian's chromium and
chromedriver; selenium is pointed at them, so nothing is downloaded)."""

import os
import re
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(os.environ.get("ARBITER_BIN_DIR", ROOT / "target" / "debug"))
ARBITER = BIN / "arbiter"
TESTBOT = BIN / "testbot"
# A hang guard only (the machine is loaded); no test depends on speed.
WAIT = 60


def arbiter(*args):
    """Runs the arbiter CLI and returns its stdout."""
    return subprocess.run([str(ARBITER), *args], check=True, capture_output=True,
                          text=True, timeout=WAIT).stdout


def engine_cli(*args):
    """Runs the reference engine's CLI (`engine tb …`) and returns its stdout."""
    return subprocess.run([str(BIN / "engine"), *args], check=True, capture_output=True,
                          text=True, timeout=WAIT).stdout


def rules_position(start, moves):
    """The position after `moves` from `start`, as the rules library says
    (through `arbiter show`), and the result line if the game is over."""
    out = arbiter("show", start, *moves)
    position = re.search(r"^position: (.*)$", out, re.M).group(1)
    over = re.search(r"^game over: (\S+)", out, re.M)
    return position, over.group(1) if over else "ongoing"


def reference_match(directory, game, games, levels, *each):
    """A JSON-lines log of a match between Levels of the reference engine
    (`levels`: name -> Level), whose moves carry scores and depths."""
    log = directory / "games.jsonl"
    args = ["match", "--game", game, "--games", str(games)]
    for name, level in levels.items():
        args += ["--engine", f"cmd={BIN / 'engine'}", f"name={name}", f"option.Level={level}"]
    arbiter(*args, "--each", *each, "--jsonout", str(log), "--stderr-dir", str(directory / "stderr"))
    return log


# The pid of the session's server, for the tests that count its engines.
SERVER_PID = [None]


# The arbiter's engine watchdog (arbiter/core/src/contender/watchdog.rs) is a child of
# the server too, for its whole life; it is not an engine.
WATCHDOG_ARG = b"--internal-engine-watchdog"


def engine_children(pid):
    """Live processes whose parent is `pid` (the server's engines)."""
    children = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmdline = (stat.parent / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        # fields[0] is the state, fields[1] the parent pid; zombies are gone.
        if fields[1] == str(pid) and fields[0] != "Z" and WATCHDOG_ARG not in cmdline:
            children.append(int(stat.parent.name))
    return children


def stop(proc):
    """Ends a server: SIGTERM (a server drains: `serve` lets a page's game
    in progress go on), a second SIGTERM if it is still up a moment later
    (it stops at once), then SIGKILL if it does not go in time."""
    proc.terminate()
    try:
        proc.wait(timeout=2)
        return
    except subprocess.TimeoutExpired:
        pass
    proc.terminate()
    try:
        proc.wait(timeout=WAIT)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def lingering_page(proc):
    """The live page's URL of an event run with `--live … --live-linger`,
    once it has ended and the arbiter says the page stays."""
    url = re.search(r"live page at (http://\S+)", proc.stdout.readline()).group(1)
    deadline = time.monotonic() + 120
    lingering = False
    while time.monotonic() < deadline and not lingering:
        line = proc.stdout.readline()
        if not line:
            break
        lingering = "stays at" in line
    assert lingering, proc.stderr.read() if proc.poll() is not None else "no linger line"
    assert proc.poll() is None, "the arbiter exited during --live-linger"
    return url


def start_live(args):
    """Starts an arbiter event run with `--live`; its process and the live
    page's URL (the first line it prints)."""
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    match = re.search(r"live page at (http://\S+)", line)
    if not match:
        proc.kill()
        raise RuntimeError(f"no live address: {line!r} {proc.stderr.read()}")
    return proc, match.group(1)


def start_server(*extra):
    proc = subprocess.Popen(
        [str(ARBITER), "serve", "--listen", "127.0.0.1:0", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    match = re.search(r"(http://\S+)", line)
    if not match:
        proc.kill()
        raise RuntimeError(f"arbiter serve did not print its address: {line!r} {proc.stderr.read()}")
    return proc, match.group(1).rstrip("/")


@pytest.fixture(scope="session")
def game_log(tmp_path_factory):
    """A real log: one Bosh game between two testbots, played by `arbiter match`."""
    d = tmp_path_factory.mktemp("log")
    pgn = d / "games.pgn"
    bot = str(TESTBOT)
    arbiter("match", "--game", "bosh", "--games", "1",
            "--engine", f"cmd={bot}", "name=Alpha", "arg=--mode", "arg=random", "arg=--seed", "arg=3",
            "--engine", f"cmd={bot}", "name=Beta", "arg=--mode", "arg=random", "arg=--seed", "arg=4",
            "--each", "st=1", "--max-plies", "60", "--pgnout", str(pgn),
            "--stderr-dir", str(d / "stderr"))
    return pgn


@pytest.fixture(scope="session")
def server(game_log):
    """`arbiter serve` with the reference engine (found next to the arbiter),
    an engine that crashes on its second move, one that exits after every
    game, one that answers every `go` at once, and the log above."""
    bot = str(TESTBOT)
    proc, url = start_server(
        "--engine", f"cmd={bot}", "name=crasher", "arg=--mode", "arg=crash-mid", "arg=--count", "arg=1",
        "--engine", f"cmd={bot}", "name=instant", "arg=--mode", "arg=instant",
        "--engine", f"cmd={bot}", "name=quitter", "arg=--mode", "arg=exit-after-gameover",
        "--log", str(game_log))
    SERVER_PID[0] = proc.pid
    yield url
    stop(proc)


def chromium(*extra):
    """A headless Chromium driven over WebDriver, with `extra` flags (e.g.
    `--ignore-certificate-errors` for a test's own TLS certificate)."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    profile = tempfile.mkdtemp(prefix="chromium-profile-")
    for flag in ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", f"--user-data-dir={profile}", "--window-size=1200,800",
                 *extra]:
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)


@pytest.fixture(scope="session")
def browser():
    driver = chromium()
    yield driver
    driver.quit()


def self_signed(directory):
    """A certificate for 127.0.0.1 and its key (PEM files in `directory`),
    made by openssl: (cert, key)."""
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True, timeout=WAIT)
    return cert, key


def start_with_address(args, pattern=r"(https?://\S+)"):
    """Starts a command that prints its address first (`arbiter serve`,
    `--live`, `arena run`; http:// or https://): its process and the first
    group of `pattern` in that line."""
    # why a file for stderr: a pipe no one reads would stop a chatty
    # process once it is full.
    err = tempfile.TemporaryFile(mode="w+")
    proc = subprocess.Popen([str(a) for a in args], stdout=subprocess.PIPE, stderr=err, text=True)
    line = proc.stdout.readline()
    match = re.search(pattern, line)
    if not match:
        proc.kill()
        proc.wait()
        err.seek(0)
        raise RuntimeError(f"{args[1]}: no address in {line!r} {err.read()}")
    return proc, match.group(1).rstrip("/")


# Page.moment's script.
MOMENT = """
const b = document.getElementById('board');
const s = document.getElementById('status');
const pass = document.querySelector('[data-pass]');
const error = document.querySelector('[data-error]');
return {
  status: b.dataset.status, position: b.dataset.position, toMove: b.dataset.toMove,
  animating: b.dataset.animating === 'true',
  legal: [...b.querySelectorAll('[data-hole][data-legal="true"]')].map((h) => Number(h.dataset.hole)),
  pass: !!pass && !pass.hidden,
  choices: [...document.querySelectorAll('[data-choice]')].filter((c) => c.offsetParent !== null)
             .map((c) => c.dataset.choice),
  banner: s.textContent, ended: s.classList.contains('ended'),
  banners: document.querySelectorAll('.status.ended').length,
  moves: [...document.querySelectorAll('#moves li .mv')].map((m) => m.textContent),
  error: error.hidden ? '' : error.textContent,
};
"""


class Page:
    """The board page, through its automation contract (docs/gui.md)."""

    def __init__(self, driver, url):
        self.d = driver
        self.d.get(url)
        self.wait_for(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")

    def wait_for(self, condition, timeout=WAIT):
        return WebDriverWait(self.d, timeout, poll_frequency=0.05,
                             ignored_exceptions=(Exception,)).until(condition)

    def board(self, attr):
        return self.d.find_element(By.ID, "board").get_attribute(attr)

    def moment(self):
        """The board, the status line and the move list read in one script:
        one moment of the page. why: attributes read one call at a time can
        straddle the end of a move's animation (the board's data-position is
        the position before the move until then, and every attribute
        changes at its end), e.g. data-position from before the last move
        and data-status from after it."""
        return self.d.execute_script(MOMENT)

    def legal_holes(self):
        return [int(e.get_attribute("data-hole"))
                for e in self.d.find_elements(By.CSS_SELECTOR, '[data-hole][data-legal="true"]')]

    def click_hole(self, hole):
        def click(d):
            d.find_element(By.CSS_SELECTOR, f'[data-hole="{hole}"][data-legal="true"]').click()
            return True
        self.wait_for(click)

    def click(self, css):
        def click(d):
            d.find_element(By.CSS_SELECTOR, css).click()
            return True
        self.wait_for(click)

    def set_option(self, name, value):
        """Sets an engine option through the analysis page's options dialog."""
        self.click('[data-action="options"]')
        field = self.wait_for(lambda d: d.find_element(By.CSS_SELECTOR, f'[data-option="{name}"]'))
        field.clear()
        field.send_keys(value)
        self.click('[data-action="options-ok"]')

    def choices(self):
        """The moves the open chooser offers (Kujifunza direction and kichwa)."""
        return [e.get_attribute("data-choice") for e in
                self.d.find_elements(By.CSS_SELECTOR, "[data-choice]") if e.is_displayed()]

    def moves(self):
        return [e.text for e in self.d.find_elements(By.CSS_SELECTOR, "#moves li .mv")]

    def text(self, css):
        return self.d.find_element(By.CSS_SELECTOR, css).text

    def error(self):
        e = self.d.find_element(By.CSS_SELECTOR, "[data-error]")
        return e.text if e.is_displayed() else ""
