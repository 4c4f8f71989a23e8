#!/usr/bin/env bash
# Elo ladder of the engine's `Level` option: a match between each pair of
# levels given (default: adjacent levels 1-2, 2-3, …, 19-20) with `arbiter
# match`, and the Elo difference it reports (positive: the higher level is
# stronger), plus the running sum along a chain of pairs.
#
#   cargo build --release -p arbiter -p engine
#   bench/elo_ladder.sh [GAMES] [LOW:HIGH ...]        # default 20 games per pair
#
# Environment: GAME (default bohnenspiel), ST (seconds per move, default 0.05),
# OPENING (default plies=2: random openings, both colours from each), MARGIN
# (timemargin in ms, default 100: the engines must not forfeit on a shared machine).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
games=${1:-20}
shift || true
pairs=("$@")
if [ ${#pairs[@]} -eq 0 ]; then
  for l in $(seq 1 19); do pairs+=("$l:$((l + 1))"); done
fi
game=${GAME:-bohnenspiel}
st=${ST:-0.05}
margin=${MARGIN:-100}
opening=${OPENING:-plies=2}
out=${OUT:-$root/target/bench-elo}
arbiter=$root/target/release/arbiter
engine=$root/target/release/engine
mkdir -p "$out"

echo "| levels | games | score (high) | Elo high − low | ±95% | sum along the chain |"
echo "|---|---:|---|---:|---:|---:|"
sum=0
for pair in "${pairs[@]}"; do
  lo=${pair%%:*}
  hi=${pair##*:}
  summary=$out/$lo-$hi.txt
  rm -f "$out/$lo-$hi.jsonl"
  # The higher level is the first engine, so the reported Elo is high − low.
  "$arbiter" match --game "$game" --games "$games" --openings "$opening" --seed "$lo$hi" \
    --stderr-dir "$out/stderr" --jsonout "$out/$lo-$hi.jsonl" \
    --engine cmd="$engine" name="L$hi" option.Level="$hi" \
    --engine cmd="$engine" name="L$lo" option.Level="$lo" \
    --each st="$st" timemargin="$margin" > "$summary"
  score=$(sed -n 's/^Score of [^:]*: \([0-9]* - [0-9]* - [0-9]*\).*/\1/p' "$summary")
  elo=$(sed -n 's/^Elo difference: \([-0-9.inf]*\) +\/- \([0-9.inf]*\).*/\1 \2/p' "$summary")
  read -r diff err <<< "$elo"
  # The running sum only means something along a chain (each pair starting
  # where the last one ended).
  if [ -z "${last_hi:-}" ] || [ "$lo" = "$last_hi" ]; then
    sum=$(awk -v s="$sum" -v d="$diff" 'BEGIN { if (s == "—" || d ~ /inf/) print "—"; else printf "%.0f", s + d }')
  else
    sum="—"
  fi
  last_hi=$hi
  echo "| $lo → $hi | $games | $score | $diff | $err | $sum |"
done
