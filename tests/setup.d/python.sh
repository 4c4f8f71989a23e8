#!/usr/bin/env bash
# The Python bot kit's test environment: a virtual environment in
# target/venv with maturin (the build backend), pytest and websockets (for
# the kit's connect=) from PyPI, and the kit itself installed from ./python
# the way its README says (pip install).
# Idempotent: an existing venv, its tools and an installed kit are reused
# (PyPI is asked only when they are missing). The suite
# (tests/suites/python.sh) reinstalls the kit from the working tree before it
# runs, so a kit installed here is never tested stale.
set -euo pipefail
cd "$(dirname "$0")/../.."

venv=target/venv
python=${PYTHON:-python3}
if [ ! -x "$venv/bin/python" ]; then
  mkdir -p target
  "$python" -m venv "$venv"
fi
# The maturin build backend runs the `maturin` executable from PATH.
export PATH="$PWD/$venv/bin:$PATH"
if [ ! -x "$venv/bin/maturin" ] || ! "$venv/bin/python" -m pytest --version >/dev/null 2>&1 \
  || ! "$venv/bin/python" -c 'import websockets' >/dev/null 2>&1; then
  "$venv/bin/python" -m pip install --quiet --upgrade pip
  # websockets: the kit's `run_engine(..., connect=...)` (its [remote] extra).
  "$venv/bin/python" -m pip install --quiet "maturin>=1.7,<2" "pytest>=7" "websockets>=13"
fi
# --no-build-isolation: build with the venv's maturin instead of fetching a
# fresh copy into a throwaway environment on every run.
if ! "$venv/bin/python" -c 'import mancala' 2>/dev/null; then
  "$venv/bin/python" -m pip install --quiet --no-build-isolation --force-reinstall --no-deps ./python
fi
"$venv/bin/python" -c 'import mancala; print("mancala kit", mancala.__version__, "installed in target/venv")'
