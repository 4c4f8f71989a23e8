"""Takes the screenshots in docs/img/ (every page at 1280×800 and 390×844:
one board per game, the end banner, the analysis board, its options and
its editor, the replay with its evaluation graph, the live page) with the
same headless Chromium as the browser tests:

    tests/setup && cargo build -p arbiter -p engine -p testbots
    target/browser-venv/bin/python tests/browser/screenshots.py [live]

(`live`: only the live page's.)
"""

import sys
import time
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import conftest  # noqa: E402
from conftest import Page, ROOT, start_server  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

# Positions a few moves into each game, so the boards show something.
SHOTS = {
    "bohnenspiel": ("bohnenspiel", ["3", "9", "5"]),
    "bohnenspiel-hemprich": ("bohnenspiel-hemprich 3,0,5,0,0,1,1,0,0,0,0,0 S 30/32", ["6"]),
    "bosh": ("bosh 0,0,0,1,0,0,2,0,0,0 S 20/17 1", ["4"]),
    "kimasai": ("kimasai", ["23"]),
    "kujifunza": ("kujifunza", []),
    # An extra turn (3, 2) and a capture (the last 1) in the move list.
    "kalah": ("kalah", ["3", "1", "10", "2", "1"]),
    # The grand slam of docs/rules/oware.md: nothing captured.
    "oware": ("oware 0,0,0,0,0,2,1,2,0,0,0,0 S 21/22", ["6"]),
}


# Every page at a laptop's and a phone's size (docs/img/<name>.png and
# <name>-phone.png).
SIZES = {"": (1280, 800), "-phone": (390, 844)}


def shot(driver, out, name, scroll_to=None):
    """`scroll_to`: the CSS selector of what is scrolled to the top first."""
    for suffix, (w, h) in SIZES.items():
        driver.set_window_size(w, h)
        # why: the layout follows the width; give it a moment to settle.
        time.sleep(0.3)
        if scroll_to:
            driver.execute_script("document.querySelector(arguments[0]).scrollIntoView()", scroll_to)
            time.sleep(0.1)
        path = out / f"{name}{suffix}.png"
        driver.save_screenshot(str(path))
        print(path)
    driver.set_window_size(*SIZES[""])


def main():
    out = ROOT / "docs" / "img"
    out.mkdir(parents=True, exist_ok=True)
    log = scored_log()
    proc, url = start_server("--log", str(log))
    driver = next(conftest.browser.__wrapped__())
    driver.set_window_size(*SIZES[""])
    try:
        for name, (start, moves) in SHOTS.items():
            query = {"south": "human", "north": "human", "tc": "5+0", "animate": "off"}
            query["position" if " " in start else "game"] = start
            page = Page(driver, f"{url}/play?{urllib.parse.urlencode(query)}")
            page.wait_for(lambda d: page.board("data-position"))
            for i, mv in enumerate(moves):
                field = driver.find_element(By.CSS_SELECTOR, "[data-move-input]")
                page.wait_for(lambda d: field.is_enabled())
                field.send_keys(mv + "\n")
                page.wait_for(lambda d, n=i + 1: len(page.moves()) == n)
            if name == "kujifunza":
                page.click_hole(13)   # show the kichwa chooser, the first choice on the board
            shot(driver, out, name)
        # The end of a game: the banner with the final totals.
        page = Page(driver, f"{url}/analyse?" + urllib.parse.urlencode(
            {"position": "bohnenspiel 0,0,0,0,1,1,1,0,0,0,0,0 S 34/35", "moves": "6", "animate": "off"}))
        page.wait_for(lambda d: page.board("data-status") == "1-0")
        shot(driver, out, "game-end")
        # The analysis board with the reference engine's live lines.
        page = Page(driver, f"{url}/analyse?position=" + urllib.parse.quote("bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0") + "&moves=3")
        page.wait_for(lambda d: page.moves() == ["3"])
        # Level 9: a 5-ply search that ends, so that its whole best line is
        # numbered on the board in the picture.
        page.set_option("Level", "9")
        page.click('[data-action="analyse"]')
        page.wait_for(lambda d: d.find_elements(By.CSS_SELECTOR, '#infos [data-multipv="1"] td')[1].text == "5")
        page.click('[data-action="stop"]')
        page.wait_for(lambda d: page.text("[data-bestmove]"))
        shot(driver, out, "analyse")
        page.click('[data-action="options"]')
        page.wait_for(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-option]"))
        shot(driver, out, "analyse-options")
        driver.find_element(By.CSS_SELECTOR, "#options-dialog button[value=cancel]").click()
        # Board editing: one pit emptied, a draft the rules refuse (72 beans).
        page = Page(driver, f"{url}/analyse?position=" + urllib.parse.quote("bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0"))
        page.wait_for(lambda d: page.board("data-position"))
        driver.find_element(By.CSS_SELECTOR, "[data-edit-board]").click()
        page.wait_for(lambda d: page.board("data-draft") == "valid")
        page.click('[data-hole="3"]')
        alert = page.wait_for(lambda d: d.switch_to.alert)
        alert.send_keys("0")
        alert.accept()
        page.wait_for(lambda d: page.board("data-draft") == "invalid")
        shot(driver, out, "analyse-edit")
        # The replay of a scored game, a few moves in: the evaluation graph.
        page = Page(driver, f"{url}/replay?log=0&game=0&animate=off")
        page.wait_for(lambda d: d.find_elements(By.CSS_SELECTOR, "#eval [data-eval-ply]"))
        for _ in range(7):
            driver.find_element(By.CSS_SELECTOR, '[data-step="forward"]').click()
        page.wait_for(lambda d: page.text("[data-ply]").startswith("7/"))
        shot(driver, out, "replay")
    finally:
        driver.quit()
        proc.terminate()
    live_shot(out)


def scored_log():
    """One game of the reference engine against itself, every move scored."""
    import tempfile
    return conftest.reference_match(Path(tempfile.mkdtemp(prefix="shots-")), "bohnenspiel", 2,
                                    {"level-3": 3, "level-6": 6}, "depth=4")


def live_shot(out):
    """The live page of a running round robin, once games have finished,
    and its finished games with the newest one's graph."""
    import tempfile
    from test_live import live_tournament
    proc, url = live_tournament(Path(tempfile.mkdtemp(prefix="live-shot-")))
    driver = next(conftest.browser.__wrapped__())
    try:
        driver.set_window_size(*SIZES[""])
        page = Page(driver, url)
        page.wait_for(lambda d: int(d.find_element(By.CSS_SELECTOR, "[data-standings]")
                                    .get_attribute("data-games")) >= 3)
        page.wait_for(lambda d: len(d.find_elements(By.CSS_SELECTOR, "[data-live-game]")) == 2
                      and all(int(e.get_attribute("data-ply")) >= 6
                              for e in d.find_elements(By.CSS_SELECTOR, "[data-live-game]")))
        shot(driver, out, "live")
        # The newest finished game's evaluation graph, above the finished list.
        page.wait_for(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-finished-graph] [data-eval-ply]"))
        shot(driver, out, "live-finished", scroll_to="[aria-label='Finished games']")
    finally:
        driver.quit()
        proc.terminate()


if __name__ == "__main__":
    if sys.argv[1:] == ["live"]:
        live_shot(ROOT / "docs" / "img")
    else:
        main()
