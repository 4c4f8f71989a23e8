#!/usr/bin/env bash
# The arena at a term's scale (BENCHMARKS.md, "The arena at a term's
# scale"): a database of 200 bots and a million finished games, then on it
#   1. a ratings refit of the pool and the pairing's restore (example term_refit),
#   2. the server's start (migrations, abort_unfinished, pairing restore,
#      first refit) until /api/arena/pools answers, a first and a second time,
#   3. the latency of the pages and JSON (bench/arena_latency.py),
#   4. the server's RSS and CPU while house bots play fast games on it.
#
#   cargo build --release -p arbiter -p engine
#   bench/arena_term.sh [GAMES] [BOTS]        # defaults: 1000000 200
#
# Environment: BIN (default target/release), WORK (default
# target/bench-arena-term; the generated database is kept there and reused),
# PORT (9331), HOUSE house bots (10) with SLOTS slots each (10), so up to
# HOUSE*SLOTS/2 games at once; MINUTES of play (5), SAMPLE seconds between
# samples (5), N requests per path (50), OUT (bench/results/arena_term.txt),
# EXAMPLES (a directory with term_db and term_refit built already: no cargo
# build; e.g. those of an older commit, with BIN, to measure it).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
games=${1:-1000000}
bots=${2:-200}
bin=${BIN:-$root/target/release}
work=${WORK:-$root/target/bench-arena-term}
port=${PORT:-9331}
house=${HOUSE:-10}
# why: the house bots play each other here; an arbiter that paces them
# (--house-rate) is told not to.
rate=()
if "${BIN:-$root/target/release}/arbiter" arena run --help 2>/dev/null | grep -q -- --house-rate; then
  rate=(--house-rate 1000000)
fi
slots=${SLOTS:-10}
minutes=${MINUTES:-5}
sample=${SAMPLE:-5}
n=${N:-50}
out=${OUT:-$root/bench/results/arena_term.txt}
arbiter=$bin/arbiter
engine=$bin/engine
for b in "$arbiter" "$engine"; do
  [ -x "$b" ] || { echo "missing $b: cargo build --release -p arbiter -p engine" >&2; exit 2; }
done
cd "$root"
if [ -z "${EXAMPLES:-}" ]; then
  cargo build --release -p arbiter-arena --example term_db --example term_refit
fi
examples=${EXAMPLES:-${CARGO_TARGET_DIR:-$root/target}/release/examples}
mkdir -p "$work"
url=http://127.0.0.1:$port

server=
stop_server() {
  if [ -n "$server" ]; then
    kill -TERM "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    server=
  fi
}
trap stop_server EXIT

# Waits until the server answers; prints the seconds since $1 (date +%s.%N).
answered_after() {
  local t0=$1
  until curl -sf -o /dev/null "$url/api/arena/pools"; do
    kill -0 "$server" 2>/dev/null || { echo "the server died: $work/server.err" >&2; exit 1; }
    sleep 0.05
  done
  awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN {printf "%.2f", a - b}'
}

# Real records to copy: a short arena of four house bots at depth 1.
templates=$work/templates.jsonl
if [ ! -s "$templates" ]; then
  rm -rf "$work/tpl" && mkdir -p "$work/tpl"
  echo '[{"name": "term", "game": "bohnenspiel", "each": "depth=1", "openings": "suite"}]' > "$work/tpl/pools.json"
  houses=()
  for i in 1 2 3 4; do
    "$arbiter" arena bot add "t$i" --db "$work/tpl/a.sqlite" > /dev/null
    houses+=(--house "name=t$i cmd=$engine slots=2")
  done
  "$arbiter" arena run --db "$work/tpl/a.sqlite" --listen "127.0.0.1:$port" \
    --pools "$work/tpl/pools.json" --max-games 300 "${houses[@]}" "${rate[@]}" > /dev/null 2> "$work/tpl/server.err" &
  server=$!
  answered_after "$(date +%s.%N)" > /dev/null
  until curl -s "$url/api/arena/pools" | grep -q '"finished":300,"playing":0'; do sleep 0.5; done
  stop_server
  "$arbiter" arena export --db "$work/tpl/a.sqlite" --pool term --jsonout "$templates"
fi

orig=$work/term-$games-$bots.sqlite
if [ ! -s "$orig" ]; then
  rm -f "$orig" "$orig-wal" "$orig-shm"
  "$examples/term_db" "$orig" "$templates" "$games" "$bots" term 1 | tee "$work/generated.txt"
fi
db=$work/run.sqlite
fresh() { rm -f "$db" "$db-wal" "$db-shm" "$db.lock"; cp "$orig" "$db"; }
pools=$work/pools.json
echo '[{"name": "term", "game": "bohnenspiel", "each": "depth=1", "openings": "suite"}]' > "$pools"

cpu_s() { # user + system seconds of a process
  awk -v t="$(getconf CLK_TCK)" '{printf "%.2f", ($14 + $15) / t}' "/proc/$1/stat"
}
rss_mb() {
  awk '/VmRSS/ {printf "%.1f", $2 / 1024}' "/proc/$1/status"
}

# why exec, not a piped group: the group would be a subshell, and the
# trap that stops the server would not see its pid.
exec > >(tee "$out") 2>&1
{
  echo "# bench/arena_term.sh $games $bots, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
  echo "# binaries $bin, examples $examples; commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- arbiter || echo ' (with uncommitted changes)')"
  echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  cat "$work/generated.txt" 2>/dev/null || true
  echo "database: $(du -m "$orig" | cut -f1) MB"
  echo
  echo "## 1. refit and pairing restore (term_refit, on a fresh copy: its open migrates)"
  fresh
  "$examples/term_refit" "$db" term 5

  echo
  echo "## 2. the server's start, until /api/arena/pools answers"
  fresh
  for run in first second; do
    t0=$(date +%s.%N)
    RUST_LOG=${RUST_LOG:-info} "$arbiter" arena run --db "$db" --listen "127.0.0.1:$port" --pools "$pools" \
      > /dev/null 2> "$work/server-$run.err" &
    server=$!
    s=$(answered_after "$t0")
    echo "$run start: $s s; RSS $(rss_mb "$server") MB, CPU $(cpu_s "$server") s"
    if [ "$run" = second ]; then
      echo
      echo "## 3. latency, $n requests a path, one at a time, no game playing"
      python3 bench/arena_latency.py "$url" "$n" "/arena?pool=term" "/api/arena/ladder?pool=term" \
        "/api/arena/bot?name=bot-001" "/api/arena/bot?name=bot-150" "/api/arena/games" \
        "/api/arena/games?bot=bot-077" "/api/arena/pools" "/api/logs/0?game=999000"
      echo "after the requests: RSS $(rss_mb "$server") MB, CPU $(cpu_s "$server") s"
    fi
    stop_server
  done

  echo
  echo "## 4. $house house bots x $slots slots at depth=1 for $minutes min: RSS and CPU every $sample s"
  houses=()
  for i in $(seq 1 "$house"); do
    houses+=(--house "name=$(printf 'bot-%03d' "$i") cmd=$engine slots=$slots")
  done
  t0=$(date +%s.%N)
  "$arbiter" arena run --db "$db" --listen "127.0.0.1:$port" --pools "$pools" "${houses[@]}" \
    "${rate[@]}" > /dev/null 2> "$work/server-play.err" &
  server=$!
  answered_after "$t0" > /dev/null
  echo "   s   RSS MB  server CPU s  finished  playing  load"
  end=$(( $(date +%s) + minutes * 60 ))
  start=$(date +%s)
  peak=0
  while [ "$(date +%s)" -lt "$end" ]; do
    j=$(curl -s "$url/api/arena/pools")
    f=$(echo "$j" | grep -o '"finished":[0-9]*' | cut -d: -f2)
    p=$(echo "$j" | grep -o '"playing":[0-9]*' | cut -d: -f2)
    p=${p:-0}
    [ "$p" -gt "$peak" ] && peak=$p
    printf '%4d %8s %13s %9s %8s  %s\n' $(( $(date +%s) - start )) "$(rss_mb "$server")" \
      "$(cpu_s "$server")" "$f" "$p" "$(cut -d' ' -f1 /proc/loadavg)"
    sleep "$sample"
  done
  echo "peak games at once: $peak"
  echo
  echo "latency while playing:"
  python3 bench/arena_latency.py "$url" 20 "/api/arena/ladder?pool=term" "/api/arena/bot?name=bot-001" \
    "/api/arena/games" "/api/arena/pools"
  stop_server
  echo
  echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
}
