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
# openings so that the games differ), TC (default st=10: the time control of
# both engines, `--each` syntax, e.g. tc=10+0.1), OUT (default a fresh
# directory under target/, on the same disk as the build — the logs are
# fsynced per game).
#
# Side by side with fastchess: FASTCHESS=path/to/fastchess also plays, right
# after each arbiter run and at the same concurrency, GAMES games of
# fastchess's own random mover against itself (FASTCHESS_ENGINE, default
# `random_mover` beside the fastchess binary; chess from the start position,
# `-each $TC`, PGN written), and prints its line too (plies from the PGNs'
# PlyCount) with the arbiter's CPU a ply as a fraction of fastchess's. In
# this mode every engine runs under a bash wrapper that appends the engine's
# CPU (and its own) to a file, so the table also splits the CPU a ply into
# the engines' and the tool's alone (CPU a ply then includes the wrappers, a
# few ms each, counted with the engines). Build
# them (not part of this repository) with
#   make -C FASTCHESS_DIR && g++ -O3 -std=c++17 \
#     FASTCHESS_DIR/app/tests/mock/engine/random_mover.cpp -o FASTCHESS_DIR/random_mover
# RUNS (default 1) repeats the whole set, alternating the two tools.
# ARBITER and TESTBOT (default target/release/arbiter, testbot) measure
# other builds, e.g. copies kept from before a change.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
games=${1:-1000}
shift || true
concurrencies=("${@:-1 2}")
# shellcheck disable=SC2206
concurrencies=(${concurrencies[*]})
game=${GAME:-bohnenspiel}
opening=${OPENING:-plies=4}
tc=${TC:-st=10}
runs=${RUNS:-1}
out=${OUT:-$root/target/bench-arbiter}
arbiter=${ARBITER:-$root/target/release/arbiter}
testbot=${TESTBOT:-$root/target/release/testbot}
for bin in "$arbiter" "$testbot"; do
  [ -x "$bin" ] || { echo "missing $bin: cargo build --release -p arbiter -p testbots" >&2; exit 2; }
done
fastchess=${FASTCHESS:-}
if [ -n "$fastchess" ]; then
  fc_engine=${FASTCHESS_ENGINE:-$(dirname "$fastchess")/random_mover}
  for bin in "$fastchess" "$fc_engine"; do
    [ -x "$bin" ] || { echo "missing $bin (see the comment at the top of $0)" >&2; exit 2; }
  done
  fastchess=$(realpath "$fastchess")
  fc_engine=$(realpath "$fc_engine")
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)

row() { # concurrency games plies timefile
  local wall user sys
  read -r wall user sys < "$4"
  awk -v c="$1" -v n="$2" -v p="$3" -v w="$wall" -v u="$user" -v s="$sys" 'BEGIN {
    printf "| %d | %d | %d | %.2f | %.2f | %.1f | %.1f | %.0f |\n", c, n, p, w, u + s, 1e6 * w / p, 1e6 * (u + s) / p, n / w }'
}
# µs a ply: all (the tool and its engines), engines (with their wrappers,
# from the file the wrappers append to), and the tool alone (the difference).
split_row() { # tool concurrency games plies timefile enginesfile
  local wall user sys engines
  read -r wall user sys < "$5"
  # why every line: `times` prints the wrapper's own line, then its engine's.
  engines=$(awk '{ gsub(/[ms]/, " "); s += 60 * $1 + $2 + 60 * $3 + $4 } END { print s + 0 }' "$6")
  awk -v t="$1" -v c="$2" -v n="$3" -v p="$4" -v w="$wall" -v u="$user" -v s="$sys" -v e="$engines" 'BEGIN {
    printf "%s %d %d %d %.1f %.2f %.2f %.2f\n", t, c, n, p, 1e6 * w / p, 1e6 * (u + s) / p, 1e6 * e / p, 1e6 * (u + s - e) / p }'
}
# An engine command that appends its CPU (bash's `times`, to the ms;
# /usr/bin/time truncates to 10 ms) to a file when it ends. why no pipe: a
# pipeline runs `times` in a subshell, which has no children.
wrapper() { # file engine
  printf '#!/usr/bin/env bash\n%q "$@"\ntimes >> %q\n' "$2" "$1"
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -n "$fastchess" ]; then
  echo "| tool | concurrency | games | plies | wall µs/ply | CPU µs/ply | of which engines | tool alone | CPU a ply vs fastchess | tool alone vs fastchess alone |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
else
  echo "| concurrency | games | plies | wall s | CPU s (user+sys) | wall µs/ply | CPU µs/ply | games/s |"
  echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
fi
for ((run = 1; run <= runs; run++)); do
  for c in "${concurrencies[@]}"; do
    rm -f "$out/c$c.pgn" "$out/c$c.jsonl" "$out/c$c.time" "$out/c$c.engines"
    bot=$testbot
    if [ -n "$fastchess" ]; then
      bot=$out/testbot-timed
      wrapper "$out/c$c.engines" "$testbot" > "$bot"
      chmod +x "$bot"
    fi
    /usr/bin/time -f '%e %U %S' -o "$out/c$c.time" \
      "$arbiter" match --game "$game" --games "$games" --concurrency "$c" \
        --openings "$opening" --stderr-dir "$out/stderr" \
        --engine cmd="$bot" arg=--mode arg=instant name=A \
        --engine cmd="$bot" arg=--mode arg=instant name=B \
        --each "$tc" \
        --pgnout "$out/c$c.pgn" --jsonout "$out/c$c.jsonl" > "$out/c$c.summary"
    plies=$(grep -o '"move":' "$out/c$c.jsonl" | wc -l)
    n=$(wc -l < "$out/c$c.jsonl")
    if [ -z "$fastchess" ]; then
      row "$c" "$n" "$plies" "$out/c$c.time"
      continue
    fi
    rm -f "$out/fc$c.pgn" "$out/fc$c.time" "$out/fc$c.engines"
    mover=$out/random_mover-timed
    wrapper "$out/fc$c.engines" "$fc_engine" > "$mover"
    chmod +x "$mover"
    # why -games 2 -rounds N/2: fastchess plays pairs (colours swapped).
    # why in $out: fastchess leaves its config.json in the working directory.
    (cd "$out" && /usr/bin/time -f '%e %U %S' -o "$out/fc$c.time" \
      "$fastchess" -engine cmd="$mover" name=A -engine cmd="$mover" name=B \
        -each "$tc" -rounds $((games / 2)) -games 2 -repeat -concurrency "$c" \
        -pgnout file="$out/fc$c.pgn" > "$out/fc$c.summary")
    fc_plies=$(sed -n 's/^\[PlyCount "\([0-9]*\)"\]/\1/p' "$out/fc$c.pgn" | awk '{ s += $1 } END { print s + 0 }')
    fc_n=$(grep -c '^\[PlyCount ' "$out/fc$c.pgn")
    {
      split_row arbiter "$c" "$n" "$plies" "$out/c$c.time" "$out/c$c.engines"
      split_row fastchess "$c" "$fc_n" "$fc_plies" "$out/fc$c.time" "$out/fc$c.engines"
    } | awk 'NR == 1 { a = $0; all = $6; alone = $8; next }
      { split(a, f, " ")
        printf "| %s | %d | %d | %d | %.1f | %.1f | %.1f | %.1f | %.2f× | %.2f× |\n", f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], all / $6, alone / $8
        printf "| %s | %d | %d | %d | %.1f | %.1f | %.1f | %.1f | | |\n", $1, $2, $3, $4, $5, $6, $7, $8 }'
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
