#!/usr/bin/env bash
# The arena's pairing: how soon a field of bots of known strength is ordered
# on the ladder, the informed pairing against the plain rule before it, and
# the time of one pairing decision for 200 bots (BENCHMARKS.md, "The
# arena's pairing"). Writes the raw output to OUT (default
# bench/results/arena_pairing.txt) and to stdout.
#
#   bench/arena_pairing.sh [ARGS...]     # ARGS go to the example, e.g. --seeds 50
#
# Environment: CARGO_TARGET_DIR as for any cargo build.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/bench/results/arena_pairing.txt}
cd "$root"
cargo build --release -p arbiter-arena --example pairing_learns
target=${CARGO_TARGET_DIR:-$root/target}
{
  echo "# bench/arena_pairing.sh $*, $(date -u +%Y-%m-%d), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
  echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
  "$target/release/examples/pairing_learns" "$@"
  echo
  echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$out"
