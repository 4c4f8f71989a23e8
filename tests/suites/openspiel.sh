#!/usr/bin/env bash
# Kalah and Oware against OpenSpiel 2.0.2 (tests/openspiel/compare.py): perft
# to depth 8 and 1,000 random whole games per game, compared ply by ply with
# the project's rules through the Python kit. Needs the venv that
# tests/setup.d/openspiel.sh and tests/setup.d/python.sh made; fails (never
# skips) when it is missing. About 3 s of CPU after the kit is built.
set -euo pipefail
cd "$(dirname "$0")/../.."

venv=target/venv
if ! "$venv/bin/python" -c 'import pyspiel, mancala' 2>/dev/null; then
  echo "openspiel suite: no open_spiel or mancala kit in $venv; run tests/setup first" >&2
  exit 1
fi
export PATH="$PWD/$venv/bin:$PATH"
# The kit from the working tree, never a stale build (cargo recompiles only
# what changed; the python suite reinstalls it the same way).
python -m pip install --quiet --no-build-isolation --no-deps --force-reinstall ./python
python tests/openspiel/compare.py --games 1000 --depth 8
