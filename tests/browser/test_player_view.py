"""What a player sees on the board pages (issue: "the board a player would
choose"): the last move's holes marked, one end banner with the final
totals in words, moves numbered with the side as in PGN, ←/→/Home/End,
Kujifunza's choices shown on the board, the analysis options dialog, the
evaluation graph (a point per scored ply, a click jumps there), and a
phone-sized window without horizontal scrolling."""

import json
import urllib.parse

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from conftest import BIN, Page, reference_match, rules_position, start_server, stop


def analyse_url(server, position, moves=""):
    query = {"position": position, "animate": "off"}
    if moves:
        query["moves"] = moves
    return f"{server}/analyse?" + urllib.parse.urlencode(query)


def marks(driver):
    return {int(e.get_attribute("data-hole")): e.get_attribute("data-last")
            for e in driver.find_elements(By.CSS_SELECTOR, "#board [data-hole][data-last]")}


def test_the_last_move_marks_its_origin_sown_and_captured_holes(server, browser):
    # South's 6 drops its bean in North's 7, making 2: captured.
    start = "bohnenspiel 0,0,0,0,1,1,1,0,0,0,0,0 S 34/35"
    page = Page(browser, analyse_url(server, start))
    page.wait_for(lambda d: page.board("data-position") == start)
    assert marks(browser) == {}
    page = Page(browser, analyse_url(server, start, "6"))
    page.wait_for(lambda d: marks(d) == {6: "origin", 7: "captured"})
    # A plain sowing: the origin and every hole sown.
    page = Page(browser, f"{server}/analyse?game=bohnenspiel&moves=3&animate=off")
    page.wait_for(lambda d: marks(d) == {3: "origin", 4: "sown", 5: "sown", 6: "sown", 7: "sown", 8: "sown", 9: "sown"})


def test_the_end_banner_gives_the_final_totals_in_words(server, browser):
    # After the capture North has no bean: the one left on South's side goes
    # to South, who moved last: 37–35, not the stores' 36–35.
    start = "bohnenspiel 0,0,0,0,1,1,1,0,0,0,0,0 S 34/35"
    position, result = rules_position(start, ["6"])
    assert result == "1-0"
    page = Page(browser, analyse_url(server, start, "6"))
    page.wait_for(lambda d: page.board("data-status") == "1-0")
    banner = page.text("[data-result]")
    assert banner == "1-0 — South wins 37–35: North had no seed to move, so the 1 left went to South", banner
    assert "rules:" not in banner
    # One banner: the status line, marked as the end.
    ended = [e for e in browser.find_elements(By.CSS_SELECTOR, ".ended") if e.is_displayed()]
    assert len(ended) == 1


def test_moves_are_numbered_with_the_side_as_in_pgn(server, browser):
    page = Page(browser, f"{server}/analyse?game=bohnenspiel&moves=3%209%201&animate=off")
    page.wait_for(lambda d: page.moves() == ["3", "9", "1"])
    items = browser.find_elements(By.CSS_SELECTOR, "#moves li")
    assert [(i.get_attribute("data-side"), i.find_element(By.CSS_SELECTOR, ".num").text) for i in items] == \
        [("south", "1."), ("north", "1…"), ("south", "2.")]
    # North to start: the first move is `1…`, as the PGN writes it.
    start = "bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 N 0/0"
    page = Page(browser, analyse_url(server, start, "9 3"))
    page.wait_for(lambda d: page.moves() == ["9", "3"])
    nums = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#moves li .num")]
    assert nums == ["1…", "2."]


def test_arrow_keys_home_and_end_step_through_the_moves(server, browser):
    page = Page(browser, f"{server}/analyse?game=bohnenspiel&moves=3%209%201&animate=off")
    page.wait_for(lambda d: page.text("[data-ply]") == "3/3")
    body = browser.find_element(By.TAG_NAME, "body")
    for key, want in [(Keys.HOME, "0/3"), (Keys.ARROW_RIGHT, "1/3"), (Keys.ARROW_RIGHT, "2/3"),
                      (Keys.ARROW_LEFT, "1/3"), (Keys.END, "3/3")]:
        ActionChains(browser).move_to_element(body).send_keys(key).perform()
        page.wait_for(lambda d, w=want: page.text("[data-ply]") == w)


def test_kujifunza_choices_are_shown_on_the_board(server, browser):
    page = Page(browser, f"{server}/analyse?game=kujifunza&animate=off")
    page.wait_for(lambda d: page.legal_holes())
    page.click_hole(13)
    choices = page.wait_for(lambda d: page.choices())
    assert len(choices) > 1
    assert browser.find_element(By.CSS_SELECTOR, '#board [data-hole="13"]').get_attribute("data-picked") == "true"
    previews = {}
    for move in choices:
        button = browser.find_element(By.CSS_SELECTOR, f'[data-choice="{move}"]')
        ActionChains(browser).move_to_element(button).perform()
        sown = page.wait_for(lambda d: [int(e.get_attribute("data-hole")) for e in sorted(
            d.find_elements(By.CSS_SELECTOR, '#board [data-preview="sow"]'),
            key=lambda e: int(e.get_attribute("data-preview-step")))])
        # The words name the first hole sown.
        assert f"towards {sown[0]}" in button.text, button.text
        previews[move] = sown
    # Another direction is another way round the board.
    assert len({tuple(p) for p in previews.values()}) > 1, previews


def test_the_options_dialog_labels_every_field_and_offers_no_ponder(server, browser):
    page = Page(browser, f"{server}/analyse?game=bohnenspiel")
    page.click('[data-action="options"]')
    fields = page.wait_for(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-option]"))
    names = [f.get_attribute("data-option") for f in fields]
    assert "Level" in names
    assert not any(n.lower() == "ponder" for n in names), names
    # Each field sits in its own label, the name apart from the field.
    for f in fields:
        label = f.find_element(By.XPATH, "ancestor::label")
        name = label.find_element(By.CSS_SELECTOR, ".option-name")
        assert name.text == f.get_attribute("data-option")
        assert name.rect["x"] + name.rect["width"] <= f.rect["x"], (name.text, name.rect, f.rect)
    browser.find_element(By.CSS_SELECTOR, "#options-dialog button[value=cancel]").click()


@pytest.fixture(scope="module")
def scored_log(tmp_path_factory):
    """A game of the reference engine against itself: every move scored."""
    return reference_match(tmp_path_factory.mktemp("scored"), "bohnenspiel", 1, {"A": 3, "B": 4},
                           "depth=3", "--max-plies", "30")


def test_the_evaluation_graph_has_a_point_per_scored_ply_and_a_click_jumps(scored_log, browser):
    game = json.loads(scored_log.read_text().splitlines()[0])
    plies = len(game["moves"])
    proc, url = start_server("--log", str(scored_log))
    try:
        page = Page(browser, f"{url}/replay?log=0&game=0&animate=off")
        page.wait_for(lambda d: page.text("[data-ply]") == f"0/{plies}")
        points = page.wait_for(lambda d: d.find_elements(By.CSS_SELECTOR, "#eval [data-eval-ply]"))
        assert [int(p.get_attribute("data-eval-ply")) for p in points] == list(range(1, plies + 1))
        # Each score from South's side: a mover's own score (the JSON log's
        # {"cp": …} or {"mate": …}), turned for North (odd plies: South opened).
        for i, (p, m) in enumerate(zip(points, game["moves"])):
            kind, value = next(iter(m["score"].items()))
            value = value if i % 2 == 0 else -value
            sign = "+" if value >= 0 else "-"
            want = f"{sign}{abs(value)}" if kind == "cp" else f"{sign}M{abs(value)}"
            assert p.get_attribute("data-score") == want, (i, m["score"], p.get_attribute("data-score"))
        ply = min(5, plies)
        point = browser.find_element(By.CSS_SELECTOR, f'#eval [data-eval-ply="{ply}"]')
        browser.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", point)
        page.wait_for(lambda d: page.text("[data-ply]") == f"{ply}/{plies}")
        want, _ = rules_position(game["start_position"], [m["move"] for m in game["moves"][:ply]])
        assert page.board("data-position") == want
    finally:
        stop(proc)


@pytest.mark.parametrize("path", [
    "/play?game=kimasai&south=human&north=human&tc=inf&animate=off",
    "/play?game=bohnenspiel&south=human&north=human&tc=inf&animate=off",
    "/analyse?game=kujifunza&animate=off",
    "/replay",
])
def test_a_phone_sized_window_shows_the_board_without_horizontal_scrolling(server, browser, path):
    browser.set_window_size(390, 844)
    try:
        page = Page(browser, server + path)
        page.wait_for(lambda d: page.board("data-position") or path == "/replay")
        width = browser.execute_script("return document.documentElement.clientWidth")
        scroll = browser.execute_script("return document.documentElement.scrollWidth")
        assert scroll <= width, (path, scroll, width)
        board = browser.find_element(By.ID, "board").rect
        assert board["x"] >= 0 and board["x"] + board["width"] <= width, (path, board, width)
    finally:
        browser.set_window_size(1200, 800)


def test_the_live_page_lingers_after_the_event_and_says_it_ended(tmp_path, browser):
    """A fast match with --live-linger: the page is still served after the
    last game, says once that the event is over, has each engine's score
    and the SPRT's LLR charted, and the boards marked the last move."""
    import subprocess
    from conftest import lingering_page
    engine = str(BIN / "engine")
    proc = subprocess.Popen(
        [str(BIN / "arbiter"), "match", "--game", "bohnenspiel", "--games", "4",
         "--engine", f"cmd={engine}", "name=one", "option.Level=1",
         "--engine", f"cmd={engine}", "name=two", "option.Level=2",
         "--each", "depth=2", "--sprt", "elo0=0", "elo1=10",
         "--jsonout", str(tmp_path / "games.jsonl"), "--stderr-dir", str(tmp_path / "stderr"),
         "--live", "127.0.0.1:0", "--live-linger", "120"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # The event runs to its end; the arbiter says the page stays.
        url = lingering_page(proc)
        page = Page(browser, url)
        page.wait_for(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ended") == "true")
        ended = page.text("p[data-ended]")
        assert "The event is over" in ended and "stays up" in ended, ended
        banners = [e for e in browser.find_elements(By.CSS_SELECTOR, ".banner") if e.is_displayed()]
        assert len(banners) == 1, [b.text for b in banners]
        assert "left" not in page.text("[data-progress]")
        assert page.text("[data-progress]").startswith("4/4 games")
        # The page opened after the end has the last standings: one point each.
        series = page.wait_for(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-score-chart] [data-series]"))
        assert sorted(s.get_attribute("data-series") for s in series) == ["one", "two"]
        llr = browser.find_elements(By.CSS_SELECTOR, "[data-llr-chart] [data-series='LLR'] circle")
        assert len(llr) == 1 and llr[0].get_attribute("data-x") == "4"
    finally:
        stop(proc)


def test_the_live_page_marks_the_last_move_and_charts_as_games_finish(tmp_path, browser):
    from test_live import live_tournament
    proc, url = live_tournament(tmp_path)
    try:
        page = Page(browser, url)
        # A board in progress marks the move just played, from its steps.
        page.wait_for(lambda d: d.find_elements(By.CSS_SELECTOR, '[data-live-game] [data-last="origin"]'))
        # Its scores so far are graphed.
        page.wait_for(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-live-game] [data-eval-ply]"))
        # Each finished game adds a point to every engine's line.
        page.wait_for(lambda d: len(d.find_elements(By.CSS_SELECTOR, "[data-score-chart] [data-series] circle")) >= 4)
    finally:
        stop(proc)
