"""Watching clients for bench/live.sh: N WebSockets on an event's /ws/live,
each reading every message until the event ends (an `ended` message or the
socket closing). Prints `clients messages bytes unended resyncs`: messages
and bytes summed over the clients, how many saw the socket close before an
`ended` message (dropped by the server, or still reading when the arbiter
exited), and the snapshots received after the first (a client slower than
the event skips ahead to a fresh snapshot)."""

import argparse
import asyncio
import json


async def watch(url):
    import websockets
    messages = nbytes = snapshots = 0
    for _ in range(300):   # the server may not be listening yet: retry
        try:
            ws = await websockets.connect(url, max_size=None)
            break
        except OSError:
            await asyncio.sleep(0.1)
    else:
        raise SystemExit(f"cannot connect to {url}")
    async with ws:
        try:
            async for text in ws:
                messages += 1
                nbytes += len(text)
                kind = json.loads(text).get("type")
                snapshots += kind == "snapshot"
                if kind == "ended":
                    return messages, nbytes, False, snapshots - 1
        except websockets.ConnectionClosed:
            pass
    return messages, nbytes, True, snapshots - 1


async def main():
    p = argparse.ArgumentParser()
    p.add_argument("url", help="the live page's address (http://…/live)")
    p.add_argument("--clients", type=int, default=10)
    a = p.parse_args()
    ws = a.url.replace("http://", "ws://").removesuffix("/live") + "/ws/live"
    got = await asyncio.gather(*[watch(ws) for _ in range(a.clients)])
    print(a.clients, *(sum(g[i] for g in got) for i in range(4)))


asyncio.run(main())
