#!/usr/bin/env bash
# How many of the arena's slots stand idle under its pairing (rule 3 of
# docs/arena.md "Pairing": a free bot waits for a busy opponent it has
# met less rather than meet a free one again). B house bots, each a
# testbot that answers after D ms (games of a few seconds, almost no CPU,
# so the machine's load does not set the pace), one slot each, or 2 slots
# for one bot in three (MIXED=1); the server runs for S seconds while
# /api/arena/pools is sampled every 0.2 s. Prints the mean number of games
# in progress against the most the slots allow (half the slots, rounded
# down), and the pairs met: how evenly the field has met.
#
#   cargo build --release -p arbiter -p testbots
#   bench/arena_idle.sh [BOTS] [SECONDS] [DELAY_MS]   # defaults: 12 bots, 180 s, 40 ms
#
# Environment: BIN (default target/release), OUT (default
# target/bench-arena-idle), MIXED (1: one bot in three has 2 slots), PORT,
# WAIT (seconds: the server's --pairing-wait).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bots=${1:-12}
seconds=${2:-180}
delay=${3:-40}
bin=${BIN:-$root/target/release}
out=${OUT:-$root/target/bench-arena-idle}
port=${PORT:-9331}
arbiter=$bin/arbiter
testbot=$bin/testbot
for b in "$arbiter" "$testbot"; do
  [ -x "$b" ] || { echo "missing $b: cargo build --release -p arbiter -p testbots" >&2; exit 2; }
done
rm -rf "$out" && mkdir -p "$out"
db=$out/arena.sqlite
echo '[{"name": "bench", "game": "bohnenspiel", "each": "tc=600+1", "openings": "suite"}]' > "$out/pools.json"
house=()
slots_total=0
for i in $(seq 1 "$bots"); do
  "$arbiter" arena bot add "bot-$i" --db "$db" > /dev/null
  slots=1
  if [ "${MIXED:-0}" = 1 ] && [ $((i % 3)) = 0 ]; then slots=2; fi
  slots_total=$((slots_total + slots))
  house+=(--house "name=bot-$i cmd=$testbot arg=--mode arg=slow arg=--delay-ms arg=$delay arg=--seed arg=$i slots=$slots")
done
most=$((slots_total / 2))
# why: the house bots play each other here; an arbiter that paces them
# (--house-rate) is told not to.
rate=()
if "$arbiter" arena run --help | grep -q -- --house-rate; then rate=(--house-rate 1000000); fi

"$arbiter" arena run --db "$db" --listen "127.0.0.1:$port" --pools "$out/pools.json" \
  "${house[@]}" "${rate[@]}" ${WAIT:+--pairing-wait "$WAIT"} > "$out/server.out" 2> "$out/server.err" &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
pools() { curl -s "http://127.0.0.1:$port/api/arena/pools"; }
until pools | grep -q '"playing"'; do sleep 0.2; done
# Sampling starts once every house bot is seated in a first game.
until [ "$(pools | grep -o '"playing":[0-9]*' | cut -d: -f2)" -ge "$most" ]; do sleep 0.2; done
start=$(date +%s.%N)
: > "$out/samples"
while (( $(echo "$(date +%s.%N) - $start < $seconds" | bc) )); do
  pools | grep -o '"playing":[0-9]*' | cut -d: -f2 >> "$out/samples"
  sleep 0.2
done
finished=$(pools | grep -o '"finished":[0-9]*' | cut -d: -f2)
kill -TERM "$server"; wait "$server" || true
trap - EXIT
awk -v most="$most" -v bots="$bots" -v slots="$slots_total" -v fin="$finished" '
  { n++; sum += $1; if ($1 < most) below++; hist[$1]++ }
  END {
    printf "bots %d, slots %d: at most %d games at once; %d samples, %d games finished\n", bots, slots, most, n, fin
    printf "games in progress: mean %.2f of %d (%.1f%%); below the most in %.1f%% of samples\n", sum / n, most, 100 * sum / n / most, 100 * below / n
    for (k = 0; k <= most; k++) if (hist[k]) printf "  %d at once: %d samples\n", k, hist[k]
  }' "$out/samples"
sqlite3 "$db" "SELECT MIN(c), MAX(c), COUNT(*) FROM (SELECT MIN(south, north) a, MAX(south, north) b, COUNT(*) c FROM games WHERE state = 'finished' GROUP BY a, b)" \
  | awk -F'|' -v bots="$bots" '{ printf "pairs of bots met: %d of %d, each %d to %d games\n", $3, bots * (bots - 1) / 2, $1, $2 }'
