"""Moves in play beyond test_board.py's: Hemprich's pass typed in the
notation (test_board.py clicks the Pass button), every Kujifunza choice of a
hole offered by mouse, a whole-board Kimasai move by mouse."""

import signal
import urllib.parse

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import Page, rules_position


def play(browser, server, start):
    query = {"position": start, "south": "human", "north": "human", "tc": "inf", "animate": "off"}
    page = Page(browser, f"{server}/play?{urllib.parse.urlencode(query)}")
    page.wait_for(lambda d: page.board("data-position") == start)
    return page


def test_a_hemprich_pass_typed(server, browser):
    start = "bohnenspiel-hemprich 3,0,5,0,0,1,1,0,0,0,0,0 S 30/32"
    page = play(browser, server, start)
    field = browser.find_element(By.CSS_SELECTOR, "[data-move-input]")
    page.wait_for(lambda d: field.is_enabled())
    field.send_keys("6", Keys.ENTER)
    page.wait_for(lambda d: d.find_element(By.CSS_SELECTOR, "[data-pass]").is_displayed())
    page.wait_for(lambda d: field.is_enabled())
    field.send_keys("pass", Keys.ENTER)
    page.wait_for(lambda d: page.moves() == ["6", "pass"])
    assert page.board("data-position") == rules_position(start, ["6", "pass"])[0]


def test_every_kujifunza_choice_of_a_hole_is_offered_by_mouse(server, browser):
    # docs/rules/kujifunza.md's worked example: chained captures, a second
    # kichwa choice after the left one: 11++, 11+-+, 11+--.
    start = "kujifunza 0,0,0,0,0,0,0,0,0,0,2,0,1,1,0,0,7,7,7,7,6,6,6,6,0,0,4,3,0,1,0,0 S"
    for pick in ["11++", "11+-+", "11+--"]:
        page = play(browser, server, start)
        page.click_hole(11)
        offered = page.wait_for(lambda d: page.choices())
        assert sorted(offered) == ["11++", "11+-+", "11+--"]
        page.click(f'[data-choice="{pick}"]')
        page.wait_for(lambda d: page.moves() == [pick])
        assert page.board("data-position") == rules_position(start, [pick])[0]


def test_a_kimasai_move_by_mouse(server, browser):
    start = "kimasai " + ",".join(["1"] * 23 + ["0"] + ["1"] * 23 + ["0"]) + " S"
    page = play(browser, server, start)
    page.wait_for(lambda d: page.legal_holes() == [23])
    page.click_hole(23)
    page.wait_for(lambda d: page.moves() == ["23"])
    after = rules_position(start, ["23"])[0]
    assert page.board("data-position") == after
    # North's two answers (docs/rules/kimasai.md): 35 into the emptied 36, 47 into 48.
    assert sorted(page.legal_holes()) == [35, 47]
    page.click_hole(47)
    page.wait_for(lambda d: page.moves() == ["23", "47"])
    assert page.board("data-position") == rules_position(start, ["23", "47"])[0]


def test_a_server_gone_mid_game_is_said_and_the_board_takes_no_more_moves(browser):
    from conftest import start_server, stop
    proc, url = start_server()
    try:
        page = Page(browser, f"{url}/play?game=bosh&south=human&north=reference&level=1&tc=60%2B1&animate=off")
        page.wait_for(lambda d: page.legal_holes())
        # The first signal drains: the page is told, its game goes on.
        proc.send_signal(signal.SIGTERM)
        page.wait_for(lambda d: "server stopping" in page.text("[data-result]"))
        assert page.legal_holes()
        # The second stops at once.
        proc.send_signal(signal.SIGTERM)
        page.wait_for(lambda d: "lost the connection" in page.error())
        assert page.text("[data-result]") == "connection lost"
        assert page.legal_holes() == []
        assert not browser.find_element(By.CSS_SELECTOR, "[data-move-input]").is_enabled()
    finally:
        browser.get("about:blank")
        stop(proc)
