"""Accessibility basics of the board page: every form field has a label,
holes and moves are buttons, and the keyboard alone plays a move and steps
through a line."""

import urllib.parse

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import Page

UNLABELLED = """
return Array.from(document.querySelectorAll('input, select, textarea'))
  .filter((e) => e.offsetParent !== null || e.type === 'file')
  .filter((e) => !(e.labels && e.labels.length) && !e.getAttribute('aria-label'))
  .map((e) => e.outerHTML);
"""


def test_every_field_has_a_label_and_holes_are_buttons(server, browser):
    for path in ["/play?game=bosh&south=human&north=human&tc=inf", "/analyse", "/replay"]:
        page = Page(browser, server + path)
        page.wait_for(lambda d: page.board("data-position"))
        if path == "/analyse":
            page.click('[data-action="export-position"]')
            page.click('[data-action="options"]')
            page.wait_for(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-option]"))
        assert browser.execute_script(UNLABELLED) == [], path
        holes = browser.find_elements(By.CSS_SELECTOR, "#board [data-hole]")
        assert holes and all(h.tag_name == "button" for h in holes), path


def test_the_keyboard_alone_plays_a_move_and_steps_back(server, browser):
    start = "bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0"
    page = Page(browser, f"{server}/analyse?" + urllib.parse.urlencode({"position": start, "animate": "off"}))
    page.wait_for(lambda d: page.legal_holes())
    # Tab from the page's start until a legal hole has the focus; Enter plays it.
    body = browser.find_element(By.TAG_NAME, "body")
    body.click()
    focused = None
    for _ in range(60):
        browser.switch_to.active_element.send_keys(Keys.TAB)
        focused = browser.switch_to.active_element
        if focused.get_attribute("data-legal") == "true":
            break
    assert focused.get_attribute("data-legal") == "true", "Tab reaches a legal hole"
    hole = focused.get_attribute("data-hole")
    focused.send_keys(Keys.ENTER)
    page.wait_for(lambda d: page.moves() == [hole])
    # The move in the list is a button: Enter on it after a take-forward goes back to it.
    page.click('[data-step="first"]')
    page.wait_for(lambda d: page.text("[data-ply]") == "0/1")
    move = browser.find_element(By.CSS_SELECTOR, "#moves li button.mv")
    move.send_keys(Keys.ENTER)
    page.wait_for(lambda d: page.text("[data-ply]") == "1/1")


def test_a_kujifunza_kichwa_choice_by_keyboard_alone(server, browser):
    query = {"game": "kujifunza", "south": "human", "north": "human", "tc": "inf", "animate": "off"}
    page = Page(browser, f"{server}/play?{urllib.parse.urlencode(query)}")
    page.wait_for(lambda d: 1 in page.legal_holes())
    browser.find_element(By.CSS_SELECTOR, '[data-hole="1"]').send_keys(Keys.ENTER)
    # The chooser takes the focus: its first move, then Tab to the next.
    page.wait_for(lambda d: d.switch_to.active_element.get_attribute("data-choice"))
    browser.switch_to.active_element.send_keys(Keys.TAB)
    chosen = browser.switch_to.active_element.get_attribute("data-choice")
    assert chosen in ("1-++", "1-+-", "1--")
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    page.wait_for(lambda d: page.moves() == [chosen])
