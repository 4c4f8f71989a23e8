#!/usr/bin/env bash
# The browser board under load, against `arbiter match` doing the same work,
# in one run: TABLES (default 50) engine-vs-engine games at once, ROUNDS
# (default 20) games in a row on each, at st=0.1 (timemargin=1000: a loaded
# machine must not decide games on time here)
# between two instant engines (`testbot --mode instant` answers every go at
# once, so the time per ply is the arbiter's own overhead), first as one
# `arbiter match --concurrency TABLES --games TABLES*ROUNDS`, then as TABLES
# WebSockets on one
# `arbiter serve` (each game sends the page its whole state every ply; a page
# keeps its engines across its games, as a match slot does).
# Then the page-ready time of /play in headless Chromium (RUNS loads).
#
#   tests/setup && cargo build --release -p arbiter -p engine -p testbots
#   bench/serve.sh [TABLES] [ROUNDS] [RUNS]
#
# GAME (default bohnenspiel) picks the game: with two instant engines a
# Bohnenspiel game is 41 plies, a Bosh game 126 (it used to cycle to the
# 5000-ply limit).
# Prints wall and CPU (user+system of the arbiter and its reaped engines)
# µs per ply for both (and the load client's CPU, which the serve figure
# leaves out), and the page-ready times in ms.
#
# BOT=slow plays two engines that use their time instead (`testbot --mode
# slow --delay-ms 100`: each answers 100 ms after its `go`, without using
# the CPU), as engines at st=0.1 do; then the figure to compare is the
# latency a ply gets beyond the engine's 100 ms (wall × TABLES / plies − 100
# ms), besides the CPU per ply.
#
# PIN=1 runs each arbiter (and so its engines) on CPU 0 and the load client on
# CPU 1 (taskset), so that the client's work does not share the arbiter's
# core: it separates what serving costs from what sharing the cores with the
# client costs.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
tables=${1:-50}
rounds=${2:-20}
runs=${3:-10}
games=$((tables * rounds))
bin=$root/target/release
venv=$root/target/browser-venv
pin_arbiter=()
pin_client=()
if [ -n "${PIN:-}" ]; then
  pin_arbiter=(taskset -c 0)
  pin_client=(taskset -c 1)
fi
for b in "$bin/arbiter" "$bin/testbot"; do
  [ -x "$b" ] || { echo "missing $b: cargo build --release -p arbiter -p engine -p testbots" >&2; exit 2; }
done
[ -x "$venv/bin/python" ] || { echo "missing $venv: run tests/setup" >&2; exit 2; }
"$venv/bin/python" -c 'import websockets' 2>/dev/null ||
  "$venv/bin/pip" install -q --disable-pip-version-check 'websockets>=12,<16'
out=$(mktemp -d "$root/target/bench-serve.XXXXXX")
server=
# A failed step must not leave a server (and its engines) running.
cleanup() {
  if [ -n "$server" ]; then kill -INT "$server" 2>/dev/null || true; fi
  rm -rf "$out"
}
trap cleanup EXIT
game=${GAME:-bohnenspiel}
case ${BOT:-instant} in
  instant) mode=(arg=--mode arg=instant); think_ms=0 ;;
  slow) mode=(arg=--mode arg=slow arg=--delay-ms arg=100); think_ms=100 ;;
  *) echo "BOT is instant or slow, not $BOT" >&2; exit 2 ;;
esac
bots=(--engine "cmd=$bin/testbot" "${mode[@]}" name=A
      --engine "cmd=$bin/testbot" "${mode[@]}" name=B)

# arbiter match
/usr/bin/time -f '%e %U %S' -o "$out/match.time" "${pin_arbiter[@]}" "$bin/arbiter" match --game "$game" \
  --games "$games" --concurrency "$tables" "${bots[@]}" --each st=0.1 timemargin=1000 \
  --jsonout "$out/match.jsonl" --stderr-dir "$out/stderr" >/dev/null
match_plies=$(grep -o '"move":' "$out/match.jsonl" | wc -l)
read -r mwall muser msys < <(tail -n 1 "$out/match.time")

# arbiter serve: one server for the games only (the page loads below get
# their own), so that both CPU figures are a whole arbiter run, start-up and
# reaped engines included, and the Python client's CPU is not.
serve_start() { # $1: the name of this server's files
  /usr/bin/time -f '%e %U %S' -o "$out/$1.time" "${pin_arbiter[@]}" "$bin/arbiter" serve --listen 127.0.0.1:0 \
    "${bots[@]}" > "$out/$1.out" 2>"$out/$1.err" &
  timepid=$!
  for _ in $(seq 100); do grep -q http "$out/$1.out" 2>/dev/null && break; sleep 0.1; done
  url=$(grep -o 'http://[^ ]*' "$out/$1.out" | sed 's:/$::')
  server=$(pgrep -P "$timepid")
}
serve_stop() {
  # The server ends a closed page's engines (quit, then reaped) after the
  # client is gone: wait for that, so that their CPU is counted too (its
  # other child, the engine watchdog, lives as long as it does).
  for _ in $(seq 300); do pgrep -x -P "$server" testbot >/dev/null || break; sleep 0.1; done
  kill -INT "$server"
  wait "$timepid" || true
  server=
}
serve_start serve
/usr/bin/time -f '%U %S' -o "$out/client.time" "${pin_client[@]}" "$venv/bin/python" bench/serve_load.py "$url" \
  --tables "$tables" --rounds "$rounds" --game "$game" > "$out/client.out"
read -r sgames splies swall < "$out/client.out"
read -r cuser csys < <(tail -n 1 "$out/client.time")
serve_stop
# (time's last line; a first one says the server exited on the interrupt)
read -r _ suser ssys < <(tail -n 1 "$out/serve.time")

serve_start page
ready=$(ARBITER_BIN_DIR=$bin "$venv/bin/python" bench/serve_load.py "$url" --page-ready "$runs")
serve_stop

awk -v g="$games" -v t="$tables" -v think="$think_ms" -v mp="$match_plies" -v mw="$mwall" -v mu="$muser" -v ms="$msys" \
    -v sp="$splies" -v sw="$swall" -v su="$suser" -v ss="$ssys" -v cu="$cuser" -v cs="$csys" 'BEGIN {
  printf "match: %d games (%d at once), %d plies, wall %.2f s, CPU %.2f s: %.1f wall µs/ply, %.1f CPU µs/ply\n", g, t, mp, mw, mu+ms, mw*1e6/mp, (mu+ms)*1e6/mp
  printf "serve: %d games (%d at once), %d plies, wall %.2f s, CPU %.2f s: %.1f wall µs/ply, %.1f CPU µs/ply\n", g, t, sp, sw, su+ss, sw*1e6/sp, (su+ss)*1e6/sp
  printf "       (the Python client, not counted above: CPU %.2f s, %.1f µs/ply)\n", cu+cs, (cu+cs)*1e6/sp
  if (think > 0) printf "latency a ply beyond the engines %d ms: match %.2f ms, serve %.2f ms\n", think, mw*t*1e3/mp - think, sw*t*1e3/sp - think
}'
echo "page ready (ms from navigation, $runs loads): $ready"
