#!/usr/bin/env bash
# How long fixed-depth Bosh matches run under the round-start ruling, two ways:
#
# 1. in process (engine/examples/bosh_rounds.rs): GAMES matches per pair of
#    depths, 4 random opening plies, colours alternating;
# 2. through the arbiter with real engine processes, as in issue 8:
#    `arbiter match --game bosh`, the reference engine at depth=4 against
#    depth=6 and at depth=1 against itself, `--openings plies=4`, the default
#    `--max-plies` (5000) as the backstop; the terminations and plies come
#    from the JSON-lines log (jq).
#
#   cargo build --release -p arbiter -p engine --examples --bins
#   bench/bosh_rounds.sh [GAMES]          # default 100
#
# Environment: PAIRS (default "4:6 1:1 2:2 3:3 4:4 5:5 6:6 8:8", in-process
# only), OUT (default a fresh directory under target/).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
games=${1:-100}
# shellcheck disable=SC2206
pairs=(${PAIRS:-4:6 1:1 2:2 3:3 4:4 5:5 6:6 8:8})
out=${OUT:-$root/target/bench-bosh-rounds}
arbiter=$root/target/release/arbiter
engine=$root/target/release/engine
example=$root/target/release/examples/bosh_rounds
for bin in "$arbiter" "$engine" "$example"; do
  [ -x "$bin" ] || { echo "missing $bin: cargo build --release -p arbiter -p engine --examples --bins" >&2; exit 2; }
done
command -v jq > /dev/null || { echo "missing jq" >&2; exit 2; }
mkdir -p "$out"

echo "In process ($games matches per pair):"
echo
"$example" --games "$games" "${pairs[@]}"
echo
echo "Through the arbiter ($games matches per pair, real engine processes):"
echo
echo "| depths | matches | plies median | plies max | rules: round start repeated | rules: opponent cannot fill a hole | adjudication (ply limit) | other |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for pair in 4:6 1:1; do
  south=${pair%:*}
  north=${pair#*:}
  log=$out/arbiter-$south-$north.jsonl
  rm -f "$log"
  "$arbiter" match --game bosh --games "$games" --openings plies=4 --seed 1 \
    --engine cmd="$engine" name=A depth="$south" \
    --engine cmd="$engine" name=B depth="$north" \
    --stderr-dir "$out/stderr" --jsonout "$log" > "$out/arbiter-$south-$north.summary"
  jq -rs --arg pair "$south vs $north" '
    (map(.moves | length) | sort) as $p
    | def count(f): map(select(f)) | length;
    "| \($pair) | \(length) | \($p[length / 2 | floor]) | \($p[-1]) | "
    + "\(count(.termination.detail == "round start repeated")) | "
    + "\(count(.termination.detail == "opponent cannot fill a hole")) | "
    + "\(count(.termination.kind == "adjudication")) | "
    + "\(count(.termination.kind != "rules" and .termination.kind != "adjudication")) |"
  ' "$log"
done
