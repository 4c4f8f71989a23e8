"""Replay of a JSON-lines log (the PGN one is in test_board.py), named with
`--log` and opened with the file picker: the games with their tags, and each
move's score, depth and time from the log."""

import json
import re

import pytest
from selenium.webdriver.common.by import By

from conftest import Page, reference_match, rules_position, start_server, stop


@pytest.fixture(scope="module")
def jsonl_log(tmp_path_factory):
    """Two short Bosh games between two Levels of the reference engine, whose
    moves carry scores and depths."""
    return reference_match(tmp_path_factory.mktemp("jsonl"), "bosh", 2, {"Low": 2, "High": 4},
                           "st=0.05", "--max-plies", "12")


def meta(browser):
    return [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#moves li .meta")]


def test_a_jsonl_log_replayed_with_scores_and_times(browser, jsonl_log):
    games = [json.loads(line) for line in jsonl_log.read_text().splitlines()]
    second = games[1]
    proc, url = start_server("--log", str(jsonl_log))
    try:
        for how in ("--log", "picker"):
            page = Page(browser, f"{url}/replay")
            if how == "picker":
                browser.find_element(By.CSS_SELECTOR, "[data-log-file]").send_keys(str(jsonl_log))
            rows = page.wait_for(lambda d: d.find_elements(By.CSS_SELECTOR, "[data-game-index]")
                                 if len(d.find_elements(By.CSS_SELECTOR, "[data-game-index]")) == 2 else None)
            assert "High" in rows[1].text and "Low" in rows[1].text and second["result"] in rows[1].text
            page.click('[data-game-index="1"]')
            total = len(second["moves"])
            page.wait_for(lambda d: page.text("[data-ply]") == f"0/{total}" and len(page.moves()) == total)
            assert page.moves() == [m["move"] for m in second["moves"]]
            # Each move: its time as logged, its score and depth.
            for shown, logged in zip(meta(browser), second["moves"]):
                assert f"{logged['time_ms']}ms" in shown or f"{logged['time_ms'] / 1000:.1f}s" in shown, shown
                assert f"d{logged['depth']}" in shown, shown
                assert re.search(r"[+-]\d+|[+-]M\d+", shown), shown
            page.click('[data-step="last"]')
            page.wait_for(lambda d: page.text("[data-ply]") == f"{total}/{total}")
            assert page.board("data-position") == rules_position(second["start_position"], page.moves())[0]
            assert second["result"] in page.text("[data-result]")
    finally:
        browser.get("about:blank")
        stop(proc)
