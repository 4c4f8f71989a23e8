#!/usr/bin/env bash
# What a remote engine costs per ply over the same engine as a local process:
# a match of two instant engines (`testbot --mode instant`), once with both
# local and once with B remote through `arbiter connect` on the loopback.
#
#   cargo build --release -p arbiter -p testbots
#   bench/remote_overhead.sh [GAMES] [PORT]      # defaults: 300 games, port 9311
#
# Prints wall and CPU µs per ply for both; CPU is the arbiter with its engine
# processes, plus (remote run) the bridge with its engine. Environment: BIN
# (default target/release), OUT (default target/bench-remote).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
games=${1:-300}
port=${2:-9311}
bin=${BIN:-$root/target/release}
out=${OUT:-$root/target/bench-remote}
arbiter=$bin/arbiter
testbot=$bin/testbot
for b in "$arbiter" "$testbot"; do
  [ -x "$b" ] || { echo "missing $b: cargo build --release -p arbiter -p testbots" >&2; exit 2; }
done
rm -rf "$out" && mkdir -p "$out"
echo '{"b": "remote-bench-token-0123456789"}' > "$out/tokens.json"

common=(match --game bohnenspiel --games "$games" --openings plies=4 --seed 5
  --stderr-dir "$out/stderr" --each st=10
  --engine cmd="$testbot" arg=--mode arg=instant name=A)

/usr/bin/time -f '%e %U %S' -o "$out/local.time" "$arbiter" "${common[@]}" \
  --engine cmd="$testbot" arg=--mode arg=instant name=B --jsonout "$out/local.jsonl" > /dev/null

/usr/bin/time -f '%e %U %S' -o "$out/bridge.time" "$arbiter" connect "ws://127.0.0.1:$port/umi" \
  --token remote-bench-token-0123456789 --stderr-dir "$out/stderr" \
  --engine cmd="$testbot" arg=--mode arg=instant > /dev/null 2>&1 &
bridge=$!
/usr/bin/time -f '%e %U %S' -o "$out/remote.time" "$arbiter" "${common[@]}" \
  --engine remote=b name=B --remote-listen "127.0.0.1:$port" \
  --remote-tokens "$out/tokens.json" --jsonout "$out/remote.jsonl" > /dev/null
pkill -TERM -P "$bridge" || true
wait "$bridge" || true

echo "| run | games | plies | wall s | CPU s | wall µs/ply | CPU µs/ply |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for run in local remote; do
  read -r wall user sys < "$out/$run.time"
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')
  if [ "$run" = remote ]; then
    read -r _ buser bsys < <(tail -n 1 "$out/bridge.time")
    cpu=$(awk -v c="$cpu" -v u="$buser" -v s="$bsys" 'BEGIN { print c + u + s }')
  fi
  plies=$(grep -o '"move":' "$out/$run.jsonl" | wc -l)
  n=$(wc -l < "$out/$run.jsonl")
  awk -v r="$run" -v n="$n" -v p="$plies" -v w="$wall" -v c="$cpu" 'BEGIN {
    printf "| %s | %d | %d | %.2f | %.2f | %.1f | %.1f |\n", r, n, p, w, c, 1e6 * w / p, 1e6 * c / p }'
done
