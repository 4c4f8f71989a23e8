#!/usr/bin/env bash
# The arena's throughput when a slow newcomer joins (issue 35, item 6):
# B fast house bots, each a testbot answering after D ms (one slot each;
# games of about a second that use almost no CPU, so the machine's load
# does not set the pace), play for S seconds; then a newcomer joins over
# `/umi` through `arbiter connect`, a testbot answering after 300 ms with
# 2 slots, and the arena plays S seconds more. Prints the games finished a
# minute before and after it joined, their ratio, and the newcomer's games.
#
#   cargo build --release -p arbiter -p testbots
#   bench/arena_newcomer.sh [BOTS] [SECONDS] [DELAY_MS] [SLOW_MS]   # defaults: 12 bots, 120 s, 20 ms, 300 ms
#
# Environment: BIN (default target/release: arbiter and testbot), ARBITER
# (the arbiter binary, default $BIN/arbiter: another build's, to compare),
# OUT (default target/bench-arena-newcomer), PORT.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bots=${1:-12}
seconds=${2:-120}
delay=${3:-20}
slow=${4:-300}
bin=${BIN:-$root/target/release}
out=${OUT:-$root/target/bench-arena-newcomer}
port=${PORT:-9332}
arbiter=${ARBITER:-$bin/arbiter}
testbot=$bin/testbot
for b in "$arbiter" "$testbot"; do
  [ -x "$b" ] || { echo "missing $b: cargo build --release -p arbiter -p testbots" >&2; exit 2; }
done
rm -rf "$out" && mkdir -p "$out"
db=$out/arena.sqlite
echo '[{"name": "bench", "game": "bohnenspiel", "each": "tc=600+1", "openings": "suite"}]' > "$out/pools.json"
house=()
for i in $(seq 1 "$bots"); do
  "$arbiter" arena bot add "fast-$i" --db "$db" > /dev/null
  house+=(--house "name=fast-$i cmd=$testbot arg=--mode arg=slow arg=--delay-ms arg=$delay arg=--seed arg=$i")
done
token=$("$arbiter" arena bot add newcomer --db "$db" | tail -1)
# why: the house bots play each other here; an arbiter that paces them
# (--house-rate) is told not to.
rate=()
if "$arbiter" arena run --help | grep -q -- --house-rate; then rate=(--house-rate 1000000); fi

"$arbiter" arena run --db "$db" --listen "127.0.0.1:$port" --pools "$out/pools.json" \
  --admission off "${house[@]}" "${rate[@]}" > "$out/server.out" 2> "$out/server.err" &
server=$!
bridge=
trap 'kill "$server" ${bridge:+"$bridge"} 2>/dev/null || true' EXIT
pools() { curl -s "http://127.0.0.1:$port/api/arena/pools"; }
finished() { pools | grep -o '"finished":[0-9]*' | cut -d: -f2; }
until pools | grep -q '"playing"'; do sleep 0.2; done
sleep 5  # every house bot seated and a few games over
a=$(finished); t=$(date +%s.%N)
sleep "$seconds"
b=$(finished); u=$(date +%s.%N)
"$arbiter" connect "ws://127.0.0.1:$port/umi" --token "$token" --slots 2 --stderr-dir "$out/stderr" \
  --engine "cmd=$testbot" arg=--mode arg=slow arg=--delay-ms "arg=$slow" arg=--seed arg=99 \
  > "$out/bridge.out" 2> "$out/bridge.err" &
bridge=$!
until curl -s "http://127.0.0.1:$port/api/arena/playing" | grep -q newcomer; do sleep 0.2; done
c=$(finished); v=$(date +%s.%N)
sleep "$seconds"
d=$(finished); w=$(date +%s.%N)
kill "$bridge" 2>/dev/null || true
kill -TERM "$server"; wait "$server" || true
trap - EXIT
newcomer=$(sqlite3 "$db" "SELECT count(*) FROM games WHERE state = 'finished' AND (south = 'newcomer' OR north = 'newcomer')")
awk -v a="$a" -v b="$b" -v c="$c" -v d="$d" -v t="$t" -v u="$u" -v v="$v" -v w="$w" \
    -v n="$newcomer" -v bots="$bots" -v delay="$delay" -v slow="$slow" '
  BEGIN {
    before = (b - a) / (u - t) * 60; after = (d - c) / (w - v) * 60
    printf "%d fast bots (%d ms a move), then a 2-slot newcomer (%d ms a move)\n", bots, delay, slow
    printf "games a minute: %.0f before it joined, %.0f after (%.1f%%); the newcomer finished %d\n", before, after, 100 * after / before, n
  }'
