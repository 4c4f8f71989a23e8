"""Every page over TLS (`--tls-cert`/`--tls-key`, a certificate this test
makes with openssl for 127.0.0.1), in a headless Chromium told to accept it:
the pages' sockets are `wss://` (a browser refuses a `ws://` socket from an
`https://` page), so a move is played on /play, a position is analysed on
/analyse, a live event's board moves on /live, the replay and the arena's
pages load. Before the pages took the socket's scheme from their own
address, none of the three sockets opened."""

import json
import ssl
import urllib.parse
import urllib.request

import pytest
from selenium.webdriver.common.by import By

from conftest import ARBITER, BIN, TESTBOT, WAIT, Page, arbiter, chromium, self_signed, start_with_address, stop


@pytest.fixture(scope="module")
def cert(tmp_path_factory):
    return self_signed(tmp_path_factory.mktemp("tls"))


@pytest.fixture(scope="module")
def tls_browser():
    # why: the certificate is this test's own, trusted by no one.
    driver = chromium("--ignore-certificate-errors")
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def tls_server(cert, game_log):
    proc, url = start_with_address(
        [ARBITER, "serve", "--listen", "127.0.0.1:0", "--tls-cert", cert[0], "--tls-key", cert[1],
         "--log", game_log])
    yield url
    stop(proc)


def get_json(url, cert):
    context = ssl.create_default_context(cafile=str(cert))
    with urllib.request.urlopen(url, timeout=WAIT, context=context) as r:
        return json.load(r)


def socket_urls(driver):
    """The addresses of the WebSockets the page opened (from the browser's
    resource timing: a socket's handshake is listed as a resource)."""
    return driver.execute_script(
        "return performance.getEntriesByType('resource').map((e) => e.name).filter((n) => /^wss?:/.test(n))")


def test_a_move_is_played_on_the_board_over_tls(tls_server, tls_browser):
    assert tls_server.startswith("https://127.0.0.1:")
    page = Page(tls_browser, f"{tls_server}/play?game=bohnenspiel&south=human&north=reference&level=1"
                             "&tc=60%2B1&animate=off")
    page.wait_for(lambda d: page.legal_holes())
    page.click_hole(page.legal_holes()[0])
    # The engine's answer came back over the same socket.
    page.wait_for(lambda d: len(page.moves()) == 2)
    assert page.error() == ""
    assert page.board("data-status") == "ongoing"


def test_a_position_is_analysed_over_tls(tls_server, tls_browser):
    start = "bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0"
    page = Page(tls_browser, f"{tls_server}/analyse?" + urllib.parse.urlencode({"position": start, "animate": "off"}))
    page.click('[data-action="analyse"]')
    # The engine's lines appear: a depth and a best line.
    # (looked up afresh each time: the lines are redrawn as they come)
    page.wait_for(lambda d: d.find_elements(By.CSS_SELECTOR, '#infos [data-multipv="1"] td')[5].text.strip())
    assert page.error() == ""
    page.click('[data-action="analyse"]')


def test_the_replay_page_loads_its_log_over_tls(tls_server, tls_browser):
    page = Page(tls_browser, f"{tls_server}/replay")
    page.wait_for(lambda d: page.board("data-position"))
    assert page.error() == ""


def test_a_live_event_over_tls_moves_its_boards(cert, tls_browser, tmp_path):
    # why testbots that answer after 100 ms, not the reference engine: its
    # searches may end at their depth in 20 ms a move, and then the whole
    # event (2 games) could be over before a loaded machine's Chromium had
    # opened the page, leaving no board to move. These take 2 s a game at
    # least; the test stops the event once it has seen a board move.
    args = [ARBITER, "tournament", "--concurrency", "1", "--rounds", "2",
            "--jsonout", tmp_path / "results.jsonl", "--stderr-dir", tmp_path / "stderr",
            "--live", "127.0.0.1:0", "--tls-cert", cert[0], "--tls-key", cert[1],
            "--each", "tc=60+1"]
    for name in ("slow-1", "slow-2"):
        args += ["--engine", f"cmd={TESTBOT}", f"name={name}",
                 "arg=--mode", "arg=slow", "arg=--delay-ms", "arg=100"]
    proc, url = start_with_address(args, r"live page at (https://\S+)")
    try:
        page = Page(tls_browser, url)
        page.wait_for(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-connected") == "true")
        seen = {}

        def moved(d):
            now = {e.get_attribute("data-board"): e.get_attribute("data-position")
                   for e in d.find_elements(By.CSS_SELECTOR, "[data-live-game] [data-board]")}
            changed = [g for g, p in now.items() if p and seen.get(g) not in (None, p)]
            seen.update({g: p for g, p in now.items() if p})
            return changed
        page.wait_for(moved)
        assert all(u.startswith("wss://") for u in socket_urls(tls_browser)), socket_urls(tls_browser)
    finally:
        tls_browser.get("about:blank")
        stop(proc)


def test_the_arena_pages_over_tls(cert, tls_browser, tmp_path):
    db = tmp_path / "arena.sqlite"
    pools = tmp_path / "pools.json"
    pools.write_text(json.dumps([{"name": "bohn", "game": "bohnenspiel", "each": "depth=1", "openings": "suite"}]))
    arbiter("arena", "bot", "add", "house-1", "--db", str(db))
    arbiter("arena", "bot", "add", "house-2", "--db", str(db))
    engine = str(BIN / "engine")
    proc, url = start_with_address(
        [ARBITER, "arena", "run", "--listen", "127.0.0.1:0", "--db", db, "--pools", pools, "--max-games", "2",
         "--tls-cert", cert[0], "--tls-key", cert[1],
         "--house", f"name=house-1 cmd={engine} option.Level=1 slots=1",
         "--house", f"name=house-2 cmd={engine} option.Level=2 slots=1"],
        r"(https://\S+?)/arena")
    try:
        page = Page(tls_browser, f"{url}/arena")
        page.wait_for(lambda d: {e.get_attribute("data-bot") for e in d.find_elements(By.CSS_SELECTOR, "[data-bot]")}
                      >= {"house-1", "house-2"})
        page = Page(tls_browser, f"{url}/arena/bot?name=house-1")
        page.wait_for(lambda d: d.find_element(By.ID, "title").text == "house-1")
        # The arena's live page: its socket opens over TLS too.
        page = Page(tls_browser, f"{url}/live")
        page.wait_for(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-connected") == "true")
        assert all(u.startswith("wss://") for u in socket_urls(tls_browser)), socket_urls(tls_browser)
        assert get_json(f"{url}/api/arena/pools", cert[0])[0]["name"] == "bohn"
    finally:
        tls_browser.get("about:blank")
        stop(proc)
