"""The live page of a running tournament (`arbiter tournament --live`) in a
real headless Chromium: boards of games in progress move, the standings
follow finished games, and a finished game opens in the replay view.
Engines: the reference engine with a short move time (slow
enough to watch, with real depth/score/pv lines)."""

import re

import pytest
from selenium.webdriver.common.by import By

from conftest import BIN, Page, start_live, stop

# High levels, which search longest (lower ones stop at their depth limit
# at once, and the whole event is over in a second). Even these often stop
# at depth 9 in about 20 ms a move: one round robin of them took 5.8 s on
# an idle machine, little for a loaded one to start Chromium and look at
# the page; so three rounds (36 games), and the page stays after the end.
LEVELS = (17, 18, 19, 20)


def live_tournament(tmp_path, *extra):
    engine = str(BIN / "engine")
    args = [str(BIN / "arbiter"), "tournament", "--concurrency", "2", "--rounds", "3",
            "--live-linger", "120",
            "--jsonout", str(tmp_path / "results.jsonl"), "--stderr-dir", str(tmp_path / "stderr"),
            "--live", "127.0.0.1:0", "--each", "st=0.1", "timemargin=500", *extra]
    for level in LEVELS:
        args += ["--engine", f"cmd={engine}", f"name=level-{level}", f"option.Level={level}"]
    return start_live(args)


@pytest.fixture
def live(tmp_path):
    proc, url = live_tournament(tmp_path)
    yield url
    stop(proc)


def positions(driver):
    return {e.get_attribute("data-board"): e.get_attribute("data-position")
            for e in driver.find_elements(By.CSS_SELECTOR, "[data-live-game] [data-board]")}


def test_boards_move_and_standings_follow_finished_games(live, browser):
    page = Page(browser, live)
    page.wait_for(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-connected") == "true")
    page.wait_for(lambda d: f"level-{LEVELS[0]}" in page.text("[data-event-info]"))
    # A game in progress, drawn; then its board changes (a move was played).
    # Any game seen twice will do: the one seen first may end between two
    # looks (its card is then gone), so every board seen is remembered.
    seen = {}

    def moved(d):
        now = {k: v for k, v in positions(d).items() if v}
        changed = [g for g, p in now.items() if seen.get(g) not in (None, p)]
        seen.update(now)
        # (its ply read in the same look: the card may be gone by the next)
        return next((g for g in changed if int(d.find_element(
            By.CSS_SELECTOR, f'[data-live-game="{g}"]').get_attribute("data-ply")) >= 1), None)
    page.wait_for(moved)
    # The engines' lines: the reference engine reports depth and pv.
    page.wait_for(lambda d: any(re.search(r"\bd\d+\b.*pv \S+", e.text)
                                for e in d.find_elements(By.CSS_SELECTOR, "[data-think]")))
    # And while an engine searches, its line so far, marked as such (each
    # search of these levels takes its 100 ms: many chances to see one).
    page.wait_for(lambda d: any(re.search(r"thinking… d\d+", e.text)
                                for e in d.find_elements(By.CSS_SELECTOR, '[data-think][data-thinking="true"]')))
    # The standings count one more game once one finishes.
    def counted(d):
        return int(d.find_element(By.CSS_SELECTOR, "[data-standings]").get_attribute("data-games"))
    before = counted(browser)
    page.wait_for(lambda d: counted(d) > before)
    # (read in the page at once: the table is redrawn as games finish)
    engines = browser.execute_script(
        "return [...document.querySelectorAll('[data-standings] tbody tr')].map((r) => r.dataset.engine)")
    assert sorted(engines) == [f"level-{n}" for n in LEVELS]
    page.wait_for(lambda d: int(d.find_element(By.CSS_SELECTOR, "[data-progress]")
                                .get_attribute("data-done")) >= 1)
    # The finished game opens in the replay view at its last position.
    # (the link and its row's plies read at once: the list grows as games finish)
    href, plies = page.wait_for(lambda d: d.execute_script(
        "const a = document.querySelector('[data-finished] [data-replay]');"
        "return a && [a.href, Number(a.closest('tr').children[6].textContent)];"))
    browser.get(href)
    replay = Page(browser, browser.current_url)
    replay.wait_for(lambda d: len(replay.moves()) == plies)
    assert "/replay?log=0&game=" in browser.current_url
