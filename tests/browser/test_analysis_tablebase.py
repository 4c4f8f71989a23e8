"""The analysis page with an endgame database (`arbiter serve --tb DIR`): a
position in the database shows its exact value and every best move, as
`engine tb probe` gives them, marked as the database's exact value and not
an engine score; a move on the board brings the next position's value; a
position outside the database shows none.

With TABLEBASE_SHOTS=DIR set, the page is also saved at 1280×800 and
390×844 (docs/img/analyse-tablebase*.png are made so)."""

import os
import time
import urllib.parse
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from conftest import Page, engine_cli, rules_position, start_server, stop

MAX_BEANS = 6
# ≤ 6 beans on the board: South winning with three best moves, North losing.
POSITIONS = [
    "bohnenspiel 2,1,0,1,0,0,0,1,0,1,0,0 S 35/31",
    "bohnenspiel 3,0,0,0,0,0,1,0,0,0,0,2 N 33/33",
]


@pytest.fixture(scope="module")
def tb_server(tmp_path_factory):
    """`arbiter serve --tb DIR` on a database of ≤ 6 beans (built in well
    under a second): its URL and the directory."""
    tb = tmp_path_factory.mktemp("tb")
    engine_cli("tb", "build", "--game", "bohnenspiel", "--max-beans", str(MAX_BEANS), "--out", str(tb))
    proc, url = start_server("--tb", str(tb))
    yield url, tb
    stop(proc)


def probe(tb, position):
    """`engine tb probe`'s value and best moves."""
    lines = dict(line.split(" ", 1) for line in engine_cli("tb", "probe", "--tb", str(tb), position).splitlines())
    return int(lines["value"]), lines["moves"].split()


def analyse(browser, url, position):
    page = Page(browser, f"{url}/analyse?" + urllib.parse.urlencode({"position": position, "animate": "off"}))
    page.wait_for(lambda d: page.board("data-position") == position)
    return page


def shown_value(page):
    """The database's line under the board, once shown for the board's position."""
    box = page.d.find_element(By.CSS_SELECTOR, "[data-tablebase]")
    return box if box.is_displayed() and box.get_attribute("data-value") else None


def assert_shows_probe(page, tb, position):
    value, moves = probe(tb, position)
    box = page.wait_for(lambda d: shown_value(page))
    assert box.get_attribute("data-value") == str(value)
    assert box.get_attribute("data-moves").split() == moves
    assert box.get_attribute("data-exact") == "true"
    to_move = "South" if position.split()[2] == "S" else "North"
    signed = f"+{value}" if value > 0 else str(value)
    beans = "bean" if abs(value) == 1 else "beans"
    best = f"best {'moves' if len(moves) > 1 else 'move'} {', '.join(moves)}"
    assert box.text.startswith(f"Exact (endgame database): {signed} {beans} for {to_move} from here; {best};"), \
        box.text
    # Not an engine score: the engine's lines stay empty (no analysis runs).
    assert page.d.find_elements(By.CSS_SELECTOR, "#infos [data-multipv]") == []
    return value, moves


def shots(driver, name):
    out = os.environ.get("TABLEBASE_SHOTS")
    if not out:
        return
    for suffix, (width, height) in {"": (1280, 800), "-phone": (390, 844)}.items():
        driver.set_window_size(width, height)
        time.sleep(0.3)  # the layout follows the width
        driver.save_screenshot(str(Path(out) / f"{name}{suffix}.png"))
    driver.set_window_size(1200, 800)


def test_a_database_position_shows_its_exact_value_and_best_moves(tb_server, browser):
    url, tb = tb_server
    for position in POSITIONS:
        page = analyse(browser, url, position)
        value, moves = assert_shows_probe(page, tb, position)
        if position == POSITIONS[0]:
            assert len(moves) > 1 and value > 0, (value, moves)
            shots(browser, "analyse-tablebase")
    # A best move played on the board: the next position's value, for the other side.
    page.click_hole(int(moves[0]))
    after = rules_position(position, [moves[0]])[0]
    page.wait_for(lambda d: page.board("data-position") == after)
    assert_shows_probe(page, tb, after)


def test_a_position_outside_the_database_shows_no_value(tb_server, browser):
    url, _ = tb_server
    page = analyse(browser, url, "bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0")
    page.wait_for(lambda d: page.board("data-status") == "ongoing" and page.legal_holes())
    assert not browser.find_element(By.CSS_SELECTOR, "[data-tablebase]").is_displayed()
