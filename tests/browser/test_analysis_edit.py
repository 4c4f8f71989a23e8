"""The analysis board's editor: every field of a position (holes, stores or
reserves, closed Bosh holes, the side to move, the Bosh round) set by mouse;
a draft the rules refuse is shown with their reason and never analysed."""

import urllib.parse

from selenium.webdriver.common.by import By

from conftest import Page, rules_position

KIMASAI_START = ("kimasai " + ",".join(["1"] * 23 + ["0"] + ["1"] * 23 + ["0"]) + " S")


def open_editor(browser, server, start):
    page = Page(browser, f"{server}/analyse?" + urllib.parse.urlencode({"position": start}))
    page.wait_for(lambda d: page.board("data-position") == start)
    browser.find_element(By.CSS_SELECTOR, "[data-edit-board]").click()
    page.wait_for(lambda d: page.board("data-draft") == "valid")
    return page


def edit(page, css, value):
    """Clicks a hole, store or button and answers its prompt; returns the
    prompt's text."""
    page.click(css)
    alert = page.wait_for(lambda d: d.switch_to.alert)
    text = alert.text
    alert.send_keys(value)
    alert.accept()
    return text


def test_a_bohnenspiel_board_edited_hole_and_store_then_analysed(server, browser):
    page = open_editor(browser, server, "bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0")
    # One hole emptied: 66 beans, not 72. Drawn as a draft, refused by the rules.
    # No hole of Bohnenspiel can be closed: the prompt offers no `x`.
    assert "closed" not in edit(page, '[data-hole="3"]', "0")
    page.wait_for(lambda d: page.board("data-draft") == "invalid")
    assert "72" in page.error(), page.error()
    assert browser.find_element(By.CSS_SELECTOR, '[data-hole="3"]').get_attribute("data-seeds") == "0"
    page.click('[data-action="analyse"]')
    page.wait_for(lambda d: "not a valid position" in page.error())
    assert not browser.find_elements(By.CSS_SELECTOR, "#infos [data-multipv]")
    # The six beans in North's store: a valid position, set up for analysis.
    edit(page, '[data-store="north"]', "6")
    want = "bohnenspiel 6,6,0,6,6,6,6,6,6,6,6,6 S 0/6"
    page.wait_for(lambda d: page.board("data-draft") == "valid" and page.board("data-position") == want)
    assert page.error() == ""
    page.click('[data-action="edit-side"]')
    want = want.replace(" S ", " N ")
    page.wait_for(lambda d: page.board("data-position") == want)
    assert browser.find_element(By.CSS_SELECTOR, "[data-position-input]").get_attribute("value") == want
    # Editing off: the edited position is the one analysed, North to move.
    browser.find_element(By.CSS_SELECTOR, "[data-edit-board]").click()
    page.wait_for(lambda d: page.legal_holes())
    assert sorted(page.legal_holes()) == [7, 8, 9, 10, 11, 12]
    page.click('[data-action="analyse"]')
    page.wait_for(lambda d: browser.find_elements(By.CSS_SELECTOR, '#infos [data-multipv="1"]'))
    page.click('[data-action="stop"]')
    page.wait_for(lambda d: page.text("[data-bestmove]"))
    assert int(page.text("[data-bestmove]")) in range(7, 13)


def test_a_bosh_board_edited_closed_hole_reserve_and_round(server, browser):
    page = open_editor(browser, server, "bosh 4,4,4,4,4,4,4,4,4,4 S 0/0 1")
    # The board data says Bosh holes close; the prompt offers `x`.
    assert "(x: closed)" in edit(page, '[data-hole="10"]', "x")
    page.wait_for(lambda d: "40" in page.error())
    edit(page, '[data-store="south"]', "4")
    page.wait_for(lambda d: page.board("data-draft") == "valid")
    edit(page, '[data-action="edit-round"]', "0")
    page.wait_for(lambda d: "round" in page.error())
    edit(page, '[data-action="edit-round"]', "2")
    want = rules_position("bosh 4,4,4,4,4,4,4,4,4,x S 4/0 2", [])[0]
    page.wait_for(lambda d: page.board("data-position") == want and page.board("data-round") == "2")
    assert browser.find_element(By.CSS_SELECTOR, '[data-hole="10"]').get_attribute("data-seeds") == "x"


def test_a_kimasai_board_edited_refuses_a_24th_stone(server, browser):
    page = open_editor(browser, server, KIMASAI_START)
    assert not browser.find_elements(By.CSS_SELECTOR, "#board [data-store]")
    assert not browser.find_element(By.CSS_SELECTOR, '[data-action="edit-round"]').is_displayed()
    edit(page, '[data-hole="24"]', "1")
    page.wait_for(lambda d: "23" in page.error())
    edit(page, '[data-hole="1"]', "0")
    want = KIMASAI_START.replace("kimasai 1,", "kimasai 0,").replace(",0,1,", ",1,1,", 1)
    page.wait_for(lambda d: page.board("data-draft") == "valid")
    assert page.board("data-position") == rules_position(want, [])[0]
    # A count the game cannot hold is refused before the rules see it.
    edit(page, '[data-hole="2"]', "two")
    page.wait_for(lambda d: "not a count" in page.error())


def test_a_running_analysis_follows_an_accepted_edit(server, browser):
    page = open_editor(browser, server, "bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0")
    first_move = lambda d: (d.find_elements(By.CSS_SELECTOR, '#infos [data-multipv="1"] td')[5].text.split() or [""])[0]
    page.click('[data-action="analyse"]')
    page.wait_for(lambda d: first_move(d) in {"1", "2", "3", "4", "5", "6"})
    # North to move: the lines become North's (pits 7-12).
    page.click('[data-action="edit-side"]')
    page.wait_for(lambda d: page.board("data-to-move") == "north")
    page.wait_for(lambda d: first_move(d) in {"7", "8", "9", "10", "11", "12"})
    page.click('[data-action="stop"]')
    page.wait_for(lambda d: page.text("[data-bestmove]") in {"7", "8", "9", "10", "11", "12"})
