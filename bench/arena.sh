#!/usr/bin/env bash
# The standing arena under load: B bots connected to one server through
# `arbiter connect` (one connection each, so B/2 games at once), each an
# instant engine (`testbot --mode instant`), playing G games of one pool;
# against `arbiter tournament` with the same B engines as local processes
# (a Swiss, B/2 games at once). Prints CPU µs per ply of both: the arena's
# is the server plus every bridge with its engine, the tournament's is the
# arbiter with its engines.
#
#   cargo build --release -p arbiter -p testbots
#   bench/arena.sh [BOTS] [GAMES] [PORT]      # defaults: 100 bots, 500 games, port 9321
#
# Environment: BIN (default target/release), OUT (default target/bench-arena).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bots=${1:-100}
games=${2:-500}
port=${3:-9321}
bin=${BIN:-$root/target/release}
out=${OUT:-$root/target/bench-arena}
arbiter=$bin/arbiter
testbot=$bin/testbot
for b in "$arbiter" "$testbot"; do
  [ -x "$b" ] || { echo "missing $b: cargo build --release -p arbiter -p testbots" >&2; exit 2; }
done
rm -rf "$out" && mkdir -p "$out/stderr" "$out/time"
db=$out/arena.sqlite
echo '[{"name": "bench", "game": "bohnenspiel", "each": "st=10", "openings": "suite"}]' > "$out/pools.json"
for i in $(seq 1 "$bots"); do
  "$arbiter" arena bot add "bot-$i" --db "$db" | tail -n 1 > "$out/token-$i"
done

# The arena: the server, then the bridges; it stops starting games at G.
/usr/bin/time -f '%e %U %S' -o "$out/time/server" "$arbiter" arena run --db "$db" \
  --listen "127.0.0.1:$port" --pools "$out/pools.json" --max-games "$games" > "$out/server.out" 2>/dev/null &
server=$!
sleep 1
bridges=()
for i in $(seq 1 "$bots"); do
  /usr/bin/time -f '%e %U %S' -o "$out/time/bridge-$i" "$arbiter" connect "ws://127.0.0.1:$port/umi" \
    --token "$(cat "$out/token-$i")" --stderr-dir "$out/stderr" \
    --engine cmd="$testbot" arg=--mode arg=instant name="bot-$i" > /dev/null 2>&1 &
  bridges+=($!)
done
finished() {
  curl -s "http://127.0.0.1:$port/api/arena/pools" | grep -o '"finished":[0-9]*' | cut -d: -f2
}
playing() {
  curl -s "http://127.0.0.1:$port/api/arena/pools" | grep -o '"playing":[0-9]*' | cut -d: -f2
}
peak=0
until [ "$(finished)" -ge "$games" ] && [ "$(playing)" -eq 0 ]; do
  p=$(playing); [ "$p" -gt "$peak" ] && peak=$p
  sleep 0.5
done
# The engines' CPU, read before the bridges go (they kill their engines on
# the way out without waiting for them, so `time` would not see it).
tck=$(getconf CLK_TCK)
engines_cpu=0
for b in "${bridges[@]}"; do
  for bridge in $(pgrep -P "$b"); do
    for e in $(pgrep -P "$bridge"); do
      t=$(awk '{ print $14 + $15 }' "/proc/$e/stat" 2>/dev/null || echo 0)
      engines_cpu=$(awk -v a="$engines_cpu" -v t="$t" -v k="$tck" 'BEGIN { print a + t / k }')
    done
  done
done
for b in "${bridges[@]}"; do pkill -TERM -P "$b" || true; done
wait "${bridges[@]}" 2>/dev/null || true
# why the child: "$server" is /usr/bin/time, which writes nothing if it is
# the one signalled; the server's own exit lets it write its figures.
pkill -TERM -P "$server" || true; wait "$server" 2>/dev/null || true
[ -s "$out/time/server" ] || { echo "the server's CPU was not recorded" >&2; exit 1; }
"$arbiter" arena export --db "$db" --pool bench --jsonout "$out/arena.jsonl" > /dev/null

# The same engines as local processes, B/2 games at once.
engines=()
for i in $(seq 1 "$bots"); do
  engines+=(--engine cmd="$testbot" arg=--mode arg=instant name="bot-$i")
done
/usr/bin/time -f '%e %U %S' -o "$out/time/tournament" "$arbiter" tournament --game bohnenspiel \
  --format swiss --rounds $((2 * games / bots)) --openings suite --each st=10 \
  --concurrency $((bots / 2)) --stderr-dir "$out/stderr" --jsonout "$out/tournament.jsonl" \
  "${engines[@]}" > /dev/null

cpu_of() { awk '{ c += $2 + $3 } END { printf "%.2f", c }' "$@"; }
plies_of() { grep -o '"move":' "$1" | wc -l; }
arena_cpu=$(cpu_of <(tail -q -n 1 "$out"/time/server "$out"/time/bridge-*))
arena_cpu=$(awk -v a="$arena_cpu" -v e="$engines_cpu" 'BEGIN { printf "%.2f", a + e }')
echo "of the arena's CPU, the bridges' engines: $engines_cpu s"
tour_cpu=$(cpu_of <(tail -n 1 "$out/time/tournament"))
echo "peak games at once in the arena: $peak"
echo "| run | games | plies | CPU s | CPU µs/ply |"
echo "|---|---:|---:|---:|---:|"
for run in arena tournament; do
  cpu=$arena_cpu; [ "$run" = tournament ] && cpu=$tour_cpu
  n=$(wc -l < "$out/$run.jsonl"); p=$(plies_of "$out/$run.jsonl")
  awk -v r="$run" -v n="$n" -v p="$p" -v c="$cpu" 'BEGIN {
    printf "| %s | %d | %d | %.2f | %.1f |\n", r, n, p, c, 1e6 * c / p }'
done
