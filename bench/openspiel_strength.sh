#!/usr/bin/env bash
# The reference engine against OpenSpiel's own agents at equal time
# (BENCHMARKS.md, "Kalah and Oware against OpenSpiel's agents"): one
# `arbiter match` per game and agent, st=0.1 for both sides, colour-swapped
# pairs over the game's balanced opening suite. OpenSpiel plays through
# bench/openspiel_umi.py in target/venv (tests/setup.d/python.sh and
# openspiel.sh install the kit and OpenSpiel 2.0.2 there).
#
# Usage: bench/openspiel_strength.sh [OUT_DIR] [KALAH_GAMES] [OWARE_GAMES]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/openspiel-strength}
kalah_games=${2:-40}
oware_games=${3:-30}
mkdir -p "$out"
for game in kalah oware; do
  games=$kalah_games
  [ "$game" = oware ] && games=$oware_games
  for agent in alphabeta mcts; do
    echo "== $game, engine vs OpenSpiel $agent, $(uptime)"
    # why timemargin=1000: on a loaded machine a process can be off the CPU
    # for hundreds of ms; both sides still get the same 100 ms a move, the
    # margin only keeps such stalls from being scored as losses on time.
    nice -n 10 target/release/arbiter match \
      --engine cmd=target/release/engine name=engine \
      --engine cmd=target/venv/bin/python arg=bench/openspiel_umi.py \
               name="openspiel-$agent" option.Agent="$agent" \
      --each st=0.1 timemargin=1000 --game "$game" --games "$games" --openings suite \
      --concurrency 1 --seed 20 --stderr-dir "$out/logs" \
      --jsonout "$out/$game-$agent.jsonl" 2>&1 | tail -n 7
  done
done
echo "== done, $(uptime)"
