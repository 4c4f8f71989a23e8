#!/usr/bin/env bash
# Arbiter overhead per ply with two instant engines (`testbot --mode instant`:
# every `go` answered at once with the first legal move), logs written.
#
#   cargo build --release -p arbiter -p testbots
#   bench/arbiter_overhead.sh [GAMES] [CONCURRENCY...]     # defaults: 1000 games, concurrency 1 and 2
#
# For each concurrency: wall seconds and user+system CPU seconds of the arbiter
# and its (reaped) engine processes (/usr/bin/time), plies played (counted in
# the JSON-lines log), and from them µs per ply and games per second.
# Environment: GAME (default bohnenspiel), OPENING (default plies=4: random
# openings so that the games differ), OUT (default a fresh directory under
# target/, on the same disk as the build — the logs are fsynced per game).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
games=${1:-1000}
shift || true
concurrencies=("${@:-1 2}")
# shellcheck disable=SC2206
concurrencies=(${concurrencies[*]})
game=${GAME:-bohnenspiel}
opening=${OPENING:-plies=4}
out=${OUT:-$root/target/bench-arbiter}
arbiter=$root/target/release/arbiter
testbot=$root/target/release/testbot
for bin in "$arbiter" "$testbot"; do
  [ -x "$bin" ] || { echo "missing $bin: cargo build --release -p arbiter -p testbots" >&2; exit 2; }
done
mkdir -p "$out"

echo "| concurrency | games | plies | wall s | CPU s (user+sys) | wall µs/ply | CPU µs/ply | games/s |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
for c in "${concurrencies[@]}"; do
  rm -f "$out/c$c.pgn" "$out/c$c.jsonl" "$out/c$c.time"
  /usr/bin/time -f '%e %U %S' -o "$out/c$c.time" \
    "$arbiter" match --game "$game" --games "$games" --concurrency "$c" \
      --openings "$opening" --stderr-dir "$out/stderr" \
      --engine cmd="$testbot" arg=--mode arg=instant name=A \
      --engine cmd="$testbot" arg=--mode arg=instant name=B \
      --each st=10 \
      --pgnout "$out/c$c.pgn" --jsonout "$out/c$c.jsonl" > "$out/c$c.summary"
  read -r wall user sys < "$out/c$c.time"
  plies=$(grep -o '"move":' "$out/c$c.jsonl" | wc -l)
  n=$(wc -l < "$out/c$c.jsonl")
  awk -v c="$c" -v n="$n" -v p="$plies" -v w="$wall" -v u="$user" -v s="$sys" 'BEGIN {
    printf "| %d | %d | %d | %.2f | %.2f | %.1f | %.1f | %.0f |\n", c, n, p, w, u + s, 1e6 * w / p, 1e6 * (u + s) / p, n / w }'
done
