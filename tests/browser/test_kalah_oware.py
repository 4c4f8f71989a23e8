"""Kalah and Oware on the browser board (docs/rules/kalah.md, oware.md): a
Kalah game by clicks with an extra turn and a capture, the board and stores
checked after every move against the rules library (`arbiter show`); the
move list numbered by who moved (an extra turn is the same side again) on
the play, analysis and replay pages; an Oware grand slam by a click."""

import re
import urllib.parse

from selenium.webdriver.common.by import By

from conftest import BIN, Page, arbiter, rules_position, start_server, stop

KALAH_START = "kalah 4,4,4,4,4,4,4,4,4,4,4,4 S 0/0"


def play_page(browser, server, start):
    query = {"position": start, "south": "human", "north": "human", "tc": "inf", "animate": "off"}
    page = Page(browser, f"{server}/play?{urllib.parse.urlencode(query)}")
    page.wait_for(lambda d: page.board("data-position") == start)
    return page


def seeds(browser):
    """The board as drawn: each hole's seeds (1–12) and the two stores."""
    holes = [browser.find_element(By.CSS_SELECTOR, f'#board [data-hole="{n}"]').get_attribute("data-seeds")
             for n in range(1, 13)]
    stores = [browser.find_element(By.CSS_SELECTOR, f'#board [data-store="{s}"]').get_attribute("data-seeds")
              for s in ("south", "north")]
    return [int(n) for n in holes], [int(n) for n in stores]


def parts(position):
    """Holes, stores and side of a `kalah …` / `oware …` position string."""
    _, holes, side, stores = position.split()
    return [int(n) for n in holes.split(",")], [int(n) for n in stores.split("/")], side


def listed(browser):
    """The move list: (mover column, number label, move) per ply."""
    return [(li.get_attribute("data-side"), li.find_element(By.CSS_SELECTOR, ".num").text,
             li.find_element(By.CSS_SELECTOR, ".mv").text)
            for li in browser.find_elements(By.CSS_SELECTOR, "#moves li")]


def assert_columns(browser):
    """Each move stands in its mover's column; a move after the same side's
    move starts a new row, a North move after a South one shares its row."""
    items = browser.find_elements(By.CSS_SELECTOR, "#moves li")
    boxes = [(li.get_attribute("data-side"), li.rect) for li in items]
    xs = {side: {round(r["x"]) for s, r in boxes if s == side} for side in ("south", "north")}
    assert all(len(v) <= 1 for v in xs.values()), xs
    if xs["south"] and xs["north"]:
        assert next(iter(xs["south"])) < next(iter(xs["north"])), xs
    for (side, r), (next_side, nr) in zip(boxes, boxes[1:]):
        if side == "south" and next_side == "north":
            assert abs(r["y"] - nr["y"]) < 2, (r, nr)
        else:
            assert nr["y"] > r["y"] + 2, (side, r, next_side, nr)


# 3 ends in South's store (extra turn), 1 sows on, North's 10 drops its
# last seed in hole 1, South's 2 ends in the store again (extra turn), and
# South's 1 sows its one seed into the emptied hole 2: it takes North's
# 5 seeds in hole 11 opposite and itself, 6 in all, to South's store.
KALAH_GAME = [
    ("3", "south", "1."),
    ("1", "south", "2."),
    ("10", "north", "2…"),
    ("2", "south", "3."),
    ("1", "south", "4."),
]


def test_a_kalah_game_by_clicks_with_an_extra_turn_and_a_capture(server, browser):
    page = play_page(browser, server, KALAH_START)
    played = []
    for mv, mover, label in KALAH_GAME:
        page.wait_for(lambda d: page.board("data-to-move") == mover and int(mv) in page.legal_holes())
        page.click_hole(int(mv))
        played.append(mv)
        page.wait_for(lambda d: page.moves() == played)
        position, status = rules_position(KALAH_START, played)
        page.wait_for(lambda d: page.board("data-position") == position)
        assert status == "ongoing"
        holes, stores, side = parts(position)
        assert seeds(browser) == (holes, stores)
        assert page.board("data-to-move") == ("south" if side == "S" else "north")
        assert listed(browser) == [(s, n, m) for m, s, n in KALAH_GAME[:len(played)]]
        assert_columns(browser)
    # The extra turns: South moved again after 3 and after 2.
    assert parts(rules_position(KALAH_START, ["3"])[0])[2] == "S"
    assert parts(rules_position(KALAH_START, ["3", "1", "10", "2"])[0])[2] == "S"
    # The capture, as the rules page says: hole 2 and hole 11 emptied, 5 + 1
    # seeds added to South's store (2 before it).
    holes, stores = seeds(browser)
    assert holes == [0, 0, 2, 7, 7, 6, 4, 4, 4, 0, 0, 5]
    assert stores == [8, 1]
    assert page.board("data-to-move") == "north"


def test_the_analysis_board_numbers_an_extra_turn_by_its_mover(server, browser):
    page = Page(browser, f"{server}/analyse?position={urllib.parse.quote(KALAH_START)}&moves=3%201&animate=off")
    page.wait_for(lambda d: page.moves() == ["3", "1"])
    assert listed(browser) == [("south", "1.", "3"), ("south", "2.", "1")]
    assert_columns(browser)
    # Stepping back keeps the numbers of the moves beyond the cursor.
    page.click('[data-step="first"]')
    page.wait_for(lambda d: page.text("[data-ply]") == "0/2")
    assert listed(browser) == [("south", "1.", "3"), ("south", "2.", "1")]
    # A move played from there: North's answer shares South's number.
    page.click('[data-step="last"]')
    page.wait_for(lambda d: page.text("[data-ply]") == "2/2")
    page.click_hole(9)
    page.wait_for(lambda d: page.moves() == ["3", "1", "9"])
    assert listed(browser) == [("south", "1.", "3"), ("south", "2.", "1"), ("north", "2…", "9")]
    assert_columns(browser)


def pgn_labels(text):
    """Each move's label as the PGN writes it (`4.` before a South move,
    `4...` before a North move that does not follow a South one, nothing
    before a North move after South's)."""
    body = text.split("\n\n", 1)[1]
    body = re.sub(r"\{[^}]*\}", " ", body)
    labels, number, side = [], None, None
    for token in body.split():
        if m := re.fullmatch(r"(\d+)(\.\.\.|\.)", token):
            number, side = int(m.group(1)), "north" if m.group(2) == "..." else "south"
        elif token in ("1-0", "0-1", "1/2-1/2", "*"):
            break
        elif number is not None:
            labels.append((side, f"{number}." if side == "south" else f"{number}…", token))
            # A bare move after a South move is North's, with the same number.
            side = "north"
    return labels


def test_a_kalah_log_replayed_numbers_its_extra_turns_as_the_pgn_does(browser, tmp_path):
    pgn = tmp_path / "kalah.pgn"
    bot = str(BIN / "testbot")
    arbiter("match", "--game", "kalah", "--games", "1",
            "--engine", f"cmd={bot}", "name=Alpha", "arg=--mode", "arg=random", "arg=--seed", "arg=5",
            "--engine", f"cmd={bot}", "name=Beta", "arg=--mode", "arg=random", "arg=--seed", "arg=6",
            "--each", "st=1", "--pgnout", str(pgn), "--stderr-dir", str(tmp_path / "stderr"))
    want = pgn_labels(pgn.read_text())
    sides = [s for s, _, _ in want]
    # The game has an extra turn (a side moving twice running) to number.
    assert any(a == b for a, b in zip(sides, sides[1:])), want
    proc, url = start_server("--log", str(pgn))
    try:
        page = Page(browser, f"{url}/replay")
        page.wait_for(lambda d: len(page.moves()) == len(want))
        assert listed(browser) == want
        assert_columns(browser)
    finally:
        browser.get("about:blank")
        stop(proc)


def test_an_oware_grand_slam_by_a_click_captures_nothing_and_ends_the_game(server, browser):
    # docs/rules/oware.md: South's 6 makes North's 7 and 8 hold 2 and 3 with
    # 9–12 empty; taking them would empty North's row, so nothing is taken.
    start = "oware 0,0,0,0,0,2,1,2,0,0,0,0 S 21/22"
    page = play_page(browser, server, start)
    page.wait_for(lambda d: page.legal_holes() == [6])
    page.click_hole(6)
    page.wait_for(lambda d: page.moves() == ["6"])
    position, status = rules_position(start, ["6"])
    assert position == "oware 0,0,0,0,0,0,2,3,0,0,0,0 N 21/22"
    page.wait_for(lambda d: page.board("data-position") == position)
    assert seeds(browser) == ([0, 0, 0, 0, 0, 0, 2, 3, 0, 0, 0, 0], [21, 22])
    # Nothing captured, and South's row is empty: North's 7 (2 seeds) and 8
    # (3) cannot reach it, so North has no legal move and each side takes
    # the seeds in his own row: North 22 + 5 = 27, South 21.
    assert status == "0-1" == page.board("data-status")
    assert not page.legal_holes()
    assert "27–21" in page.text("[data-result]"), page.text("[data-result]")
    # With a seed in hole 9 the same move takes the 5 seeds: South's store
    # passes 24 and the game is over.
    start = "oware 0,0,0,0,0,2,1,2,1,0,0,0 S 21/21"
    page = play_page(browser, server, start)
    page.click_hole(6)
    page.wait_for(lambda d: page.board("data-status") != "ongoing")
    position, status = rules_position(start, ["6"])
    assert page.board("data-position") == position
    assert seeds(browser) == ([0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0], [26, 21])
    assert status == "1-0" == page.board("data-status")
    assert "1-0" in page.text("[data-result]")
