"""`arbiter serve --watch`: the live page following results logs that grow,
written here line by line from the logs of real `arbiter tournament --shard`
runs (testbots), in a real headless Chromium."""

import json
import re

from selenium.webdriver.common.by import By

from conftest import TESTBOT, Page, arbiter, start_server, stop

ENGINES = ["Ant", "Bee", "Cat"]


def shard_lines(d):
    """Both shards of a 3-engine round robin (2 rounds, 12 games): their lines."""
    logs = []
    for shard in (1, 2):
        log = d / f"shard{shard}.jsonl"
        args = ["tournament", "--rounds", "2", "--openings", "plies=2", "--seed", "3"]
        for i, name in enumerate(ENGINES):
            args += ["--engine", f"cmd={TESTBOT}", f"name={name}", "arg=--mode", "arg=random",
                     "arg=--seed", f"arg={7 + i}", "depth=1"]
        arbiter(*args, "--shard", f"{shard}/2", "--jsonout", str(log))
        logs.append(log.read_text().splitlines(keepends=True))
    return logs


def append(path, text):
    with open(path, "a") as f:
        f.write(text)


def standings_rows(page):
    rows = page.d.find_elements(By.CSS_SELECTOR, "[data-standings] tbody tr")
    return [(r.get_attribute("data-engine"), r.find_elements(By.TAG_NAME, "td")[3].text) for r in rows]


def test_a_watch_page_follows_logs_that_grow(browser, tmp_path):
    one, two = shard_lines(tmp_path)
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    append(a, one[0])
    # b.jsonl does not exist yet: a shard still queued.
    proc, url = start_server("--watch", str(a), str(b), "--watch-interval", "0.1")
    try:
        page = Page(browser, f"{url}/live")
        games = lambda: page.d.find_element(By.CSS_SELECTOR, "[data-standings]").get_attribute("data-games")
        page.wait_for(lambda d: games() == "1")
        first = standings_rows(page)
        assert len(first) == 2, first
        assert not page.d.find_element(By.CSS_SELECTOR, "[data-playing-section]").is_displayed()

        # The other shard starts; half a line first (a write in progress).
        append(b, two[0][:40])
        append(a, "".join(one[1:3]))
        page.wait_for(lambda d: games() == "3")
        append(b, two[0][40:] + "".join(two[1:]))
        append(a, "".join(one[3:]))
        page.wait_for(lambda d: games() == "12")

        merged = json.loads(arbiter("merge", "--json", str(a), str(b)))
        expected = [(e["name"], f'{e["points"]:.1f}') for e in merged["standings"]]
        page.wait_for(lambda d: standings_rows(page) == expected)
        assert standings_rows(page) != first
        assert page.text("[data-progress]").startswith("12/12 games"), page.text("[data-progress]")
        assert len(page.d.find_elements(By.CSS_SELECTOR, "[data-finished] tbody tr")) == 12

        # A line that is no game: the page says which log and line.
        append(a, "this is not a game\n")
        page.wait_for(lambda d: "a.jsonl: line 7" in page.text("[data-problems]"))

        # Each log numbers its own games: the link names the log.
        labels = lambda d: [a.text for a in d.find_elements(By.CSS_SELECTOR, "[data-finished] a[data-replay]")]
        page.wait_for(lambda d: all(re.fullmatch(r"[ab]\.jsonl #\d+", t) for t in labels(d)))
        assert {t.split(" ")[0] for t in labels(page.d)} == {"a.jsonl", "b.jsonl"}

        # A finished game opens in the replay view.
        row = page.d.find_element(By.CSS_SELECTOR, "[data-finished] tbody tr")
        cells = [td.text for td in row.find_elements(By.TAG_NAME, "td")]
        link = row.find_element(By.CSS_SELECTOR, "a[data-replay]")
        href = link.get_attribute("href")
        assert "log=" in href and "game=" in href, href
        link.click()
        page.wait_for(lambda d: "/replay" in d.current_url)
        # That game: its round in the heading, its plies on the counter.
        page.wait_for(lambda d: f"round {cells[1]} " in d.find_element(By.TAG_NAME, "main").text)
        page.wait_for(lambda d: f"0/{cells[6]}" in d.find_element(By.TAG_NAME, "main").text)
    finally:
        stop(proc)
