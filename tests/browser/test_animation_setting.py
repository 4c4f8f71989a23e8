"""The Animation setting chosen on the page: remembered across pages, `off`
shows a move at once (no animation step at all), `step by step` waits for
Next step, and an address' `animate=` overrides it for one page."""

import urllib.parse

from selenium.webdriver.support.ui import Select

from conftest import Page, rules_position

START = "bosh 0,0,0,1,0,0,2,0,0,0 S 20/17 1"

# Records every value the board's data-animating takes (a MutationObserver
# in the page), so "never animated" is a fact, not a guess about timing.
WATCH = """
window.animatedSteps = [];
new MutationObserver((ms) => ms.forEach((m) => {
  if (document.getElementById('board').dataset.animating) window.animatedSteps.push(m.attributeName);
})).observe(document.getElementById('board'), { attributes: true, subtree: true });
"""


def open_bosh(browser, server, **extra):
    query = {"position": START, "south": "human", "north": "human", "tc": "inf", **extra}
    page = Page(browser, f"{server}/play?{urllib.parse.urlencode(query)}")
    page.wait_for(lambda d: page.board("data-position") == START and page.legal_holes() == [4])
    return page


def test_the_animation_setting_is_remembered_and_off_means_off(server, browser):
    try:
        page = open_bosh(browser, server)
        Select(browser.find_element("css selector", "[data-anim-speed]")).select_by_value("off")
        page = open_bosh(browser, server)     # a new page: the choice is kept
        assert browser.find_element("css selector", "[data-anim-speed]").get_attribute("value") == "off"
        browser.execute_script(WATCH)
        page.click_hole(4)
        page.wait_for(lambda d: page.board("data-position") == rules_position(START, ["4"])[0])
        assert browser.execute_script("return window.animatedSteps") == []
        # Step by step, chosen on the page: the move waits for Next step.
        Select(browser.find_element("css selector", "[data-anim-speed]")).select_by_value("manual")
        page = open_bosh(browser, server)
        assert browser.find_element("css selector", "[data-anim-speed]").get_attribute("value") == "manual"
        page.click_hole(4)
        page.wait_for(lambda d: page.board("data-animating") == "true")
        assert page.board("data-position") == START
        page.click("[data-anim-skip]")
        page.wait_for(lambda d: page.board("data-position") == rules_position(START, ["4"])[0])
        # The address overrides the kept choice.
        page = open_bosh(browser, server, animate="off")
        assert browser.find_element("css selector", "[data-anim-speed]").get_attribute("value") == "off"
    finally:
        # The other tests expect the default.
        browser.execute_script("localStorage.removeItem('animate')")
