#!/usr/bin/env bash
# Eval weights by self-play (BENCHMARKS.md, "Eval weights by self-play"): the
# engine with ENGINE_EVAL's overrides (new) against the same build with its
# built-in weights (old), every opening of the game's suite played with both
# colours. `nodes=` instead of a clock: the engine is deterministic at a node
# count, so the result does not depend on the machine's load, and the 2 × 64
# games are all the distinct games there are (a cost in speed of a term is
# measured apart, with `engine bench`).
#
# Usage: bench/eval_selfplay.sh GAME "ENTRIES" [NODES] [OUT_DIR]
#   e.g. bench/eval_selfplay.sh kalah "kalah.mobility=10"
set -euo pipefail
cd "$(dirname "$0")/.."
game=$1 entries=$2 nodes=${3:-20000} out=${4:-target/eval-selfplay}
mkdir -p "$out"
tag=$(echo "$game-$entries" | tr -c 'A-Za-z0-9=.-' _)
echo "== $game: $entries vs built-in, nodes=$nodes, $(uptime)"
nice -n 10 target/release/arbiter match \
  --engine cmd=/usr/bin/env arg="ENGINE_EVAL=$entries" arg=target/release/engine name=new \
  --engine cmd=target/release/engine name=old \
  --each nodes="$nodes" --game "$game" --games 128 --openings suite \
  --concurrency 2 --seed 20 --stderr-dir "$out/logs" --jsonout "$out/$tag.jsonl" 2>&1 | tail -n 6
echo "== done, $(uptime)"
