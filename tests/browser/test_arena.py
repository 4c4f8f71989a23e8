"""The standing arena's pages in a real headless Chromium: a running `arbiter
arena run` with a house bot and a bot connected over `/umi` through
`arbiter connect`; each pool's ladder shows both with the numbers the JSON
gives (rating, interval, games, W–D–L, score, connected, last seen), and a
bot's page draws its rating chart and results by opponent.

With ARENA_SHOTS=DIR set, the pages are also saved at 1280×800 and 390×844
(docs/img/arena-*.png are made so)."""

import json
import os
import re
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ARBITER, BIN, WAIT, arbiter, stop

GAMES = 12
POOLS = [
    {"name": "bohn", "game": "bohnenspiel", "each": "depth=1", "openings": "suite"},
    {"name": "bosh", "game": "bosh", "each": "depth=1", "openings": "suite"},
]


def get_json(url):
    with urllib.request.urlopen(url, timeout=WAIT) as r:
        return json.load(r)


@pytest.fixture
def arena(tmp_path):
    """An arena that has played GAMES games and is idle: its URL."""
    db = tmp_path / "arena.sqlite"
    pools = tmp_path / "pools.json"
    pools.write_text(json.dumps(POOLS))
    arbiter("arena", "bot", "add", "house-1", "--db", str(db))
    token = arbiter("arena", "bot", "add", "remote-3", "--db", str(db)).splitlines()[-1]
    engine = str(BIN / "engine")
    server = subprocess.Popen(
        [str(ARBITER), "arena", "run", "--listen", "127.0.0.1:0", "--db", str(db),
         "--pools", str(pools), "--max-games", str(GAMES),
         "--house", f"name=house-1 cmd={engine} option.Level=1 slots=2"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    bridge = None
    try:
        url = re.search(r"(http://\S+?)/arena", server.stdout.readline()).group(1)
        host = url.removeprefix("http://")
        bridge = subprocess.Popen(
            [str(ARBITER), "connect", f"ws://{host}/umi", "--token", token, "--slots", "2",
             "--stderr-dir", str(tmp_path / "logs"), "--engine", f"cmd={engine}", "option.Level=3"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120  # a hang guard only
        while True:
            pools_now = get_json(f"{url}/api/arena/pools")
            # Every finished game counted on each pool's ladder (twice: both players).
            counted = [sum(r["games"] for r in get_json(f"{url}/api/arena/ladder?pool={p['name']}"))
                       for p in pools_now]
            finished = [p["finished"] for p in pools_now]
            if (sum(finished) == GAMES and all(p["playing"] == 0 for p in pools_now)
                    and counted == [2 * f for f in finished]):
                break
            assert time.monotonic() < deadline, (pools_now, counted)
            time.sleep(0.2)
        yield url
    finally:
        if bridge is not None:
            bridge.send_signal(signal.SIGTERM)
            bridge.wait(timeout=WAIT)
        stop(server)


def wait_for(driver, condition):
    return WebDriverWait(driver, WAIT, poll_frequency=0.05,
                         ignored_exceptions=(Exception,)).until(condition)


def shots(driver, name):
    out = os.environ.get("ARENA_SHOTS")
    if not out:
        return
    for width, height in ((1280, 800), (390, 844)):
        driver.set_window_size(width, height)
        time.sleep(0.3)  # the layout follows the width
        driver.save_screenshot(str(Path(out) / f"arena-{name}-{width}.png"))
    driver.set_window_size(1200, 800)


def assert_ladder_shown(browser, ladder):
    """Every bot's row shows the numbers of its line of `ladder` (the JSON)."""
    for r in ladder:
        row = wait_for(browser, lambda d, r=r: d.find_element(By.CSS_SELECTOR, f'[data-row="{r["name"]}"]'))
        wait_for(browser, lambda d, row=row: shown_row(row)["rating"] != "")
        shown = shown_row(row)
        # Rounded to whole Elo on the page (JavaScript's rounding, so within half a point).
        assert abs(float(shown["rating"]) - r["rating"]) <= 0.5, (shown, r)
        assert abs(float(shown["interval"]) - r["interval"]) <= 0.5, (shown, r)
        assert shown["games"] == str(r["games"]) and r["games"] > 0, (shown, r)
        assert shown["wdl"] == f'{r["wins"]}–{r["draws"]}–{r["losses"]}', (shown, r)
        assert abs(float(shown["score"].removesuffix("%")) - 100 * r["score"]) <= 0.05, (shown, r)
        assert shown["now"] == ("●" if r["connected"] else "○") and r["connected"], (shown, r)
        assert shown["last-seen"] == r["last_seen"] and r["last_seen"], (shown, r)
        # The line's version: its engine's id name (every bot here names one).
        version = row.find_element(By.CSS_SELECTOR, "[data-version]")
        assert r["version"] and version.text == r["version"], (version.text, r)
        assert version.get_attribute("data-version") == str(r["version_n"]), r


def shown_row(row):
    """A ladder row's cells, by their data- hooks (ladder.js)."""
    cell = lambda name: row.find_element(By.CSS_SELECTOR, f"[data-{name}]").text  # noqa: E731
    return {name: cell(name) for name in ("rating", "interval", "games", "wdl", "score", "now", "last-seen")}


def test_the_ladder_shows_every_bot_as_the_json_gives_it(arena, browser):
    for pool in reversed(POOLS):
        ladder = get_json(f"{arena}/api/arena/ladder?pool={pool['name']}")
        assert {r["name"] for r in ladder} == {"house-1", "remote-3"}, ladder
        browser.get(f"{arena}/arena?pool={pool['name']}")
        assert_ladder_shown(browser, ladder)
    # The better rated first.
    names = [e.get_attribute("data-row") for e in browser.find_elements(By.CSS_SELECTOR, "[data-row]")]
    assert names == [r["name"] for r in ladder], names
    shots(browser, "ladder")

    # A bot's page: its rating chart and its results by opponent.
    browser.find_element(By.CSS_SELECTOR, '[data-bot="remote-3"]').click()
    wait_for(browser, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-page") == "arena-bot")
    wait_for(browser, lambda d: d.find_element(By.CSS_SELECTOR, '[data-pool="bohn"] [data-chart]'))
    versus = wait_for(browser, lambda d: d.find_element(By.CSS_SELECTOR, '[data-versus="bohn"]'))
    assert "house-1" in versus.text, versus.text
    games = browser.find_elements(By.CSS_SELECTOR, "#games tbody tr")
    bot = get_json(f"{arena}/api/arena/bot?name=remote-3")
    assert len(games) == len(bot["games"]) > 0, (len(games), bot)
    shots(browser, "bot")


def test_an_unknown_bot_or_pool_is_said_in_the_error_line(arena, browser):
    # The arena's pages report a failed request through the board's dom.js
    # (its `[data-error]` line), as every page of the board does.
    browser.get(f"{arena}/arena/bot?name=nobody")
    box = wait_for(browser, lambda d: d.find_element(By.CSS_SELECTOR, "[data-error]:not([hidden])"))
    assert box.text == 'no bot named "nobody"', box.text
    assert browser.find_element(By.TAG_NAME, "body").get_attribute("data-ready") is None
    browser.get(f"{arena}/arena")
    wait_for(browser, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
    assert browser.find_element(By.CSS_SELECTOR, "[data-error]").get_attribute("hidden") is not None
