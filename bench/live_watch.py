"""Watching clients for bench/live.sh: N WebSockets on an event's /ws/live,
each reading every message until the event ends (an `ended` message or the
socket closing). Prints `clients messages bytes dropped`: messages and bytes
summed over the clients, and how many were closed by the server before the
`ended` message (a client the server dropped as too slow)."""

import argparse
import asyncio
import json


async def watch(url):
    import websockets
    messages = nbytes = 0
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
                if json.loads(text).get("type") == "ended":
                    return messages, nbytes, False
        except websockets.ConnectionClosed:
            pass
    return messages, nbytes, True


async def main():
    p = argparse.ArgumentParser()
    p.add_argument("url", help="the live page's address (http://…/live)")
    p.add_argument("--clients", type=int, default=10)
    a = p.parse_args()
    ws = a.url.replace("http://", "ws://").removesuffix("/live") + "/ws/live"
    got = await asyncio.gather(*[watch(ws) for _ in range(a.clients)])
    print(a.clients, sum(g[0] for g in got), sum(g[1] for g in got), sum(g[2] for g in got))


asyncio.run(main())
