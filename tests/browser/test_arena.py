"""The standing arena's pages in a real headless Chromium: a running `arbiter
arena run` with a house bot and a bot connected over `/umi` through
`arbiter connect`; each pool's ladder shows both with the numbers the JSON
gives (rating, interval, games, W–D–L, score, connected, last seen), and a
bot's page draws its admission, its rating chart and results by opponent.
A bot with two versions, the second a broken build, has a page with its
versions, its results by opponent with their LOS and its losses by kind,
as its JSON gives them. A scheduled round robin among three house bots
is listed on the events page and has a page with its standings and games
as its JSON gives them; an event for a pool the server does not serve is
shown cancelled, with the reason. A bot that failed admission has a page
with the failed checks and the reason as its JSON gives them, and no game;
a house bot's says it is not checked.

With ARENA_SHOTS=DIR set, the pages are also saved at 1280×800 and 390×844
(a phone's screen, emulated; docs/img/arena-*.png are made so)."""

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

from conftest import ARBITER, BIN, TESTBOT, WAIT, arbiter, start_with_address, stop

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
    """Saves the page as arena-{name}-{width}.png at 1280×800 and 390×844."""
    out = os.environ.get("ARENA_SHOTS")
    if not out:
        return
    for width, height in ((1280, 800), (390, 844)):
        # why emulated: headless Chromium keeps a window at least 500 px wide.
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 500})
        time.sleep(0.3)  # the layout follows the width
        driver.save_screenshot(str(Path(out) / f"arena-{name}-{width}.png"))
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


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
        # A bot connected now is seen now (its JSON: the time of the request).
        assert r["last_seen"] and shown["last-seen"] == ("now" if r["connected"] else r["last_seen"]), (shown, r)
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
    # On a phone every row's rating is on the screen (its long version name
    # wraps), and nothing scrolls sideways.
    assert_fits_a_phone(browser)
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    try:
        boxes = wait_for(browser, lambda d: d.execute_script(
            "return innerWidth === 390 && [...document.querySelectorAll('[data-row] [data-rating]')]"
            ".map((e) => { const r = e.getBoundingClientRect(); return [e.textContent, r.left, r.right]; })"))
        assert len(boxes) == len(ladder) and all(t and 0 <= l and r <= 390 for t, l, r in boxes), boxes
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
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
    # It passed the conformance checks before it played.
    assert bot["admission"]["passed"] is True, bot["admission"]
    admission = browser.find_element(By.CSS_SELECTOR, "[data-admission]")
    assert admission.get_attribute("data-admission") == "passed", admission.text
    assert "passed" in admission.text, admission.text


# The second arena's games: enough for version 1 to play before version 2
# connects, and for version 2 to play after.
VGAMES = 16


def bot_json(url, name):
    return get_json(f"{url}/api/arena/bot?name={name}")


def caught_up(url, name):
    """Whether bot `name`'s versions count each of its finished games (the
    ratings follow the games a moment later): a game between two of its
    versions counts for both."""
    b = bot_json(url, name)
    sides = sum((g["south"] == name) + (g["north"] == name) for g in b["games"])
    return sum(v["games"] for v in b["versions"]) == sides


@pytest.fixture
def versioned_arena(tmp_path):
    """An arena run with `--admission off` that has played VGAMES games and is
    idle: remote-3's version 1 (the reference engine) played house-1, then
    its version 2 (testbot --mode illegal: a broken build) lost each of its
    games by an illegal move. Its URL."""
    db = tmp_path / "arena.sqlite"
    pools = tmp_path / "pools.json"
    pools.write_text(json.dumps(POOLS))
    arbiter("arena", "bot", "add", "house-1", "--db", str(db))
    token = arbiter("arena", "bot", "add", "remote-3", "--db", str(db)).splitlines()[-1]
    engine = str(BIN / "engine")
    server = subprocess.Popen(
        [str(ARBITER), "arena", "run", "--listen", "127.0.0.1:0", "--db", str(db),
         "--pools", str(pools), "--max-games", str(VGAMES), "--admission", "off",
         "--house", f"name=house-1 cmd={engine} option.Level=1 slots=2"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    bridges = []
    try:
        url = re.search(r"(http://\S+?)/arena", server.stdout.readline()).group(1)
        host = url.removeprefix("http://")

        def connect(*engine_args):
            bridges.append(subprocess.Popen(
                [str(ARBITER), "connect", f"ws://{host}/umi", "--token", token, "--slots", "2",
                 "--stderr-dir", str(tmp_path / "logs"), "--engine", *engine_args],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))

        deadline = time.monotonic() + 120  # a hang guard only
        connect(f"cmd={engine}", "option.Level=3")
        while len(bot_json(url, "remote-3")["games"]) < 2:
            assert time.monotonic() < deadline
            time.sleep(0.1)
        connect(f"cmd={TESTBOT}", "arg=--mode", "arg=illegal")
        while True:
            pools_now = get_json(f"{url}/api/arena/pools")
            versions = bot_json(url, "remote-3")["versions"]
            if (sum(p["finished"] for p in pools_now) == VGAMES
                    and all(p["playing"] == 0 for p in pools_now)
                    and caught_up(url, "remote-3") and caught_up(url, "house-1")):
                break
            assert time.monotonic() < deadline, (pools_now, versions)
            time.sleep(0.2)
        names = [v["id_name"] for v in versions]
        assert len(names) == 2 and names[0].startswith("Mancala Reference Engine"), versions
        assert names[1] == "testbot-illegal", versions
        assert versions[1]["games"] > 0, f"version 2 played no game of {VGAMES}: {versions}"
        yield url
    finally:
        for b in bridges:
            b.send_signal(signal.SIGTERM)
            b.wait(timeout=WAIT)
        stop(server)


def percent_shown(text, fraction):
    """Whether `text` is `fraction` as a percentage with one decimal, either rounding."""
    m = re.fullmatch(r"(\d+\.\d)%", text)
    return m is not None and abs(float(m.group(1)) - 100 * fraction) <= 0.05 + 1e-9


def test_a_bots_page_shows_its_versions_results_with_los_and_losses_by_kind(versioned_arena, browser):
    url = versioned_arena
    bot = bot_json(url, "remote-3")
    browser.get(f"{url}/arena/bot?name=remote-3")
    wait_for(browser, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")

    # The versions, newest first, with their id names and games.
    rows = browser.find_elements(By.CSS_SELECTOR, "[data-versions] tbody tr")
    assert [r.get_attribute("data-version") for r in rows] == ["2", "1"], [r.text for r in rows]
    for row, v in zip(rows, reversed(bot["versions"])):
        assert row.find_element(By.CSS_SELECTOR, "[data-id-name]").text == v["id_name"], (row.text, v)
        assert row.find_element(By.CSS_SELECTOR, "[data-games]").text == str(v["games"]), (row.text, v)
    assert browser.find_element(By.CSS_SELECTOR, "[data-admission]").get_attribute("data-admission") == "unchecked"

    # Each pool's results by opponent: W–D–L, score and LOS as the JSON's.
    los_shown = 0
    for p in bot["pools"]:
        table = browser.find_element(By.CSS_SELECTOR, f'[data-versus="{p["pool"]}"]')
        shown = table.find_elements(By.CSS_SELECTOR, "tbody tr[data-opponent]")
        assert [r.get_attribute("data-opponent") for r in shown] == [v["opponent"] for v in p["versus"]], p
        for row, v in zip(shown, p["versus"]):
            assert row.find_element(By.CSS_SELECTOR, "[data-wdl]").text == f'{v["wins"]}–{v["draws"]}–{v["losses"]}'
            # why: the page rounds half up (JS toFixed on 56.25 gives 56.3) where
            # Python's format rounds to even; compare to a tenth of a percent.
            assert percent_shown(row.find_element(By.CSS_SELECTOR, "[data-score]").text, v["score"]), (row.text, v)
            los = row.find_element(By.CSS_SELECTOR, "[data-los]")
            if v["los"] is None:
                assert los.get_attribute("data-los") == "" and los.text == "–", (row.text, v)
            else:
                los_shown += 1
                assert abs(float(los.get_attribute("data-los")) - v["los"]) < 1e-4, (row.text, v)
                assert percent_shown(los.text, v["los"]), (row.text, v)
    assert los_shown > 0, bot["pools"]

    # Its losses by kind: version 2 lost each of its games by an illegal move.
    v2_games = sum((g["south"] == "remote-3" and g["south_version"] == 2)
                   or (g["north"] == "remote-3" and g["north_version"] == 2) for g in bot["games"])
    illegal = 0
    for p in bot["pools"]:
        table = browser.find_element(By.CSS_SELECTOR, f'[data-losses="{p["pool"]}"]')
        shown = {r.get_attribute("data-loss-kind"): r for r in table.find_elements(By.CSS_SELECTOR, "tr[data-loss-kind]")}
        assert list(shown) == [k["kind"] for k in p["losses_by_kind"]], p
        for k in p["losses_by_kind"]:
            row = shown[k["kind"]]
            assert row.find_element(By.CSS_SELECTOR, "[data-losses]").text == str(k["losses"]), (row.text, k)
            assert ("fault" in row.text) == k["fault"], (row.text, k)
            if k["kind"] == "illegal_move":
                assert k["fault"] and "illegal move" in row.text, (row.text, k)
                illegal += k["losses"]
    assert illegal == v2_games > 0, (illegal, v2_games)

    # Each game names the version that played it and links to its replay.
    for g in bot["games"]:
        row = browser.find_element(By.CSS_SELECTOR, f'[data-game="{g["id"]}"]')
        link = row.find_element(By.CSS_SELECTOR, "[data-replay]")
        assert link.get_attribute("href").endswith(f'/replay?log={g["log"]}&game={g["index"]}'), link.get_attribute("href")
        # A game between its two versions is shown for the newer.
        mine = max(g[f"{side}_version"] for side in ("south", "north") if g[side] == "remote-3")
        shown = row.find_element(By.CSS_SELECTOR, "[data-game-version]")
        assert shown.get_attribute("data-game-version") == str(mine), (row.text, g)
    shots(browser, "bot")


ADMISSION_POOLS = [{"name": "bohn", "game": "bohnenspiel", "each": "depth=1"}]


@pytest.fixture
def failed_arena(tmp_path):
    """An arena run (admission on, the default) with the house bot house-1
    and the remote bot broken-7 (testbot --mode illegal, through `arbiter
    connect`), once broken-7's admission has failed: its URL. Failed, it is
    refused for --admission-retry seconds (600 here: not checked again
    during the test)."""
    db = tmp_path / "arena.sqlite"
    pools = tmp_path / "pools.json"
    pools.write_text(json.dumps(ADMISSION_POOLS))
    arbiter("arena", "bot", "add", "house-1", "--db", str(db))
    token = arbiter("arena", "bot", "add", "broken-7", "--db", str(db)).splitlines()[-1]
    server, url = start_with_address(
        [ARBITER, "arena", "run", "--listen", "127.0.0.1:0", "--db", db, "--pools", pools,
         "--admission-retry", "600", "--house", f"name=house-1 cmd={BIN / 'engine'} option.Level=1"],
        pattern=r"(http://\S+?)/arena")
    bridge = None
    try:
        host = url.removeprefix("http://")
        bridge = subprocess.Popen(
            [str(ARBITER), "connect", f"ws://{host}/umi", "--token", token,
             "--stderr-dir", str(tmp_path / "logs"),
             "--engine", f"cmd={TESTBOT}", "arg=--mode", "arg=illegal"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60  # a hang guard only
        while bot_json(url, "broken-7")["admission"] is None:
            assert time.monotonic() < deadline, bot_json(url, "broken-7")
            time.sleep(0.1)
        yield url
    finally:
        if bridge is not None:
            bridge.send_signal(signal.SIGTERM)
            bridge.wait(timeout=WAIT)
        stop(server)


def test_a_bot_that_failed_admission_shows_why_on_its_page(failed_arena, browser):
    url = failed_arena
    bot = bot_json(url, "broken-7")
    admission = bot["admission"]
    # Its answers were illegal moves: the positions check failed, and it
    # never played.
    assert admission["passed"] is False and admission["failed"] == ["positions:bohnenspiel"], admission
    assert "illegal move" in admission["detail"] and admission["at"], admission
    assert bot["games"] == [], bot
    browser.get(f"{url}/arena/bot?name=broken-7")
    wait_for(browser, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")

    # The failed checks, in the JSON's order, and why, as the JSON says it.
    box = browser.find_element(By.CSS_SELECTOR, "[data-admission]")
    assert box.get_attribute("data-admission") == "failed", box.text
    checks = box.find_elements(By.CSS_SELECTOR, "[data-failed-check]")
    assert [c.get_attribute("data-failed-check") for c in checks] == admission["failed"], box.text
    assert [c.text for c in checks] == admission["failed"], box.text
    assert "failed" in box.text and "not paired" in box.text, box.text
    detail = box.find_element(By.CSS_SELECTOR, "[data-admission-detail]")
    assert detail.is_displayed() and detail.text == admission["detail"].strip(), (detail.text, admission)
    # Its version's row (the newest, first) says so too.
    rows = browser.find_elements(By.CSS_SELECTOR, "[data-versions] tbody tr")
    assert [r.get_attribute("data-version") for r in rows] == [str(v["n"]) for v in reversed(bot["versions"])]
    assert rows and bot["versions"][-1]["admission"] == admission, bot["versions"]
    cell = rows[0].find_element(By.CSS_SELECTOR, "[data-version-admission]")
    assert cell.text == f'failed: {", ".join(admission["failed"])}', cell.text

    # No game listed.
    assert not browser.find_elements(By.CSS_SELECTOR, "#games tbody tr"), browser.find_element(By.ID, "games").text
    assert browser.find_element(By.ID, "games-meta").text == "No finished game yet."

    # On a phone the reason is all on the screen: wrapped, not cut off.
    assert_fits_a_phone(browser)
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    try:
        box = wait_for(browser, lambda d: d.execute_script(
            "const e = document.querySelector('[data-admission-detail]'), r = e.getBoundingClientRect();"
            "return innerWidth === 390 && [r.left, r.right, e.scrollWidth, e.clientWidth]"))
        left, right, scroll, client = box
        assert 0 <= left and right <= 390 and scroll <= client, box
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    shots(browser, "bot-failed")

    # A house bot is never checked.
    assert bot_json(url, "house-1")["admission"] is None
    browser.get(f"{url}/arena/bot?name=house-1")
    wait_for(browser, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
    box = browser.find_element(By.CSS_SELECTOR, "[data-admission]")
    assert box.get_attribute("data-admission") == "unchecked", box.text
    assert "Not checked" in box.text and "house bot" in box.text, box.text


def nav_links(browser):
    return [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, "header nav a")]


def test_the_board_pages_of_an_arena_link_to_its_pages_and_live_names_its_games(arena, browser):
    # /replay and /live are the board's pages; here their bar is the arena's,
    # every link of it a page this server answers.
    for page in ("/replay", "/live"):
        browser.get(f"{arena}{page}")
        wait_for(browser, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
        links = nav_links(browser)
        assert links == [f"{arena}{p}" for p in ("/arena", "/arena/events", "/live", "/replay")], (page, links)
        for link in links:
            with urllib.request.urlopen(link, timeout=WAIT) as r:
                assert r.status == 200, link
        active = browser.find_element(By.CSS_SELECTOR, "header nav a.active")
        assert active.get_attribute("href") == f"{arena}{page}", (page, active.text)
        shots(browser, page.strip("/"))
    # The live page: no standings of its own (the ladder's, linked), the
    # finished games named by pool and id.
    wait_for(browser, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-source") == "arena")
    assert not browser.find_element(By.CSS_SELECTOR, "[data-standings-columns]").is_displayed()
    link = browser.find_element(By.CSS_SELECTOR, "[data-ladder-link]")
    assert link.get_attribute("href") == f"{arena}/arena", link.get_attribute("href")
    assert browser.find_element(By.CSS_SELECTOR, "[data-round-heading]").text == "Game"
    games = {g["id"]: g for g in get_json(f"{arena}/api/arena/games")}
    rows = wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-finished] tbody tr"))
    assert len(rows) == GAMES, [r.text for r in rows]
    for row in rows:
        label = row.find_element(By.CSS_SELECTOR, "[data-round]").text
        m = re.fullmatch(r"(bohn|bosh) #(\d+)", label)
        assert m and games[int(m.group(2))]["pool"] == m.group(1), (label, games)
    assert "event round" not in browser.find_element(By.TAG_NAME, "main").text.lower()
    # The bar's Ladder link leads back to the ladder.
    browser.find_element(By.CSS_SELECTOR, 'header nav a[href="/arena"]').click()
    wait_for(browser, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-page") == "arena-ladder")


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


EVENT_POOLS = [{"name": "bohn", "game": "bohnenspiel", "each": "st=0.02", "openings": "suite"}]
# Three house bots of different strength: a round robin of one round is
# 3 pairs × 2 colours = 6 games.
EVENT_BOTS = {"ev-a": 1, "ev-b": 3, "ev-c": 6}


def schedule(db, pool):
    """`arena event add … --at now` of a one-round round robin: its id."""
    out = arbiter("arena", "event", "add", "--db", str(db), "--pool", pool,
                  "--format", "roundrobin", "--rounds", "1", "--at", "now")
    return int(out.splitlines()[-1])


@pytest.fixture
def event_arena(tmp_path):
    """An arena of three house bots that has played a round robin of one
    round (event `played`) and cancelled one for a pool it does not serve
    (event `cancelled`): (its URL, played, cancelled). The bots go on
    playing the pool's games after the event."""
    db = tmp_path / "arena.sqlite"
    pools = tmp_path / "pools.json"
    pools.write_text(json.dumps(EVENT_POOLS))
    engine = str(BIN / "engine")
    house = []
    for name, level in EVENT_BOTS.items():
        arbiter("arena", "bot", "add", name, "--db", str(db))
        house += ["--house", f"name={name} cmd={engine} option.Level={level}"]
    server, url = start_with_address(
        [ARBITER, "arena", "run", "--listen", "127.0.0.1:0", "--db", db, "--pools", pools, *house],
        pattern=r"(http://\S+?)/arena")
    try:
        # The server takes an event due 10 s after it starts (EVENT_GATHER),
        # among the bots connected then: all three are, by then.
        played = schedule(db, "bohn")
        cancelled = schedule(db, "nowhere")
        deadline = time.monotonic() + 120  # a hang guard only
        while True:
            done = get_json(f"{url}/api/arena/event?id={played}")
            other = get_json(f"{url}/api/arena/event?id={cancelled}")
            if done["state"] == "finished" and other["state"] != "scheduled":
                break
            assert done["state"] in ("scheduled", "playing"), done
            assert time.monotonic() < deadline, (done, other)
            time.sleep(0.2)
        assert sorted(done["players"]) == sorted(EVENT_BOTS), done
        assert len(done["games"]) == 6 and done["standings"]["games"] == 6, done
        yield url, played, cancelled
    finally:
        stop(server)


def cells_by_heading(table, row):
    """A table row's cells' text by their column's heading (as a person
    reads the row: the text under each heading)."""
    headings = [th.text for th in table.find_elements(By.CSS_SELECTOR, "thead th")]
    return dict(zip(headings, [td.text for td in row.find_elements(By.TAG_NAME, "td")]))


def assert_fits_a_phone(driver):
    """At a phone's 390×844 (emulated) neither the page nor any of its
    tables scrolls sideways: every column left shown is on the screen."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    try:
        wide = wait_for(driver, lambda d: d.execute_script(
            "return innerWidth === 390 && [document.documentElement, ...document.querySelectorAll('.scroll')]"
            ".map((e) => [e.id || e.firstElementChild?.id || e.tagName, e.scrollWidth, e.clientWidth])"))
        assert all(scroll <= client for _, scroll, client in wide), wide
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_an_events_list_and_pages_show_the_event_as_the_json_gives_it(event_arena, browser):
    url, played, cancelled = event_arena
    events = get_json(f"{url}/api/arena/events")
    assert [e["id"] for e in events] == [cancelled, played], events
    browser.get(f"{url}/arena/events")
    wait_for(browser, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
    table = browser.find_element(By.CSS_SELECTOR, "[data-events]")
    rows = table.find_elements(By.CSS_SELECTOR, "tbody tr[data-event]")
    # Newest first, each row as its line of the JSON.
    assert [r.get_attribute("data-event") for r in rows] == [str(e["id"]) for e in events]
    for row, e in zip(rows, events):
        assert row.get_attribute("data-state") == e["state"], (row.text, e)
        shown = cells_by_heading(table, row)
        assert shown["Event"] == f'#{e["id"]}', (shown, e)
        assert shown["Pool"] == e["pool"] and shown["Format"] == e["format"] == "round-robin", (shown, e)
        assert shown["State"] == e["state"], (shown, e)
        assert shown["Games"] == str(e["games"]), (shown, e)
        assert row.find_element(By.CSS_SELECTOR, "[data-games]").text == str(e["games"]), (row.text, e)
    assert events[1]["state"] == "finished" and events[1]["games"] == 6, events
    assert events[0]["state"] == "cancelled" and events[0]["games"] == 0, events
    assert_fits_a_phone(browser)
    shots(browser, "events")

    # The played event's page, reached from its row.
    browser.find_element(By.CSS_SELECTOR, f'tr[data-event="{played}"] a').click()
    wait_for(browser, lambda d: d.current_url == f"{url}/arena/event?id={played}")
    wait_for(browser, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
    e = get_json(f"{url}/api/arena/event?id={played}")
    meta = browser.find_element(By.CSS_SELECTOR, "#meta")
    assert meta.get_attribute("data-state") == "finished", meta.text
    assert "finished" in meta.text and "6 games finished" in meta.text, meta.text
    assert not browser.find_element(By.CSS_SELECTOR, "#note").is_displayed()
    players = browser.find_element(By.CSS_SELECTOR, "#players")
    assert [a.text for a in players.find_elements(By.TAG_NAME, "a")] == e["players"], players.text

    # The standings: the JSON's rows in its order, with its numbers.
    standings = e["standings"]["standings"]
    rows = browser.find_elements(By.CSS_SELECTOR, "[data-standings] tbody tr[data-row]")
    assert [r.get_attribute("data-row") for r in rows] == [s["name"] for s in standings], [r.text for r in rows]
    for row, s in zip(rows, standings):
        cell = lambda name: row.find_element(By.CSS_SELECTOR, f"[data-{name}]").text  # noqa: E731
        assert row.find_element(By.TAG_NAME, "td").text == str(s["rank"]), (row.text, s)
        assert cell("games") == str(s["games"]) and s["games"] == 4, (row.text, s)
        assert abs(float(cell("points")) - s["points"]) <= 0.05, (row.text, s)
        assert cell("wdl") == f'{s["wins"]}–{s["draws"]}–{s["losses"]}', (row.text, s)
        # why: the page rounds half up (JS toFixed) where Python's format
        # rounds to even; compare to a tenth of a percent.
        assert percent_shown(cell("score"), s["score"]), (row.text, s)

    # Every game, newest first (as the JSON lists them), with a link to its replay.
    table = browser.find_element(By.CSS_SELECTOR, "table[data-games]")
    rows = table.find_elements(By.CSS_SELECTOR, "tbody tr[data-game]")
    assert e["finished"] == len(e["games"]) == 6, e
    assert [int(g["id"]) for g in e["games"]] == sorted((g["id"] for g in e["games"]), reverse=True), e
    assert [r.get_attribute("data-game") for r in rows] == [str(g["id"]) for g in e["games"]]
    for row, g in zip(rows, e["games"]):
        shown = cells_by_heading(table, row)
        assert (shown["Round"], shown["South"], shown["North"], shown["Result"]) == (
            g["round"], g["south"], g["north"], g["result"]), (shown, g)
        link = row.find_element(By.CSS_SELECTOR, "a[data-replay]")
        assert link.text == f'#{g["id"]}', (link.text, g)
        assert link.get_attribute("href") == f'{url}/replay?log={g["log"]}&game={g["index"]}', link.get_attribute("href")
    assert_fits_a_phone(browser)
    shots(browser, "event")

    # Following a replay link opens that game in the replay page.
    g = e["games"][0]
    browser.find_element(By.CSS_SELECTOR, f'tr[data-game="{g["id"]}"] a[data-replay]').click()
    wait_for(browser, lambda d: d.current_url == f'{url}/replay?log={g["log"]}&game={g["index"]}')
    wait_for(browser, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
    text = lambda css: browser.find_element(By.CSS_SELECTOR, css).text  # noqa: E731
    wait_for(browser, lambda d: text("[data-seat=south]") == f'south: {g["south"]}'
             and text("[data-seat=north]") == f'north: {g["north"]}')
    current = browser.find_element(By.CSS_SELECTOR, "#games tr.current")
    assert current.get_attribute("data-game-index") == str(g["index"]), current.text
    assert re.fullmatch(r"0/[1-9]\d*", text("[data-ply]")), text("[data-ply]")
    assert not browser.find_element(By.CSS_SELECTOR, "[data-error]").is_displayed(), text("[data-error]")

    # The cancelled event's page: its state and why.
    c = get_json(f"{url}/api/arena/event?id={cancelled}")
    assert c["state"] == "cancelled" and 'no pool named "nowhere"' in c["note"], c
    browser.get(f"{url}/arena/event?id={cancelled}")
    wait_for(browser, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
    meta = browser.find_element(By.CSS_SELECTOR, "#meta")
    assert meta.get_attribute("data-state") == "cancelled" and "cancelled" in meta.text, meta.text
    note = browser.find_element(By.CSS_SELECTOR, "#note")
    assert note.is_displayed() and note.text == c["note"], note.text
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-standings] tr[data-row], [data-games] tr[data-game]")
    for table in ("[data-standings]", "table[data-games]"):
        empty = browser.find_element(By.CSS_SELECTOR, f"{table} tbody")
        assert empty.text == "None: the event was cancelled.", (table, empty.text)


def test_the_live_page_names_arena_games_by_id_and_event_games_by_round(tmp_path, browser):
    """Slow movers (games of a few seconds, so that one is in progress when
    looked for) and a one-round round robin between them."""
    db = tmp_path / "arena.sqlite"
    pools = tmp_path / "pools.json"
    pools.write_text(json.dumps([{"name": "bohn", "game": "bohnenspiel", "each": "depth=1"}]))
    house = []
    for seed, name in enumerate(("slow-a", "slow-b")):
        arbiter("arena", "bot", "add", name, "--db", str(db))
        house += ["--house", f"name={name} cmd={TESTBOT} arg=--mode arg=slow arg=--delay-ms arg=40 "
                  f"arg=--seed arg={seed}"]
    server, url = start_with_address(
        [ARBITER, "arena", "run", "--listen", "127.0.0.1:0", "--db", db, "--pools", pools, *house],
        pattern=r"(http://\S+?)/arena")
    try:
        event = schedule(db, "bohn")
        browser.get(f"{url}/live")
        # A game in progress: named by its id, not "event round <id>".
        label = wait_for(browser, lambda d: d.find_element(By.CSS_SELECTOR, "[data-live-game] [data-game-label]").text)
        assert re.fullmatch(r"bohnenspiel, game \d+", label), label
        deadline = time.monotonic() + 180  # a hang guard only
        while get_json(f"{url}/api/arena/event?id={event}")["state"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.5)
        # Finished: an event's game by its event and round, a ladder game
        # by its pool and id.
        browser.get(f"{url}/live")
        wait_for(browser, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-source") == "arena")
        rounds = wait_for(browser, lambda d: [c.text for c in d.find_elements(By.CSS_SELECTOR, "[data-finished] [data-round]")])
        event_round = rf"bohn event {event}, round 1\.\d+"
        assert sum(bool(re.fullmatch(event_round, r)) for r in rounds) == 2, rounds
        assert all(re.fullmatch(rf"bohn #\d+|{event_round}", r) for r in rounds), rounds
        shots(browser, "live-event")
    finally:
        stop(server)
