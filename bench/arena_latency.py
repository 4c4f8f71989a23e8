#!/usr/bin/env python3
"""The latency of the arena's pages and JSON (BENCHMARKS.md, "The arena at
a term's scale"; bench/arena_term.sh).

    bench/arena_latency.py BASE_URL N PATH...

GETs each PATH N times, one request at a time on a fresh connection (as a
browser's first look), after one request not counted (warm-up), and prints
per path: the status, the body's size, the median, p95 and max in ms. A
path stops early after BUDGET seconds (120) of its requests, so one that
takes a minute is measured a few times, not N; a request that gets no
answer counts its time with the status "none".
"""
import http.client
import sys
import time
import urllib.request


BUDGET = 120


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: arena_latency.py BASE_URL N PATH...")
    base, n, paths = sys.argv[1].rstrip("/"), int(sys.argv[2]), sys.argv[3:]
    print(f"{'path':<44} {'status':>6} {'bytes':>9} {'median':>9} {'p95':>9} {'max':>9}")
    for path in paths:
        url = base + path
        times, size, status = [], 0, 0
        spent = time.perf_counter()
        for i in range(n + 1):
            t = time.perf_counter()
            try:
                with urllib.request.urlopen(url, timeout=300) as r:
                    body = r.read()
                    status = r.status
            except urllib.error.HTTPError as e:
                body, status = e.read(), e.code
            except (OSError, http.client.HTTPException):
                body, status = b"", "none"
            dt = (time.perf_counter() - t) * 1000
            size = len(body)
            if i > 0 or n == 0:
                times.append(dt)
            if time.perf_counter() - spent > BUDGET and times:
                break
        times.sort()
        med = times[len(times) // 2]
        p95 = times[min(len(times) - 1, int(round(0.95 * (len(times) - 1))))]
        short = "" if len(times) == n else f"  ({len(times)} requests: the budget ran out)"
        print(f"{path:<44} {status:>6} {size:>9} {med:>7.1f}ms {p95:>7.1f}ms {times[-1]:>7.1f}ms{short}",
              flush=True)


if __name__ == "__main__":
    main()
