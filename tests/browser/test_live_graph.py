"""A finished game's evaluation graph on the live page (docs/live.md): a
fast match with --live-linger, the page opened after its end. The newest
finished game's graph is shown, one point per scored ply with the log's
score turned to South's side; a row's `graph` button (or a click on the row) shows that game's; a
click on a point opens the replay at that ply."""

import json
import subprocess

from selenium.webdriver.common.by import By

from conftest import BIN, Page, lingering_page, stop


def south_scores(game):
    """{ply: score from South's side} of a results-log game (`{"cp": 35}`)
    as the graph writes it (`+35`, `-M3`); bohnenspiel has no extra turn,
    so the movers alternate from the start's side to move."""
    first = game["start_position"].split()[2]
    out = {}
    for i, m in enumerate(game["moves"]):
        score = m.get("score")
        if score is None:
            continue
        south = (i % 2 == 0) == (first == "S")
        sign = 1 if south else -1
        if "cp" in score:
            cp = sign * score["cp"]
            text = f"{cp:+d}"
        else:
            mate = sign * score["mate"]
            text = ("+M" if mate >= 0 else "-M") + str(abs(mate))
        out[i + 1] = text
    return out


def points(driver):
    return {int(e.get_attribute("data-eval-ply")): e.get_attribute("data-score")
            for e in driver.find_elements(By.CSS_SELECTOR, "[data-finished-graph] [data-eval-ply]")}


def test_a_finished_game_on_the_live_page_has_its_graph_and_a_point_opens_the_replay(tmp_path, browser):
    engine = str(BIN / "engine")
    log = tmp_path / "games.jsonl"
    proc = subprocess.Popen(
        [str(BIN / "arbiter"), "match", "--game", "bohnenspiel", "--games", "2",
         "--engine", f"cmd={engine}", "name=one", "option.Level=1",
         "--engine", f"cmd={engine}", "name=two", "option.Level=2",
         "--each", "depth=3", "--jsonout", str(log), "--stderr-dir", str(tmp_path / "stderr"),
         "--live", "127.0.0.1:0", "--live-linger", "120"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = lingering_page(proc)
        games = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
        assert len(games) == 2
        page = Page(browser, url)
        page.wait_for(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ended") == "true")
        # The newest game (index 1) is graphed: a point per scored ply, the
        # log's score from South's side.
        box = page.wait_for(lambda d: d.find_element(By.CSS_SELECTOR, '[data-finished-graph="0:1"]'))
        assert box.is_displayed()
        expected = south_scores(games[1])
        assert expected, "the reference engine logs scores"
        page.wait_for(lambda d: points(d) == expected)
        assert "Game 2" in page.text("[data-finished-graph-title]")
        # The other game's graph, from its row's button.
        page.click('[data-finished-game="0"] [data-show-graph]')
        page.wait_for(lambda d: d.find_element(By.CSS_SELECTOR, '[data-finished-graph="0:0"]'))
        expected = south_scores(games[0])
        page.wait_for(lambda d: points(d) == expected)
        assert "current" in browser.find_element(
            By.CSS_SELECTOR, '[data-finished-game="0"]').get_attribute("class")
        # A click on a row (not its link) does the same.
        page.click('[data-finished-game="1"] td:nth-child(5)')
        page.wait_for(lambda d: d.find_element(By.CSS_SELECTOR, '[data-finished-graph="0:1"]'))
        page.click('[data-finished-game="0"] [data-show-graph]')
        page.wait_for(lambda d: points(d) == expected)
        # A click on a point opens the replay of that game at that ply.
        ply = sorted(expected)[len(expected) // 2]
        page.click(f'[data-finished-graph] [data-eval-ply="{ply}"]')
        page.wait_for(lambda d: "/replay?" in d.current_url)
        assert f"log=0&game=0&ply={ply}" in browser.current_url, browser.current_url
        replay = Page(browser, browser.current_url)
        total = len(games[0]["moves"])
        replay.wait_for(lambda d: d.find_element(By.CSS_SELECTOR, "[data-ply]").text == f"{ply}/{total}")
        # Its graph's bar is at that ply too.
        assert browser.find_element(By.CSS_SELECTOR, "#eval [data-eval-current]").get_attribute(
            "data-eval-current") == str(ply)
        # A ply that is not one opens the start and says so.
        browser.get(browser.current_url.replace(f"ply={ply}", "ply=abc"))
        replay.wait_for(lambda d: "no ply \"abc\"" in replay.error())
        assert browser.find_element(By.CSS_SELECTOR, "[data-ply]").text == f"0/{total}"
    finally:
        stop(proc)
