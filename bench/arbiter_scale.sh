#!/usr/bin/env bash
# Memory and speed of long events: a match and a two-engine tournament of N
# games each between two instant engines (`testbot --mode instant`), logs
# written and fsynced. For each: games, wall seconds, games/s and the
# arbiter's maximum resident set size (/usr/bin/time -v; the engines are
# separate processes and not counted).
#
#   cargo build --release -p arbiter -p testbots
#   bench/arbiter_scale.sh [N...]      # default: 2000 20000 200000
#
# A constant-memory event shows the same RSS at every N, and the same games/s.
# Environment: OUT (default a fresh directory under target/).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
sizes=("${@:-2000 20000 200000}")
# shellcheck disable=SC2206
sizes=(${sizes[*]})
out=${OUT:-$root/target/bench-scale}
arbiter=$root/target/release/arbiter
testbot=$root/target/release/testbot
for bin in "$arbiter" "$testbot"; do
  [ -x "$bin" ] || { echo "missing $bin: cargo build --release -p arbiter -p testbots" >&2; exit 2; }
done
mkdir -p "$out"
engines=(--engine cmd="$testbot" arg=--mode arg=instant name=A
         --engine cmd="$testbot" arg=--mode arg=instant name=B
         --each st=10 --openings plies=4 --stderr-dir "$out/stderr")

echo "| event | games | wall s | games/s | max RSS (MiB) |"
echo "|---|---:|---:|---:|---:|"
for n in "${sizes[@]}"; do
  for kind in match tournament; do
    rm -f "$out/$kind$n.jsonl" "$out/$kind$n.time"
    if [ "$kind" = match ]; then
      size=(--games "$n")
    else
      size=(--rounds $((n / 2)))
    fi
    /usr/bin/time -v -o "$out/$kind$n.time" \
      "$arbiter" "$kind" "${size[@]}" "${engines[@]}" \
        --jsonout "$out/$kind$n.jsonl" > "$out/$kind$n.summary"
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0;
      for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' "$out/$kind$n.time")
    rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$out/$kind$n.time")
    games=$(wc -l < "$out/$kind$n.jsonl")
    awk -v k="$kind" -v g="$games" -v w="$wall" -v r="$rss" 'BEGIN {
      printf "| %s | %d | %.1f | %.0f | %.1f |\n", k, g, w, g / w, r / 1024 }'
  done
done
