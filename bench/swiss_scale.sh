#!/usr/bin/env bash
# Big fields: pairing a 1,000-engine Swiss round, and the arbiter's own CPU
# per game in a 1,000-engine, 9-round Swiss against a round robin of the same
# field cut at the same number of games (a whole one would be 999,000 games).
# Instant engines (`testbot --mode instant`), --max-plies 40, one fsync per
# game. The arbiter's CPU (user + system, its own process only: the engines
# are children and not counted) is read from /proc/PID/stat every 0.1 s; the
# last reading before it exits is kept.
#
# Then the pairing alone of a Swiss as long as a round robin of 200 engines
# (199 rounds: the late rounds, with few pairs left unplayed, are the hard
# ones for the exact search).
#
#   cargo build --release -p arbiter -p testbots --bins --examples
#   bench/swiss_scale.sh [ENGINES] [ROUNDS]      # default: 1000 9
#
# Environment: OUT (default a fresh directory under target/), CONCURRENCY (2).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-1000}
rounds=${2:-9}
out=${OUT:-$root/target/bench-swiss}
conc=${CONCURRENCY:-2}
arbiter=$root/target/release/arbiter
testbot=$root/target/release/testbot
bench=$root/target/release/examples/bench_swiss
for bin in "$arbiter" "$testbot" "$bench"; do
  [ -x "$bin" ] || { echo "missing $bin: cargo build --release -p arbiter -p testbots --bins --examples" >&2; exit 2; }
done
mkdir -p "$out"
"$bench" "$n" "$rounds"
"$bench" 200 199 | tail -2

engines=()
for i in $(seq 1 "$n"); do
  engines+=(--engine cmd="$testbot" arg=--mode arg=instant "name=e$i")
done
games=$(( rounds * (n / 2) * 2 ))
tck=$(getconf CLK_TCK)

# run FORMAT LIMIT: plays until the event ends or LIMIT games are logged.
run() {
  local format=$1 limit=$2 log="$out/$1.jsonl"
  rm -f "$log"
  local start=$SECONDS
  "$arbiter" tournament --format "$format" --rounds "$rounds" "${engines[@]}" \
    --each depth=1 --max-plies 40 --concurrency "$conc" --stderr-dir "$out/stderr" \
    --jsonout "$log" > "$out/$format.out" 2>&1 &
  local pid=$! cpu=0 now
  while kill -0 "$pid" 2>/dev/null; do
    now=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null || echo "$cpu")
    cpu=$now
    if [ -f "$log" ] && [ "$(wc -l < "$log")" -ge "$limit" ]; then
      kill "$pid"
      break
    fi
    sleep 0.1
  done
  wait "$pid" 2>/dev/null || true
  local played
  played=$(wc -l < "$log")
  awk -v f="$format" -v g="$played" -v c="$cpu" -v t="$tck" -v w=$((SECONDS - start)) 'BEGIN {
    printf "| %s | %d | %d | %.2f | %.0f |\n", f, g, w, c / t, 1e6 * c / t / g }'
}

echo
echo "| format | games | wall s | arbiter CPU s | arbiter CPU µs/game |"
echo "|---|---:|---:|---:|---:|"
run swiss "$games"
run round-robin "$games"
