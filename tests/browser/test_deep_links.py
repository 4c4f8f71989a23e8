"""Deep links with bad values: the page says what is wrong and starts
nothing (never a blank page, never a game other than the one asked for)."""

import urllib.parse

from selenium.webdriver.common.by import By

from conftest import Page


def note(page):
    return page.text("#board [data-board-note]")


def test_a_play_link_with_a_bad_value_shows_the_error_and_starts_no_game(server, browser):
    cases = [
        ({"north": "nosuch"}, "nosuch"),          # an engine the server was not started with
        ({"game": "chess"}, "chess"),             # an unknown game id
        ({"tc": "abc"}, "abc"),                   # a time control cutechess would not read
        ({"position": "bohnenspiel 1,2,3 S 0/0"}, "holes"),
        ({"level": "99"}, "1..20"),               # outside the reference engine's Level range
        ({"level": "abc"}, "abc"),                # not a number (was dropped: the default Level)
        ({"north_level": "2.5"}, "2.5"),
    ]
    for change, named in cases:
        query = {"game": "bohnenspiel", "south": "human", "north": "reference", "tc": "60+1", **change}
        page = Page(browser, f"{server}/play?{urllib.parse.urlencode(query)}")
        page.wait_for(lambda d: page.error() and note(page) == "no game")
        assert named in page.error(), (change, page.error())
        assert page.board("data-position") == ""
        assert not browser.find_elements(By.CSS_SELECTOR, "[data-hole]")
    # The unknown engine's error names the ones there are.
    page = Page(browser, f"{server}/play?game=bosh&south=human&north=nosuch")
    page.wait_for(lambda d: "reference" in page.error())


def test_an_analysis_link_with_a_bad_position_shows_the_error(server, browser):
    bad = "bohnenspiel 1,2,3 S 0/0"
    page = Page(browser, f"{server}/analyse?" + urllib.parse.urlencode({"position": bad}))
    page.wait_for(lambda d: note(page) == "no position")
    assert "holes" in page.error()
    # The string stays in the field, to be corrected and set up.
    field = browser.find_element(By.CSS_SELECTOR, "[data-position-input]")
    assert field.get_attribute("value") == bad
    field.clear()
    field.send_keys("bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 N 0/0")
    page.click('[data-action="set-position"]')
    page.wait_for(lambda d: page.board("data-to-move") == "north")
    assert page.error() == ""


def test_an_analysis_link_with_an_unknown_game_names_it(server, browser):
    page = Page(browser, f"{server}/analyse?game=chess")
    page.wait_for(lambda d: note(page) == "no position")
    assert "chess" in page.error(), page.error()


def test_a_replay_link_to_a_missing_log_or_game_says_so(server, browser):
    page = Page(browser, f"{server}/replay?log=7&game=0")
    page.wait_for(lambda d: "no log \"7\"" in page.error())
    assert note(page) == "open a log"
    page = Page(browser, f"{server}/replay?log=0&game=99")
    page.wait_for(lambda d: "no game \"99\"" in page.error())
    assert browser.find_elements(By.CSS_SELECTOR, "[data-game-index]")


def test_a_time_control_typed_with_a_bare_plus_is_read_as_plus(server, browser):
    # `tc=5+2` unencoded: the query reads "5 2"; the page means 5+2.
    page = Page(browser, f"{server}/play?game=bosh&south=human&north=human&tc=5+2")
    page.wait_for(lambda d: page.board("data-position") and page.text('[data-clock="north"]') == "0:05.0")  # North's clock is not running
    assert browser.find_element(By.ID, "tc").get_attribute("value") == "5+2"
    assert page.error() == ""
