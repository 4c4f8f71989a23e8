#!/usr/bin/env bash
# Kalah(6,4) from the start, solved exactly: `engine solve` (every move's
# value) against CMancala (LifesLight/CMancala, MIT, C), side by side on
# this machine: seconds, nodes, peak memory (/usr/bin/time -v). Checks the
# known values: +8, moves 1: -14, 2: -10, 3: +8, 4: -2, 5: -8, 6: +4.
#
#   cargo build --release -p engine
#   bench/kalah_solve.sh [HASH_MB] [DB_SEEDS] [THREADS]   # defaults: 4096 MB, 20 seeds, 2
#
# DB_SEEDS > 0 builds (once; resumable) the Kalah databases up to that many
# seeds under $OUT/tb and solves above them; 0 solves without. CMancala is
# cloned (CMANCALA_GIT, pinned at CMANCALA_REV) and built with gcc -O3
# -march=native -flto under $OUT/cmancala, or taken from CMANCALA_SRC (a
# source tree); its run is its solve mode (depth 0, time 0: the value and
# the best move, one thread; `last` prints its nodes and time), opening
# book off, a 2^CACHE-entry table (default 30, 6 GiB here; CACHE=0 skips
# CMancala).
#
# Environment: BIN (default target/release), OUT (default
# target/bench-kalah-solve), CACHE, CMANCALA_SRC, CMANCALA_GIT, CMANCALA_REV,
# STONES (default 4: Kalah(6,STONES); the known values are checked for 4
# only; 3 is a quick trial of the script: STONES=3 CACHE=24 … 256 12).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
hash_mb=${1:-4096}
db=${2:-20}
threads=${3:-2}
bin=${BIN:-$root/target/release}
out=${OUT:-$root/target/bench-kalah-solve}
cache=${CACHE:-30}
git_url=${CMANCALA_GIT:-https://github.com/LifesLight/CMancala}
rev=${CMANCALA_REV:-1c8dbda}
engine=$bin/engine
[ -x "$engine" ] || { echo "missing $engine: cargo build --release -p engine" >&2; exit 2; }
mkdir -p "$out"
stones=${STONES:-4}
s=$stones
# Fewer than 4 a hole: the 48 seeds' rest waits in the stores, half each,
# which does not change the margin.
rest=$(( (48 - 12 * s) / 2 ))
start="kalah $s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s S $rest/$rest"
expect='"value": 8, "moves": {"1": -14, "2": -10, "3": 8, "4": -2, "5": -8, "6": 4}'

echo "machine: $(nproc) CPUs, $(lscpu | sed -n 's/^Model name: *//p'), load $(cut -d' ' -f1-3 /proc/loadavg)"

# peak RSS and CPU seconds of a /usr/bin/time -v log
peak() { sed -n 's/.*Maximum resident set size (kbytes): //p' "$1"; }
cpu() { awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {printf "%.1f", u+s}' "$1"; }
wall() { sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$1"; }

tb_args=()
if [ "$db" -gt 0 ]; then
  /usr/bin/time -v "$engine" tb build --game kalah --max-beans "$db" --out "$out/tb" \
    > "$out/tb-build.txt" 2> "$out/tb-build.time"
  echo "databases up to $db seeds: $(grep -c '^layer' "$out/tb-build.txt") layers," \
    "$(cpu "$out/tb-build.time") CPU-s to build here (0 when kept), $(du -sh "$out/tb" | cut -f1)"
  tb_args=(--tb "$out/tb")
fi

/usr/bin/time -v "$engine" solve --hash "$hash_mb" --threads "$threads" "${tb_args[@]}" "$start" \
  > "$out/engine.txt" 2> "$out/engine.time"
json=$(tail -1 "$out/engine.txt")
echo "engine solve --hash $hash_mb --threads $threads ${tb_args[*]}:"
echo "  $json"
echo "  wall $(wall "$out/engine.time"), CPU $(cpu "$out/engine.time") s, peak $(($(peak "$out/engine.time") / 1024)) MB"
case "$stones:$json" in
  [!4]:*) echo "  (values checked for 4 stones only)" ;;
  *"$expect"*) echo "  values: as known (+8; -14 -10 +8 -2 -8 +4)" ;;
  *) echo "  VALUES DIFFER from the known ones: $expect" >&2; exit 1 ;;
esac

[ "$cache" -gt 0 ] || exit 0
src=${CMANCALA_SRC:-$out/cmancala-src}
if [ ! -d "$src/src" ]; then
  git clone -q "$git_url" "$src"
  git -C "$src" checkout -q "$rev"
fi
mancala=$out/cmancala
if [ ! -x "$mancala" ]; then
  (cd "$src" && gcc -std=c2x -O3 -march=native -fno-stack-protector -flto=auto -Iinclude \
    -DMANCALA_VERSION='"12.2"' -DEGDB_BACKEND_NAME='"RAM"' \
    src/main.c src/logic/utility.c src/logic/board.c src/logic/solver/algo.c \
    src/logic/solver/cache.c src/logic/solver/opening_book.c src/user/render.c \
    src/user/handleConfig.c src/user/handleGame.c src/user/handlePlaying.c \
    src/logic/solver/egdb/core.c src/user/runBenchmark.c src/user/interface.c \
    src/logic/solver/egdb/memory/direct.c -lm -o "$mancala")
fi
printf 'stones %s\nbook false\ncache %s\ntime 0\ndepth 0\nprogress false\nplayer 1 ai\nautoplay false\nstart\nstep\nlast\nquit\n' "$stones" "$cache" \
  | /usr/bin/time -v "$mancala" > "$out/cmancala.txt" 2> "$out/cmancala.time"
echo "CMancala (solve mode: value and best move, one thread, cache 2^$cache):"
sed -n '/<< last/,$p' "$out/cmancala.txt" | grep -E 'Move|Evaluation|Solved|nodes|time' | sed 's/^(G) >> */  /' || true
echo "  wall $(wall "$out/cmancala.time"), CPU $(cpu "$out/cmancala.time") s, peak $(($(peak "$out/cmancala.time") / 1024)) MB"
