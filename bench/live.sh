#!/usr/bin/env bash
# The cost of `--live` to a tournament, in one run: the same round robin of
# four instant engines (`testbot --mode instant` answers every go at once,
# so the time per ply is the arbiter's own work) played PAIRS times in each
# of four ways, interleaved (plain, page, watch, poll, plain, …):
#   plain  without `--live`;
#   nopage `--live` with no page open and nothing polling;
#   watch  `--live` with CLIENTS WebSocket clients reading every message
#          (bench/live_watch.py, Python `websockets`; skipped if CLIENTS=0);
#   poll   `--live` with a script reading /api/live/snapshot every POLL_MS
#          (bench/live_poll.py; skipped if POLL_MS=0).
# CPU is user + system of the arbiter and its reaped engines
# (`/usr/bin/time`); the Python clients are not counted.
#
#   tests/setup && cargo build --release -p arbiter -p testbots
#   bench/live.sh [ROUNDS] [CLIENTS] [PAIRS] [POLL_MS]   # defaults: 40 10 3 100
#   bench/live.sh 40 0 3 0                               # plain and no page only
#
# Prints one line per run (plies, wall, CPU µs per ply) and, for the watch
# runs, the messages the clients read, how many clients saw their socket
# close before the `ended` message, and how often a client slower than the
# event skipped ahead to a fresh snapshot; for the poll runs, the snapshots
# read and how many showed a game in progress past its start.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
rounds=${1:-40}
clients=${2:-10}
pairs=${3:-3}
poll_ms=${4:-100}
bin=$root/target/release
venv=$root/target/browser-venv
for b in "$bin/arbiter" "$bin/testbot"; do
  [ -x "$b" ] || { echo "missing $b: cargo build --release -p arbiter -p testbots" >&2; exit 2; }
done
[ -x "$venv/bin/python" ] || { echo "missing $venv: run tests/setup" >&2; exit 2; }
"$venv/bin/python" -c 'import websockets' 2>/dev/null ||
  "$venv/bin/pip" install -q --disable-pip-version-check 'websockets>=12,<16'
out=$(mktemp -d "$root/target/bench-live.XXXXXX")
trap 'rm -rf "$out"' EXIT

engines=()
for name in A B C D; do
  engines+=(--engine "cmd=$bin/testbot" arg=--mode arg=instant "name=$name")
done

# One tournament; $1 = plain, nopage, watch or poll. Prints its line.
run() {
  local kind=$1 log="$out/$1.jsonl" extra=()
  rm -f "$log" "$out/$kind.out"
  [ "$kind" = plain ] || extra=(--live 127.0.0.1:0)
  /usr/bin/time -f '%e %U %S' -o "$out/$kind.time" "$bin/arbiter" tournament "${engines[@]}" \
    --each st=0.1 timemargin=1000 --rounds "$rounds" --jsonout "$log" \
    --stderr-dir "$out/stderr" "${extra[@]}" > "$out/$kind.out" &
  local timepid=$! seen="" url=""
  if [ "$kind" = watch ] || [ "$kind" = poll ]; then
    for _ in $(seq 300); do grep -q 'live page at' "$out/$kind.out" 2>/dev/null && break; sleep 0.05; done
    url=$(grep -o 'http://[^ ]*' "$out/$kind.out")
  fi
  if [ "$kind" = watch ]; then
    seen=$("$venv/bin/python" bench/live_watch.py "$url" --clients "$clients" 2>"$out/watch.err") ||
      { echo "the watching clients failed:" >&2; tail -n 5 "$out/watch.err" >&2; seen=""; }
  elif [ "$kind" = poll ]; then
    seen=$(python3 bench/live_poll.py "$url" --interval "$(awk -v m="$poll_ms" 'BEGIN { print m / 1000 }')" 2>"$out/poll.err") ||
      { echo "the poller failed:" >&2; tail -n 5 "$out/poll.err" >&2; seen=""; }
  fi
  wait "$timepid" || { echo "the arbiter failed ($kind):" >&2; tail -n 5 "$out/$kind.out" >&2; exit 1; }
  local plies
  plies=$(grep -o '"move":' "$log" | wc -l)
  read -r wall user sys < <(tail -n 1 "$out/$kind.time")
  awk -v k="$kind" -v p="$plies" -v w="$wall" -v u="$user" -v s="$sys" -v c="$seen" 'BEGIN {
    split(c, f, " ")
    extra = ""
    if (c != "" && k == "watch")
      extra = sprintf("; %d clients read %d messages (%.1f MB), %d closed before the end message, %d snapshots to skip ahead", f[1], f[2], f[3] / 1e6, f[4], f[5])
    if (c != "" && k == "poll")
      extra = sprintf("; %d snapshots polled (%.1f MB), %d showing a game past its start", f[1], f[2] / 1e6, f[3])
    printf "%-6s %d plies, wall %.2f s, CPU %.2f s: %.1f wall µs/ply, %.1f CPU µs/ply%s\n", k, p, w, u + s, w * 1e6 / p, (u + s) * 1e6 / p, extra
  }'
}

echo "tournament: 4 instant engines, round robin, $rounds rounds ($((rounds * 12)) games), st=0.1; $clients watching clients; a poll every $poll_ms ms; load $(cut -d' ' -f1-3 /proc/loadavg)"
for _ in $(seq "$pairs"); do
  run plain
  run nopage
  if [ "$clients" -gt 0 ]; then run watch; fi
  if [ "$poll_ms" -gt 0 ]; then run poll; fi
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
