#!/usr/bin/env bash
# The arbiter's own CPU per ply with many remote connections playing at
# once, against the same match with local engines: two instant engines
# (`testbot --mode instant`) at --concurrency C (default 100), so that with
# both engines remote there are 2 × C connections open and playing (200).
#
#   cargo build --release -p arbiter -p testbots
#   bench/remote_load.sh [GAMES] [CONCURRENCY] [PORT]   # defaults: 2000 games, 100, port 9312
#
# The local run starts 2 × C engine processes as the arbiter's children; the
# remote run has two bridges (`arbiter connect --slots C`), each with C
# engines, on the same machine. The arbiter's CPU is its own user + system
# time (from /proc/PID/stat, sampled until it exits: its children, the
# engines, are not counted), so the two runs compare what the arbiter does
# per ply with processes and with connections. Environment: BIN (default
# target/release), OUT (default target/bench-remote-load).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
games=${1:-2000}
conc=${2:-100}
port=${3:-9312}
bin=${BIN:-$root/target/release}
out=${OUT:-$root/target/bench-remote-load}
arbiter=$bin/arbiter
testbot=$bin/testbot
for b in "$arbiter" "$testbot"; do
  [ -x "$b" ] || { echo "missing $b: cargo build --release -p arbiter -p testbots" >&2; exit 2; }
done
rm -rf "$out" && mkdir -p "$out"
echo '{"a": "remote-load-token-a-0123456789", "b": "remote-load-token-b-0123456789"}' > "$out/tokens.json"
tick=$(getconf CLK_TCK)

common=(match --game bohnenspiel --games "$games" --concurrency "$conc" --openings plies=4
  --seed 5 --stderr-dir "$out/stderr" --each st=10)

# Runs the arbiter with "$@", samples its own CPU ticks until it exits;
# prints "wall_seconds cpu_seconds".
measure() {
  local start end pid last=0 ticks
  start=$(date +%s.%N)
  "$arbiter" "$@" > /dev/null &
  pid=$!
  while kill -0 "$pid" 2> /dev/null; do
    # utime and stime, fields 14 and 15 (the name, field 2, has no spaces).
    if ticks=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2> /dev/null); then
      last=$ticks
    fi
    sleep 0.02
  done
  wait "$pid"
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" -v t="$last" -v hz="$tick" 'BEGIN { print e - s, t / hz }'
}

read -r lwall lcpu < <(measure "${common[@]}" --jsonout "$out/local.jsonl" \
  --engine cmd="$testbot" arg=--mode arg=instant name=A \
  --engine cmd="$testbot" arg=--mode arg=instant name=B)

bridges=()
for id in a b; do
  "$arbiter" connect "ws://127.0.0.1:$port/umi" --token "remote-load-token-$id-0123456789" \
    --slots "$conc" --stderr-dir "$out/stderr-$id" \
    --engine cmd="$testbot" arg=--mode arg=instant > /dev/null 2>&1 &
  bridges+=($!)
done
read -r rwall rcpu < <(measure "${common[@]}" --jsonout "$out/remote.jsonl" \
  --engine remote=a name=A --engine remote=b name=B \
  --remote-listen "127.0.0.1:$port" --remote-tokens "$out/tokens.json" --remote-wait 120)
for b in "${bridges[@]}"; do kill -TERM "$b" 2> /dev/null || true; done
for b in "${bridges[@]}"; do wait "$b" 2> /dev/null || true; done

echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| run | games | plies | wall s | arbiter CPU s | arbiter CPU µs/ply |"
echo "|---|---:|---:|---:|---:|---:|"
row() {
  local run=$1 wall=$2 cpu=$3 plies n
  plies=$(grep -o '"move":' "$out/$run.jsonl" | wc -l)
  n=$(wc -l < "$out/$run.jsonl")
  awk -v r="$run" -v n="$n" -v p="$plies" -v w="$wall" -v c="$cpu" 'BEGIN {
    printf "| %s | %d | %d | %.2f | %.2f | %.1f |\n", r, n, p, w, c, 1e6 * c / p }'
}
row local "$lwall" "$lcpu"
row remote "$rwall" "$rcpu"
awk -v l="$lcpu" -v r="$rcpu" -v pl="$(grep -o '"move":' "$out/local.jsonl" | wc -l)" \
  -v pr="$(grep -o '"move":' "$out/remote.jsonl" | wc -l)" \
  'BEGIN { printf "remote/local arbiter CPU per ply: %.2f\n", (r / pr) / (l / pl) }'
