"""The browser board's server while it holds idle connections: a page's
requests timed with none, then with IDLE connections open that never send
a byte (the front holds them until --header-timeout, set to 10 minutes
here, and --max-connections-per-address is raised so that all of them are
held). Each timed request is a page's: GET /play, then GET /api/config, on
a fresh connection each (connect to the end of the answer). Prints the
median, p90 and maximum in ms of RUNS requests of each kind.

    cargo build --release -p arbiter
    python3 bench/idle.py [IDLE] [RUNS]        # defaults: 1000 200
"""

import os
import resource
import socket
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARBITER = os.path.join(ROOT, "target", "release", "arbiter")


def get(addr, path):
    """One GET on a fresh connection; the seconds to the end of the answer."""
    host, port = addr.rsplit(":", 1)
    start = time.perf_counter()
    with socket.create_connection((host, int(port)), timeout=60) as s:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    took = time.perf_counter() - start
    if not answer.startswith(b"HTTP/1.1 200"):
        raise SystemExit(f"GET {path}: {answer[:200]!r}")
    return took


def measure(addr, runs, label):
    for path in ["/play", "/api/config"]:
        ms = sorted(get(addr, path) * 1000 for _ in range(runs))
        p90 = ms[int(len(ms) * 0.9) - 1]
        print(f"{label:>22}  GET {path:<12} median {statistics.median(ms):6.2f} ms"
              f"  p90 {p90:6.2f} ms  max {ms[-1]:6.2f} ms  ({runs} requests)")


def main():
    idle = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 4 * idle)), hard))
    server = subprocess.Popen(
        [ARBITER, "serve", "--listen", "127.0.0.1:0", "--header-timeout", "600",
         "--max-connections", str(2 * idle), "--max-connections-per-address", str(2 * idle)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        line = server.stdout.readline().decode()
        addr = line.split("http://")[1].split("/")[0]
        with open("/proc/loadavg") as f:
            print(f"load {' '.join(f.read().split()[:3])}")
        measure(addr, runs, "no idle connection")
        host, port = addr.rsplit(":", 1)
        held = [socket.create_connection((host, int(port))) for _ in range(idle)]
        time.sleep(1)
        # Still held: the server answered none of them and closed none.
        open_now = len(os.listdir(f"/proc/{server.pid}/fd"))
        measure(addr, runs, f"{idle} idle connections")
        print(f"the server's open descriptors with them: {open_now}")
        for s in held:
            s.close()
    finally:
        server.kill()
        server.wait()


main()
