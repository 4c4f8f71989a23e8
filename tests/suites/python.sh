#!/usr/bin/env bash
# The Python bot kit's tests (python/tests, pytest) in the venv that
# tests/setup.d/python.sh made. They drive the arbiter, the reference
# engine and the misbehaving testbot as processes, so these are built here
# first. Fails (never skips) when anything is missing: pytest's exit status
# 5 ("no tests collected") is a failure too.
set -euo pipefail
cd "$(dirname "$0")/../.."

venv=target/venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -m pytest --version >/dev/null 2>&1; then
  echo "python suite: no test environment in $venv; run tests/setup first" >&2
  exit 1
fi
export PATH="$PWD/$venv/bin:$PATH"

# --profile test: the same binaries `cargo test --workspace` built (tests/run runs
# it first) and the browser suite uses, so nothing is rebuilt.
cargo build -q --profile test -p arbiter -p engine -p testbots
# Reinstall the kit from the working tree, so that the tests never run
# against a stale build (cargo recompiles only what changed).
python -m pip install --quiet --no-build-isolation --no-deps --force-reinstall ./python

export MANCALA_BIN_DIR="$PWD/target/debug"
status=0
python -m pytest -p no:cacheprovider -q python/tests || status=$?
if [ "$status" -eq 5 ]; then
  echo "python suite: pytest collected no tests" >&2
fi
exit "$status"
