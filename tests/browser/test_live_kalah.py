"""The live page (`arbiter match --live`) with Kalah: a game in progress is
drawn as Kalah's board (12 holes and 2 stores, the seeds of the position the
server sent), and a finished game opens from the page in the replay, whose
move list numbers an extra turn by its mover (docs/rules/kalah.md, as the
PGN does). Engines: the reference engine with a short move time, from an
opening where every move of South's ends in its store."""

import re

from selenium.webdriver.common.by import By

from conftest import BIN, Page, start_live, stop
from test_kalah_oware import listed, pgn_labels

# South's hole n holds 7 - n seeds: each lands its last seed in South's
# store, so the first ply of every game is an extra turn (48 seeds: 21 on
# South's side, 24 on North's, 3 in South's store).
OPENING = "kalah 6,5,4,3,2,1,4,4,4,4,4,4 S 3/0"


def live_match(tmp_path):
    engine = str(BIN / "engine")
    openings = tmp_path / "openings.txt"
    openings.write_text(OPENING + "\n")
    # why many games: the page must meet one in progress however late it
    # connects; the test stops the match once it has seen what it checks.
    args = [str(BIN / "arbiter"), "match", "--game", "kalah", "--games", "20",
            "--openings", f"file={openings}",
            "--engine", f"cmd={engine}", "name=one", "option.Level=17",
            "--engine", f"cmd={engine}", "name=two", "option.Level=18",
            "--each", "st=0.05", "timemargin=500",
            # why both logs: the page's replay links need the JSON lines; the
            # PGN numbers the moves as the replay must.
            "--jsonout", str(tmp_path / "games.jsonl"), "--pgnout", str(tmp_path / "games.pgn"),
            "--stderr-dir", str(tmp_path / "stderr"),
            "--live", "127.0.0.1:0"]
    return start_live(args)


def drawn_board(driver):
    """The first board in progress, read at once (it is redrawn every ply):
    its game, position string, holes (number -> seeds) and stores."""
    return driver.execute_script("""
        const b = document.querySelector('[data-live-game] [data-board][data-position^="kalah "]');
        if (!b) return null;
        return {
          game: b.dataset.game,
          position: b.dataset.position,
          holes: [...b.querySelectorAll('[data-hole]')].map((h) => [Number(h.dataset.hole), h.dataset.seeds]),
          stores: [...b.querySelectorAll('[data-store]')].map((s) => [s.dataset.store, s.dataset.seeds]),
        };""")


def pgn_games(text):
    """The games of a PGN file, each as its own text."""
    return [g for g in re.split(r"\n\n(?=\[)", text.strip()) if g.strip()]


def test_a_live_kalah_match_draws_its_board_and_numbers_an_extra_turn_by_its_mover(tmp_path, browser):
    proc, url = live_match(tmp_path)
    try:
        page = Page(browser, url)
        # A game in progress: Kalah's board, 12 holes and the two stores,
        # holding what the position string says.
        board = page.wait_for(lambda d: drawn_board(d))
        assert board["game"] == "kalah"
        _, holes, _, stores = board["position"].split()
        want_holes = {n + 1: seeds for n, seeds in enumerate(holes.split(","))}
        assert dict(board["holes"]) == want_holes, board
        assert len(board["holes"]) == 12
        assert dict(board["stores"]) == dict(zip(("south", "north"), stores.split("/"))), board
        # Each ply's line names who moved.
        page.wait_for(lambda d: re.match(r"ply \d+: (south|north) played \d+ ",
                                         page.text("[data-live-game] [data-last-move]")))
        # The first finished game, from the page's list, in the replay.
        href = page.wait_for(lambda d: d.find_element(
            By.CSS_SELECTOR, '[data-finished-game="0"] [data-replay]').get_attribute("href"))
        first = page.wait_for(lambda d: pgn_games((tmp_path / "games.pgn").read_text())[0])
        want = pgn_labels(first)
        # The opening's extra turn: South moves twice, numbered 1. and 2.
        assert [(s, n) for s, n, _ in want[:2]] == [("south", "1."), ("south", "2.")], want
        browser.get(href)
        replay = Page(browser, browser.current_url)
        replay.wait_for(lambda d: len(replay.moves()) == len(want))
        assert listed(browser) == want
    finally:
        browser.get("about:blank")
        stop(proc)
