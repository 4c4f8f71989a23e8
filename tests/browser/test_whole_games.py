"""Whole games played by clicks on /play, in every game the server offers,
against the reference engine at Level 1: a seeded random human clicks a
legal hole (a choice where the hole starts several, Pass where that is the
only move) until the game ends. Then the board's `data-status`, its
`data-position` and the end banner must tell the same end, and the rules
(the moves replayed by `arbiter show`) must agree that the game is over
there, with that result: no move left for the side to move, or the ending
rule the banner names (a third repetition, a decided match …)."""

import json
import random
import re
import urllib.request

import pytest
from selenium.webdriver.common.by import By

from conftest import WAIT, Page, rules_position

GAMES = ["bohnenspiel", "bohnenspiel-hemprich", "bosh", "kimasai", "kujifunza", "kalah", "oware"]

# The page as one look: read in one script, so that nothing changes between
# two attributes.
LOOK = """
const b = document.getElementById('board');
const s = document.getElementById('status');
const pass = document.querySelector('[data-pass]');
return {
  status: b.dataset.status, position: b.dataset.position, toMove: b.dataset.toMove,
  animating: b.dataset.animating === 'true',
  legal: [...b.querySelectorAll('[data-hole][data-legal="true"]')].map((h) => Number(h.dataset.hole)),
  pass: !!pass && !pass.hidden,
  choices: [...document.querySelectorAll('[data-choice]')].filter((c) => c.offsetParent !== null)
             .map((c) => c.dataset.choice),
  banner: s.textContent, ended: s.classList.contains('ended'),
  banners: document.querySelectorAll('.status.ended').length,
  moves: [...document.querySelectorAll('#moves li .mv')].map((m) => m.textContent),
  error: document.querySelector('[data-error]').hidden ? '' : document.querySelector('[data-error]').textContent,
};
"""


def look(driver):
    return driver.execute_script(LOOK)


def test_every_game_on_offer_is_tested(server):
    with urllib.request.urlopen(f"{server}/api/config", timeout=WAIT) as r:
        assert sorted(json.load(r)["games"]) == sorted(GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_by_clicks_ends_as_the_rules_say(server, browser, game):
    rng = random.Random(f"whole-{game}")
    # The human plays South in half the games, North in the others.
    human = "south" if GAMES.index(game) % 2 == 0 else "north"
    seats = {"south": "human", "north": "reference"} if human == "south" else {"south": "reference", "north": "human"}
    page = Page(browser, f"{server}/play?game={game}&south={seats['south']}&north={seats['north']}"
                         "&level=1&tc=600%2B5&animate=off")
    start = page.wait_for(lambda d: look(d)["position"] or None)
    while True:
        # The human's turn (a legal hole or Pass), or the end.
        now = page.wait_for(lambda d: (lambda v: v if v["status"] != "ongoing" or (
            not v["animating"] and (v["legal"] or v["pass"] or v["choices"])) else None)(look(d)))
        if now["status"] != "ongoing":
            break
        assert now["error"] == "", now
        assert now["toMove"] == human and not now["ended"], now
        count = len(now["moves"])
        if now["choices"]:
            browser.find_element(By.CSS_SELECTOR, f'[data-choice="{rng.choice(now["choices"])}"]').click()
        elif now["legal"]:
            browser.find_element(By.CSS_SELECTOR, f'[data-hole="{rng.choice(now["legal"])}"][data-legal="true"]').click()
            # A hole that starts several moves opens its chooser instead.
            page.wait_for(lambda d: len(look(d)["moves"]) > count or look(d)["choices"])
            continue
        else:
            browser.find_element(By.CSS_SELECTOR, "[data-pass]").click()
        page.wait_for(lambda d: len(look(d)["moves"]) > count)
    # The page settles on its last state (its move list is drawn with it).
    end = page.wait_for(lambda d: (lambda v: v if not v["animating"] else None)(look(d)))
    assert end["error"] == "", end
    # One end banner, for the result on the board.
    assert end["ended"] and end["banners"] == 1, end
    assert end["banner"].startswith(f"{end['status']} — "), end
    # The rules, given the page's moves, reach the page's position and end
    # the game there with the page's result.
    position, over = rules_position(start, end["moves"])
    assert end["position"] == position, (start, end)
    assert over == end["status"], f"rules say {over} after {end['moves']}: {end}"
    # Why it ended, in the banner's words, is what the rules' end is: the
    # side to move has no move, or a rule that ends it with moves left.
    if not re.search(r"had no (seed|legal move)|every seed has been captured|front row was empty|"
                     r"row was empty", end["banner"]):
        assert re.search(r"for the third time|repeated|more than half|half the seeds|could not fill",
                         end["banner"]), end
