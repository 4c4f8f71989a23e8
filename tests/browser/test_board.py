"""The browser board in a real headless Chromium against a real server, real
engines and the rules library (checked through `arbiter show`)."""

import http.client
import re
import http.server
import threading
import urllib.parse
from functools import partial

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from conftest import Page, WAIT, arbiter, rules_position, stop

BOHNENSPIEL_START = "bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0"
KUJIFUNZA_START = "kujifunza " + ",".join(["2"] * 32) + " S"


def play_url(server, **query):
    return f"{server}/play?{urllib.parse.urlencode(query)}"


def test_a_whole_bohnenspiel_game_by_clicks_against_the_reference_engine(server, browser):
    page = Page(browser, play_url(server, game="bohnenspiel", south="human",
                                  north="reference", level=1, tc="600+0", animate="off"))
    for _ in range(500):
        # Wait for our turn (a legal hole to click) or the end.
        page.wait_for(lambda d: page.board("data-status") != "ongoing"
                      or (page.board("data-to-move") == "south" and page.legal_holes()))
        if page.board("data-status") != "ongoing":
            break
        before = len(page.moves())
        page.click_hole(page.legal_holes()[0])
        page.wait_for(lambda d: len(page.moves()) > before)
    status = page.board("data-status")
    assert status in ("1-0", "0-1", "1/2-1/2"), status
    moves = page.moves()
    assert len(moves) > 10
    position, result = rules_position(BOHNENSPIEL_START, moves)
    assert page.board("data-position") == position
    assert result == status
    assert status in page.text("[data-result]")
    assert not page.legal_holes()


def test_an_engine_game_faster_than_the_page_shows_every_move(server, browser):
    # Two engines answering at once outpace the states the server sends
    # (at most one per 16 ms): each state carries the moves since the last,
    # and the page's list must still be the whole game.
    start = "bosh 4,4,4,4,4,4,4,4,4,4 S 0/0 1"
    page = Page(browser, play_url(server, position=start, south="instant", north="instant", tc="st=1"))
    page.wait_for(lambda d: page.board("data-status") != "ongoing")
    moves = page.moves()
    assert len(moves) > 20
    position, result = rules_position(start, moves)
    assert page.board("data-position") == position
    assert result == page.board("data-status")


def test_a_kujifunza_move_with_a_kichwa_choice_by_mouse(server, browser):
    page = Page(browser, play_url(server, game="kujifunza", south="human", north="human", tc="inf"))
    page.wait_for(lambda d: 1 in page.legal_holes())
    page.click_hole(1)
    choices = page.wait_for(lambda d: page.choices())
    assert sorted(choices) == ["1-++", "1-+-", "1--"]
    page.click('[data-choice="1-+-"]')
    page.wait_for(lambda d: page.moves() == ["1-+-"])
    assert page.board("data-position") == rules_position(KUJIFUNZA_START, ["1-+-"])[0]
    assert page.board("data-to-move") == "north"


def test_a_bosh_round_change(server, browser):
    start = "bosh 0,0,0,1,0,0,2,0,0,0 S 20/17 1"
    page = Page(browser, play_url(server, position=start, south="human", north="human", tc="inf"))
    page.wait_for(lambda d: page.board("data-round") == "1" and page.legal_holes() == [4])
    page.click_hole(4)
    page.wait_for(lambda d: page.board("data-round") == "2")
    assert page.board("data-position") == rules_position(start, ["4"])[0]
    assert browser.find_element(By.CSS_SELECTOR, '[data-hole="10"]').get_attribute("data-seeds") == "x"
    assert browser.find_element(By.CSS_SELECTOR, '[data-store="south"]').get_attribute("data-seeds") == "3"
    assert sorted(page.legal_holes()) == [6, 7, 8, 9]


def test_a_hemprich_pass_and_a_typed_move(server, browser):
    start = "bohnenspiel-hemprich 3,0,5,0,0,1,1,0,0,0,0,0 S 30/32"
    page = Page(browser, play_url(server, position=start, south="human", north="human", tc="inf"))
    field = page.wait_for(lambda d: d.find_element(By.CSS_SELECTOR, "[data-move-input]"))
    page.wait_for(lambda d: field.is_enabled())
    field.send_keys("9", Keys.ENTER)   # not legal: the server says why
    page.wait_for(lambda d: "9" in page.error())
    field.send_keys("6", Keys.ENTER)
    page.wait_for(lambda d: page.moves() == ["6"])
    page.wait_for(lambda d: d.find_element(By.CSS_SELECTOR, "[data-pass]").is_displayed())
    assert page.legal_holes() == []
    page.click("[data-pass]")
    page.wait_for(lambda d: page.moves() == ["6", "pass"])
    assert page.board("data-position") == rules_position(start, ["6", "pass"])[0]


def test_a_log_replayed(server, browser, game_log):
    page = Page(browser, f"{server}/replay")
    page.wait_for(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-game-index]"))
    rows = browser.find_elements(By.CSS_SELECTOR, "[data-game-index]")
    assert len(rows) == 1 and "Alpha" in rows[0].text and "Beta" in rows[0].text
    text = game_log.read_text()
    start = re.search(r'\[StartPosition "([^"]+)"\]', text).group(1)
    page.wait_for(lambda d: page.text("[data-ply]").startswith("0/"))
    total = int(page.text("[data-ply]").split("/")[1])
    assert total > 0
    page.click('[data-step="forward"]')
    page.wait_for(lambda d: page.text("[data-ply]") == f"1/{total}")
    page.click('[data-step="last"]')
    page.wait_for(lambda d: page.text("[data-ply]") == f"{total}/{total}")
    moves = page.moves()
    assert len(moves) == total
    assert page.board("data-position") == rules_position(start, moves)[0]
    # The same log through the file picker.
    page = Page(browser, f"{server}/replay")
    browser.find_element(By.CSS_SELECTOR, "[data-log-file]").send_keys(str(game_log))
    page.wait_for(lambda d: page.text("[data-ply]") == f"0/{total}")


def test_an_engine_that_crashes_mid_game_shows_an_error_and_the_page_stays_usable(server, browser):
    page = Page(browser, play_url(server, game="bohnenspiel", south="human", north="crasher",
                                  tc="600+0", animate="off"))
    for _ in range(3):
        page.wait_for(lambda d: page.board("data-status") != "ongoing"
                      or (page.board("data-to-move") == "south" and page.legal_holes()))
        if page.board("data-status") != "ongoing":
            break
        page.click_hole(page.legal_holes()[0])
    page.wait_for(lambda d: page.board("data-status") == "1-0")
    assert "crash" in page.error().lower() or "signal" in page.error().lower(), page.error()
    assert "1-0" in page.text("[data-result]")
    # Still usable: a new game from the form, and a move in it.
    browser.find_element(By.CSS_SELECTOR, "#north option[value=human]").click()
    page.click('[data-action="new-game"]')
    page.wait_for(lambda d: page.board("data-status") == "ongoing" and page.moves() == [])
    page.click_hole(3)
    page.wait_for(lambda d: page.moves() == ["3"])
    assert page.error() == ""


def test_a_page_keeps_its_engine_across_games_as_a_match_slot_does(server, browser):
    import conftest
    pid = conftest.SERVER_PID[0]
    # South's last bean goes to 7; North (the engine) must sow it on: over.
    end = "bohnenspiel 0,0,0,0,0,1,0,0,0,0,0,0 S 40/31"
    page = Page(browser, play_url(server, position=end, south="human", north="reference",
                                  level=1, tc="600+0", animate="off"))

    def one_game():
        page.click_hole(6)
        page.wait_for(lambda d: page.board("data-status") not in ("ongoing", None)
                      and page.moves() == ["6", "7"])
        assert page.error() == ""

    # (earlier tests' pages may still be ending their engines)
    page.wait_for(lambda d: len(conftest.engine_children(pid)) == 1)
    first = conftest.engine_children(pid)
    one_game()
    assert conftest.engine_children(pid) == first, "the finished game's engine is kept"
    # The same choice again: the same process plays the next game (newgame).
    page.click('[data-action="new-game"]')
    page.wait_for(lambda d: page.board("data-status") == "ongoing" and page.moves() == [])
    assert conftest.engine_children(pid) == first
    one_game()
    assert conftest.engine_children(pid) == first
    # A changed choice ends the old engine and starts the new one.
    browser.find_element(By.CSS_SELECTOR, "#north option[value=crasher]").click()
    page.click('[data-action="new-game"]')
    page.wait_for(lambda d: page.board("data-status") == "ongoing" and page.moves() == [])
    page.wait_for(lambda d: len(conftest.engine_children(pid)) == 1
                  and conftest.engine_children(pid) != first)
    # A human-only game keeps no engine.
    browser.find_element(By.CSS_SELECTOR, "#north option[value=human]").click()
    page.click('[data-action="new-game"]')
    page.wait_for(lambda d: not conftest.engine_children(pid))


def test_a_kept_engine_that_exited_after_its_game_is_restarted_for_the_next(server, browser):
    import conftest
    pid = conftest.SERVER_PID[0]
    end = "bohnenspiel 0,0,0,0,0,1,0,0,0,0,0,0 S 40/31"
    page = Page(browser, play_url(server, position=end, south="human", north="quitter",
                                  tc="600+0", animate="off"))
    page.wait_for(lambda d: len(conftest.engine_children(pid)) == 1)
    first = conftest.engine_children(pid)
    for _ in range(2):
        page.click_hole(6)
        page.wait_for(lambda d: page.board("data-status") not in ("ongoing", None)
                      and page.moves() == ["6", "7"])
        assert page.error() == "", page.error()
        # It exits on `gameover`.
        page.wait_for(lambda d: not conftest.engine_children(pid))
        page.click('[data-action="new-game"]')
        page.wait_for(lambda d: page.board("data-status") == "ongoing" and page.moves() == [])
        page.wait_for(lambda d: len(conftest.engine_children(pid)) == 1)
        assert conftest.engine_children(pid) != first, "a new process"
        first = conftest.engine_children(pid)


def test_a_request_from_another_origin_is_refused(server, browser, tmp_path):
    host = urllib.parse.urlparse(server).netloc
    # Straight HTTP: a foreign Origin, and a rebinding Host.
    for headers in ({"Origin": "http://evil.example"}, {"Host": "evil.example"}):
        conn = http.client.HTTPConnection(host, timeout=WAIT)
        conn.request("GET", "/api/config", headers=headers)
        r = conn.getresponse()
        assert r.status == 403
        assert "refused" in r.read().decode()
    # From a page of another origin, in the browser: its WebSocket and its
    # fetch both fail, while the same calls from our own page work.
    probe = f"""<!doctype html><script>
      const out = [];
      const ws = new WebSocket("ws://{host}/ws/play");
      ws.onopen = () => {{ out.push("ws-open"); document.title = out.join(","); }};
      ws.onerror = () => {{ out.push("ws-refused"); document.title = out.join(","); }};
      fetch("http://{host}/api/config", {{method: "POST"}}).then(
        r => {{ out.push("fetch-" + r.status); document.title = out.join(","); }},
        () => {{ out.push("fetch-refused"); document.title = out.join(","); }});
    </script>"""
    (tmp_path / "probe.html").write_text(probe)
    handler = partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    other = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    try:
        browser.get(f"http://127.0.0.1:{other.server_address[1]}/probe.html")
        WebDriverWait(browser, WAIT).until(lambda d: d.title.count(",") == 1)
        assert sorted(browser.title.split(",")) == ["fetch-refused", "ws-refused"], browser.title
    finally:
        other.shutdown()


def test_analysis_runs_the_engine_live_and_stops(server, browser):
    start = BOHNENSPIEL_START
    page = Page(browser, f"{server}/analyse?" + urllib.parse.urlencode({"position": start}))
    page.wait_for(lambda d: page.board("data-position") == start)
    page.click_hole(3)
    page.wait_for(lambda d: page.moves() == ["3"])
    assert page.board("data-position") == rules_position(start, ["3"])[0]
    page.click('[data-action="options"]')
    page.wait_for(lambda d: d.find_element(By.CSS_SELECTOR, '[data-option="Level"]'))
    browser.find_element(By.CSS_SELECTOR, '[data-action="options-ok"]').click()
    page.click('[data-action="analyse"]')
    # Info lines arrive live (the row is redrawn with each one).
    page.wait_for(lambda d: d.find_elements(By.CSS_SELECTOR, '#infos [data-multipv="1"] td')[5].text != "")
    page.click('[data-action="stop"]')
    best = page.wait_for(lambda d: page.text("[data-bestmove]"))
    # The best line is drawn on the board: its first move's hole (in
    # Bohnenspiel a move is its hole's number).
    pv_first = lambda d: d.find_elements(By.CSS_SELECTOR, '#infos [data-multipv="1"] td')[5].text.split()[0]
    marked = lambda d: [e.get_attribute("data-hole") for e in d.find_elements(By.CSS_SELECTOR, '#board [data-pv="true"]')]
    page.wait_for(lambda d: marked(d) == [pv_first(d)])
    position, _ = rules_position(start, ["3"])
    legal = re.search(r"^legal moves: (.*)$", arbiter("show", position), re.M).group(1).split()
    assert best in legal
    page.click('[data-action="takeback"]')
    page.wait_for(lambda d: page.moves() == [])
    page.click_hole(5)
    page.click('[data-action="export-log"]')
    text = page.wait_for(lambda d: d.find_element(By.CSS_SELECTOR, "[data-export]").get_attribute("value"))
    assert f'[StartPosition "{start}"]' in text and "1. 5" in text


def test_a_closed_tab_ends_its_engines(server, browser):
    import conftest
    pid = conftest.SERVER_PID[0]
    url = play_url(server, game="kujifunza", south="human", north="reference", level=3, tc="600+0")
    # A page left for another one.
    page = Page(browser, url)
    page.wait_for(lambda d: page.legal_holes())
    assert conftest.engine_children(pid), "the game's engine runs"
    browser.get("about:blank")
    page.wait_for(lambda d: not conftest.engine_children(pid))
    # A tab closed.
    first = browser.current_window_handle
    browser.switch_to.new_window("tab")
    page = Page(browser, url)
    page.wait_for(lambda d: page.legal_holes())
    assert conftest.engine_children(pid), "the game's engine runs"
    browser.close()
    browser.switch_to.window(first)
    page.wait_for(lambda d: not conftest.engine_children(pid))


def step_bosh_4_to_its_sowing(page, browser):
    """Plays 4 in `bosh 0,0,0,1,0,0,2,0,0,0 S 20/17 1` with the animation step
    by step, through the lap, the pick of 4 and the sowing into 5; returns a
    hole's shown count."""
    seeds = lambda hole: browser.find_element(By.CSS_SELECTOR, f'[data-hole="{hole}"]').get_attribute("data-seeds")
    page.click_hole(4)
    page.wait_for(lambda d: page.board("data-animating") == "true")
    page.click("[data-anim-step]")                 # lap 1
    page.click("[data-anim-step]")                 # pick 4
    page.wait_for(lambda d: seeds(4) == "0" and page.board("data-hand") == "1")
    page.click("[data-anim-step]")                 # sow 5
    page.wait_for(lambda d: seeds(5) == "1" and page.board("data-hand") == "0")
    return seeds


def test_a_move_is_animated_step_by_step_from_the_rules_trace(server, browser):
    # Bosh 4: one stone into 5; 6 is empty, 7 holds 2: South takes them (22).
    # North is then stuck: the round ends, the board is swept, round 2 is
    # filled (docs/rules/bosh.md).
    start = "bosh 0,0,0,1,0,0,2,0,0,0 S 20/17 1"
    page = Page(browser, play_url(server, position=start, south="human", north="human",
                                  tc="inf", animate="manual"))
    seeds = step_bosh_4_to_its_sowing(page, browser)
    reserve = lambda side: browser.find_element(By.CSS_SELECTOR, f'[data-store="{side}"]').get_attribute("data-seeds")
    page.click("[data-anim-step]")                 # capture 7
    page.wait_for(lambda d: seeds(7) == "0" and reserve("south") == "22")
    assert page.board("data-position") == start, "the board is the old one until the animation ends"
    page.click("[data-anim-skip]")
    page.wait_for(lambda d: page.board("data-animating") is None)
    assert page.board("data-position") == rules_position(start, ["4"])[0]
    assert page.board("data-round") == "2"


def test_a_replay_step_is_animated_from_the_rules_trace(server, browser, game_log):
    start = re.search(r'\[StartPosition "([^"]+)"\]', game_log.read_text()).group(1)
    page = Page(browser, f"{server}/replay?animate=manual")
    page.wait_for(lambda d: page.text("[data-ply]").startswith("0/"))
    total = int(page.text("[data-ply]").split("/")[1])
    seeds = lambda: {e.get_attribute("data-hole"): e.get_attribute("data-seeds")
                     for e in browser.find_elements(By.CSS_SELECTOR, "#board [data-hole]")}
    before = seeds()
    page.click('[data-step="forward"]')
    page.wait_for(lambda d: page.board("data-animating") == "true")
    for _ in range(3):                              # lap, pick, first sow
        page.click("[data-anim-step]")
    page.wait_for(lambda d: seeds() != before)
    assert page.board("data-position") == start, "the board is the old one until the animation ends"
    page.click("[data-anim-skip]")
    page.wait_for(lambda d: page.board("data-animating") is None and page.text("[data-ply]") == f"1/{total}")
    first = page.moves()[0]
    assert page.board("data-position") == rules_position(start, [first])[0]
    # A jump is shown at once.
    page.click('[data-step="last"]')
    page.wait_for(lambda d: page.text("[data-ply]") == f"{total}/{total}")
    assert page.board("data-animating") is None


def test_analysis_shows_the_k_best_lines_when_the_engine_offers_multipv(server, browser):
    page = Page(browser, f"{server}/analyse?" + urllib.parse.urlencode({"position": BOHNENSPIEL_START}))
    field = page.wait_for(lambda d: d.find_element(By.CSS_SELECTOR, "[data-multipv-input]"))
    page.wait_for(lambda d: field.is_displayed())
    field.clear()
    field.send_keys("3")
    page.click('[data-action="analyse"]')
    page.wait_for(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#infos [data-multipv]")) == 3)
    page.click('[data-action="stop"]')
    page.wait_for(lambda d: page.text("[data-bestmove]"))
    firsts = [r.find_elements(By.TAG_NAME, "td")[5].text.split()[0]
              for r in browser.find_elements(By.CSS_SELECTOR, "#infos [data-multipv]")]
    assert len(set(firsts)) == 3, f"three different root moves: {firsts}"


def test_the_board_says_connecting_until_the_first_position(browser):
    import urllib.request
    import conftest
    bot = str(conftest.TESTBOT)
    # An engine that never finishes its handshake (the server waits for it as
    # long as we like) and one that dies at once.
    proc, url = conftest.start_server(
        "--handshake-timeout", "600",
        "--engine", f"cmd={bot}", "name=mute", "arg=--mode", "arg=no-umiok",
        "--engine", f"cmd={bot}", "name=dead", "arg=--mode", "arg=crash-start")
    try:
        # Before any script runs: the page itself says so, in the frame and the status line.
        with urllib.request.urlopen(f"{url}/play", timeout=WAIT) as r:
            html = r.read().decode()
        assert re.search(r'id="board"[^>]*><p class="board-note" data-board-note>connecting…</p>', html), html
        assert 'data-result>connecting…</p>' in html
        # The socket is open and the server starts the engines: no board yet.
        page = Page(browser, play_url(url, game="bohnenspiel", south="human", north="mute", tc="60+1"))
        note = lambda: page.text("#board [data-board-note]")
        page.wait_for(lambda d: note() == "starting the game…")
        assert page.text("[data-result]") == "starting the game…"
        assert page.board("data-position") == ""
        assert not browser.find_elements(By.CSS_SELECTOR, "[data-hole]")
        mute = conftest.engine_children(proc.pid)
        assert len(mute) == 1, mute
        # Leaving the page while its engine is still starting ends that engine
        # now, not when its 600 s handshake limit runs out.
        browser.get("about:blank")
        WebDriverWait(browser, WAIT).until(lambda d: not conftest.engine_children(proc.pid))
        # A game that cannot start: the note says so, the error says why.
        page = Page(browser, play_url(url, game="bohnenspiel", south="human", north="dead", tc="60+1"))
        page.wait_for(lambda d: note() == "no game")
        assert "dead" in page.error()
        # Without a game to start, the start position is shown at once.
        page = Page(browser, f"{url}/play")
        page.wait_for(lambda d: page.board("data-position") == BOHNENSPIEL_START)
        assert page.text("[data-result]") == "New game to start"
    finally:
        browser.get("about:blank")
        stop(proc)


def test_analysis_numbers_the_best_line_on_the_board(server, browser):
    start = BOHNENSPIEL_START
    page = Page(browser, f"{server}/analyse?" + urllib.parse.urlencode({"position": start}))
    page.wait_for(lambda d: page.board("data-position") == start)
    # Level 9 searches 5 plies at most: the search ends there and its last
    # line stays (at full strength the reference engine's pv, read from its
    # hash table, is sometimes a single move deep in a long search).
    page.set_option("Level", "9")
    page.click('[data-action="analyse"]')
    cell = lambda d, i: d.find_elements(By.CSS_SELECTOR, '#infos [data-multipv="1"] td')[i].text
    pv = lambda d: cell(d, 5).split()
    page.wait_for(lambda d: cell(d, 1) == "5")
    page.click('[data-action="stop"]')
    page.wait_for(lambda d: page.text("[data-bestmove]"))

    def marks(d):
        return sorted((int(m.get_attribute("data-pv-index")),
                       m.find_element(By.XPATH, "ancestor::*[@data-hole]").get_attribute("data-hole"))
                      for m in d.find_elements(By.CSS_SELECTOR, "#board [data-pv-index]"))

    # Each of the first four moves is numbered on the hole it starts from (a
    # Bohnenspiel move is its hole's number); the first hole is outlined.
    line = page.wait_for(lambda d: pv(d) if marks(d) == [(k + 1, mv) for k, mv in enumerate(pv(d)[:4])] else None)
    assert len(line) >= 3
    # The line is legal by the rules, move by move (South, North, …).
    assert rules_position(start, line[:4])[0]
    first = browser.find_elements(By.CSS_SELECTOR, '#board [data-pv="true"]')
    assert [e.get_attribute("data-hole") for e in first] == [line[0]]


def test_an_analysis_deep_link_with_moves_shows_the_position_after_them(server, browser):
    start = BOHNENSPIEL_START
    after, _ = rules_position(start, ["3", "9"])
    # The page asks for the position, then for the line: the board must end
    # on the line, whichever answer comes back first.
    page = Page(browser, f"{server}/analyse?" + urllib.parse.urlencode({"position": start, "moves": "3 9"}))
    page.wait_for(lambda d: page.moves() == ["3", "9"] and page.text("[data-ply]") == "2/2")
    page.wait_for(lambda d: page.board("data-position") == after)
    assert page.board("data-to-move") == "south"
    assert page.legal_holes() and all(1 <= h <= 6 for h in page.legal_holes())


def test_an_analysis_move_is_animated_from_the_rules_trace(server, browser):
    # As in play (above): Bosh 4 sows into 5 and captures 7's two stones.
    start = "bosh 0,0,0,1,0,0,2,0,0,0 S 20/17 1"
    page = Page(browser, f"{server}/analyse?" + urllib.parse.urlencode({"position": start, "animate": "manual"}))
    page.wait_for(lambda d: page.board("data-position") == start)
    step_bosh_4_to_its_sowing(page, browser)
    assert page.board("data-position") == start, "the board is the old one until the animation ends"
    page.click("[data-anim-skip]")
    page.wait_for(lambda d: page.board("data-animating") is None)
    assert page.board("data-position") == rules_position(start, ["4"])[0]
    # Stepping back shows the position at once; forward again animates.
    page.click('[data-step="back"]')
    page.wait_for(lambda d: page.board("data-position") == start and page.board("data-animating") is None)
    page.click('[data-step="forward"]')
    page.wait_for(lambda d: page.board("data-animating") == "true")
    page.click("[data-anim-skip]")
    page.wait_for(lambda d: page.board("data-position") == rules_position(start, ["4"])[0])
