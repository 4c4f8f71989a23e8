"""Load client for bench/serve.sh: N engine-vs-engine games at once on one
`arbiter serve`, each over its own WebSocket as a page would play them, R
games in a row on each.
Prints `games plies wall_s`. With --page-ready, loads /play in headless
Chromium instead and prints the page's own ready times (ms)."""

import argparse
import asyncio
import json
import sys
import time


async def one_table(url, tc, game, rounds):
    """`rounds` games in a row on one WebSocket (one page); their plies."""
    import websockets
    plies = 0
    async with websockets.connect(url, max_size=None) as ws:
        for _ in range(rounds):
            await ws.send(json.dumps({"type": "start", "game": game, "tc": tc,
                                      "south": {"player": "A"}, "north": {"player": "B"}}))
            while True:
                m = json.loads(await ws.recv())
                if m["type"] == "error":
                    # A forfeit ends the game (a state follows); anything
                    # else means the benchmark is not measuring play.
                    print("error:", m["message"], file=sys.stderr)
                    continue
                if m["status"] != "ongoing":
                    plies += m["ply"]
                    break
    return plies


async def load(base, tables, rounds, tc, game):
    url = base.replace("http://", "ws://") + "/ws/play"
    start = time.monotonic()
    plies = await asyncio.gather(*[one_table(url, tc, game, rounds) for _ in range(tables)])
    return sum(plies), time.monotonic() - start


def page_ready(base, runs):
    sys.path.insert(0, "tests/browser")
    import conftest
    from conftest import Page
    driver = next(conftest.browser.__wrapped__())
    times = []
    try:
        for _ in range(runs):
            page = Page(driver, base + "/play")
            times.append(int(page.d.find_element("tag name", "body").get_attribute("data-ready-ms")))
            driver.get("about:blank")
    finally:
        driver.quit()
    return times


def main():
    p = argparse.ArgumentParser()
    p.add_argument("base")
    p.add_argument("--tables", type=int, default=50, help="games at once (WebSockets)")
    p.add_argument("--rounds", type=int, default=1, help="games in a row on each")
    p.add_argument("--tc", default="st=0.1 timemargin=1000")
    p.add_argument("--game", default="bohnenspiel")
    p.add_argument("--page-ready", type=int, metavar="RUNS")
    a = p.parse_args()
    if a.page_ready:
        print(" ".join(map(str, page_ready(a.base, a.page_ready))))
        return
    plies, wall = asyncio.run(load(a.base, a.tables, a.rounds, a.tc, a.game))
    print(a.tables * a.rounds, plies, f"{wall:.3f}")


if __name__ == "__main__":
    main()
