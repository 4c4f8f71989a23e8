"""Engine options from the page: the analysis options dialog, built from
the `option` lines of an engine that is not the reference one (tests/browser/optionbot.py declares every
kind); the values chosen reach the engine as `setoption` before its search,
and a value outside a spin's range is not taken; and the Level
of each side in play."""

from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import Page, start_server, stop

OPTIONBOT = Path(__file__).resolve().parent / "optionbot.py"


def test_the_options_dialog_of_another_engine_sends_what_was_chosen(browser, tmp_path):
    received = tmp_path / "received.txt"
    proc, url = start_server("--engine", f"cmd={OPTIONBOT}", "name=optionbot", f"arg={received}")
    try:
        page = Page(browser, f"{url}/analyse")
        Select(browser.find_element(By.ID, "analyse-engine")).select_by_value("optionbot")
        page.wait_for(lambda d: received.exists() and "umi" in received.read_text())
        page.click('[data-action="options"]')
        kinds = page.wait_for(lambda d: {e.get_attribute("data-option"): (e.tag_name, e.get_attribute("type"))
                                         for e in d.find_elements(By.CSS_SELECTOR, "[data-option]")} or None)
        assert kinds == {"Style": ("select", "select-one"), "Book File": ("input", "text"),
                         "Careful": ("input", "checkbox"), "Depth": ("input", "number"),
                         "Level": ("input", "number")}, kinds
        style = Select(browser.find_element(By.CSS_SELECTOR, '[data-option="Style"]'))
        assert [o.text for o in style.options] == ["solid", "wild", "random"]
        style.select_by_value("wild")
        book = browser.find_element(By.CSS_SELECTOR, '[data-option="Book File"]')
        book.clear()
        book.send_keys("my book.bin")
        browser.find_element(By.CSS_SELECTOR, '[data-option="Careful"]').click()
        page.click('[data-option-button="Clear Hash"]')
        page.click('[data-action="options-ok"]')
        page.click('[data-action="analyse"]')
        page.wait_for(lambda d: d.find_elements(By.CSS_SELECTOR, '#infos [data-multipv="1"]'))
        page.click('[data-action="stop"]')
        page.wait_for(lambda d: page.text("[data-bestmove]") == "(none)")
        lines = received.read_text().splitlines()
        go = lines.index("go infinite")
        sent = [l for l in lines[:go] if l.startswith("setoption")]
        assert sorted(sent) == sorted([
            "setoption name Style value wild", "setoption name Book File value my book.bin",
            "setoption name Careful value false", "setoption name Depth value 3",
            "setoption name Clear Hash", "setoption name Level value 20"]), sent
        # Later searches: only what changed since is sent (nothing, then Book File).
        page.click('[data-action="analyse"]')
        page.wait_for(lambda d: received.read_text().splitlines().count("go infinite") == 2)
        page.set_option("Book File", "other.bin")
        page.click('[data-action="analyse"]')
        page.wait_for(lambda d: received.read_text().splitlines().count("go infinite") == 3)
        lines = received.read_text().splitlines()
        second, third = [i for i, l in enumerate(lines) if l == "go infinite"][1:]
        assert not [l for l in lines[go:second] if l.startswith("setoption")]
        assert [l for l in lines[second:third] if l.startswith("setoption")] == ["setoption name Book File value other.bin"]
        page.click('[data-action="stop"]')
        # A value outside the declared range: the dialog (a form with the
        # spin's min and max) does not close; the server refuses such a value
        # too (see test_deep_links: level=99).
        page.click('[data-action="options"]')
        depth = page.wait_for(lambda d: d.find_element(By.CSS_SELECTOR, '[data-option="Depth"]'))
        depth.clear()
        depth.send_keys("12")
        page.click('[data-action="options-ok"]')
        assert browser.find_element(By.ID, "options-dialog").get_attribute("open") is not None
        assert browser.execute_script("return arguments[0].validationMessage", depth)
    finally:
        browser.get("about:blank")
        stop(proc)


def test_each_side_gets_the_level_in_its_own_field(browser, tmp_path):
    received = tmp_path / "received.txt"
    proc, url = start_server("--engine", f"cmd={OPTIONBOT}", "name=optionbot", f"arg={received}")
    levels = lambda: sorted(l for l in received.read_text().splitlines() if "name Level" in l) if received.exists() else []
    try:
        page = Page(browser, f"{url}/play?game=bosh&south=optionbot&north=optionbot"
                             "&south_level=3&north_level=7&tc=600%2B0&animate=off")
        page.wait_for(lambda d: levels() == ["setoption name Level value 3", "setoption name Level value 7"])
        # The form's field, not the address, decides the next game's Level.
        field = browser.find_element(By.ID, "south_level")
        field.clear()
        field.send_keys("5")
        page.click('[data-action="new-game"]')
        page.wait_for(lambda d: "setoption name Level value 5" in levels())
        assert "setoption name Level value 7" in levels()
    finally:
        browser.get("about:blank")
        stop(proc)


def test_multipv_in_the_dialog_and_the_lines_field_are_one_value(server, browser):
    page = Page(browser, f"{server}/analyse")
    field = page.wait_for(lambda d: d.find_element(By.CSS_SELECTOR, "[data-multipv-input]"))
    page.wait_for(lambda d: field.is_displayed())
    field.clear()
    field.send_keys("2")
    page.click('[data-action="options"]')
    shown = page.wait_for(lambda d: d.find_element(By.CSS_SELECTOR, '[data-option="MultiPV"]'))
    assert shown.get_attribute("value") == "2", "the dialog shows the Lines field's value"
    shown.clear()
    shown.send_keys("3")
    page.click('[data-action="options-ok"]')
    # (the dialog's close event, which takes the values, comes as a task of its own)
    page.wait_for(lambda d: field.get_attribute("value") == "3")
    page.click('[data-action="analyse"]')
    page.wait_for(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#infos [data-multipv]")) == 3)
    page.click('[data-action="stop"]')
    page.wait_for(lambda d: page.text("[data-bestmove]"))
