"""The analysis board's line: every kind of move by mouse and by typing (a
Hemprich pass, a typed move, an illegal one refused with the rules' reason,
a Kujifunza kichwa choice), an exported log loaded back in replay, a running
analysis following the board, its engine crashing or its tab closed."""

import urllib.parse

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.support.ui import WebDriverWait

from conftest import WAIT, Page, rules_position


def analyse(browser, server, start):
    page = Page(browser, f"{server}/analyse?" + urllib.parse.urlencode({"position": start, "animate": "off"}))
    page.wait_for(lambda d: page.board("data-position") == start)
    return page


def test_a_hemprich_pass_typed_and_clicked_on_the_analysis_board(server, browser):
    start = "bohnenspiel-hemprich 3,0,5,0,0,1,1,0,0,0,0,0 S 30/32"
    page = analyse(browser, server, start)
    field = browser.find_element(By.CSS_SELECTOR, "[data-move-input]")
    assert field.is_displayed() and not browser.find_element(By.CSS_SELECTOR, "[data-pass]").is_displayed()
    field.send_keys("9", Keys.ENTER)   # North's pit: the rules say why not
    page.wait_for(lambda d: "9" in page.error())
    assert page.moves() == []
    field.send_keys("6", Keys.ENTER)
    page.wait_for(lambda d: page.moves() == ["6"] and page.error() == "")
    # North has no move but pass: by mouse …
    page.wait_for(lambda d: d.find_element(By.CSS_SELECTOR, "[data-pass]").is_displayed())
    assert page.legal_holes() == []
    page.click("[data-pass]")
    page.wait_for(lambda d: page.moves() == ["6", "pass"])
    assert page.board("data-position") == rules_position(start, ["6", "pass"])[0]
    # … and typed, after a take-back.
    page.click('[data-action="takeback"]')
    page.wait_for(lambda d: page.moves() == ["6"])
    field.send_keys("pass", Keys.ENTER)
    page.wait_for(lambda d: page.moves() == ["6", "pass"])


def test_a_kujifunza_kichwa_choice_by_mouse_on_the_analysis_board(server, browser):
    start = "kujifunza " + ",".join(["2"] * 32) + " S"
    page = analyse(browser, server, start)
    page.click_hole(1)
    choices = page.wait_for(lambda d: page.choices())
    assert sorted(choices) == ["1-++", "1-+-", "1--"]
    page.click('[data-choice="1--"]')
    page.wait_for(lambda d: page.moves() == ["1--"])
    assert page.board("data-position") == rules_position(start, ["1--"])[0]


def test_an_exported_analysis_log_loads_back_in_replay(server, browser, tmp_path):
    start = "bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0"
    page = Page(browser, f"{server}/analyse?" + urllib.parse.urlencode({"position": start, "moves": "3 9 1"}))
    page.wait_for(lambda d: page.moves() == ["3", "9", "1"] and page.text("[data-ply]") == "3/3")
    after = rules_position(start, ["3", "9", "1"])[0]
    page.wait_for(lambda d: page.board("data-position") == after)
    export = lambda: browser.find_element(By.CSS_SELECTOR, "[data-export]").get_attribute("value")
    page.click('[data-action="export-position"]')
    page.wait_for(lambda d: export() == after)
    page.click('[data-action="export-log"]')
    log = page.wait_for(lambda d: export() if export().startswith("[Event") else None)
    saved = tmp_path / "analysis.pgn"
    saved.write_text(log)
    replay = Page(browser, f"{server}/replay")
    browser.find_element(By.CSS_SELECTOR, "[data-log-file]").send_keys(str(saved))
    replay.wait_for(lambda d: replay.text("[data-ply]") == "0/3")
    replay.click('[data-step="last"]')
    replay.wait_for(lambda d: replay.text("[data-ply]") == "3/3" and replay.board("data-position") == after)
    assert replay.moves() == ["3", "9", "1"]
    assert replay.error() == ""


def test_a_running_analysis_follows_the_board_to_the_new_position(server, browser):
    start = "bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0"
    page = analyse(browser, server, start)
    first_move = lambda d: (d.find_elements(By.CSS_SELECTOR, '#infos [data-multipv="1"] td')[5].text.split() or [""])[0]
    page.click('[data-action="analyse"]')
    page.wait_for(lambda d: first_move(d) in {"1", "2", "3", "4", "5", "6"})
    page.click_hole(3)
    page.wait_for(lambda d: page.moves() == ["3"])
    # The lines are now North's (pits 7-12), from the searched position after 3.
    page.wait_for(lambda d: first_move(d) in {"7", "8", "9", "10", "11", "12"})
    marked = page.wait_for(lambda d: d.find_elements(By.CSS_SELECTOR, '#board [data-pv="true"]'))
    assert int(marked[0].get_attribute("data-hole")) in range(7, 13)
    page.click('[data-action="stop"]')
    page.wait_for(lambda d: page.text("[data-bestmove]") in {"7", "8", "9", "10", "11", "12"})


def test_an_engine_that_crashes_during_analysis_is_started_again_by_the_next_search(server, browser):
    from selenium.webdriver.support.ui import Select
    page = analyse(browser, server, "bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0")
    # crasher answers its first go at once and aborts on its second.
    Select(browser.find_element(By.ID, "analyse-engine")).select_by_value("crasher")
    def until(condition):
        try:
            page.wait_for(lambda d: condition())
        except TimeoutException:
            raise AssertionError(f"error {page.error()!r}, bestmove {page.text('[data-bestmove]')!r}") from None

    page.click('[data-action="analyse"]')
    until(lambda: page.text("[data-bestmove]"))
    page.click('[data-action="analyse"]')
    until(lambda: "the engine stopped" in page.error())
    # The page stays usable: the next Analyse starts the engine again.
    page.click('[data-action="analyse"]')
    until(lambda: page.text("[data-bestmove]") and page.error() == "")


def test_a_closed_analysis_tab_ends_its_engine(server, browser):
    import conftest
    pid = conftest.SERVER_PID[0]
    # The earlier tests' pages (each analysis page starts its engine) are left first.
    browser.get("about:blank")
    WebDriverWait(browser, WAIT).until(lambda d: not conftest.engine_children(pid))
    first = browser.current_window_handle
    browser.switch_to.new_window("tab")
    page = analyse(browser, server, "bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0")
    page.click('[data-action="analyse"]')
    page.wait_for(lambda d: d.find_elements(By.CSS_SELECTOR, '#infos [data-multipv="1"]'))
    assert conftest.engine_children(pid), "the analysis engine runs"
    browser.close()
    browser.switch_to.window(first)
    page.wait_for(lambda d: not conftest.engine_children(pid))
