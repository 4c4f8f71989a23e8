"""A script polling an event's /api/live/snapshot for bench/live.sh: one GET
every INTERVAL seconds until the event ends (`ended` set, or the server
gone). Prints `polls bytes shown`: the snapshots read, their bytes, and
how many showed a game in progress past its start (`last` set)."""

import argparse
import json
import time
import urllib.error
import urllib.request


def main():
    p = argparse.ArgumentParser()
    p.add_argument("url", help="the live page's address (http://…/live)")
    p.add_argument("--interval", type=float, default=0.1, help="seconds between polls")
    a = p.parse_args()
    url = a.url.removesuffix("/live") + "/api/live/snapshot"
    polls = nbytes = shown = 0
    while True:
        try:
            with urllib.request.urlopen(url, timeout=30) as r:
                body = r.read()
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            break  # the arbiter exited
        polls += 1
        nbytes += len(body)
        snap = json.loads(body)
        shown += any(g.get("last") for g in snap.get("playing", []))
        if snap.get("ended") is not None:
            break
        time.sleep(a.interval)
    print(polls, nbytes, shown)


main()
