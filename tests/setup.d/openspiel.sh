#!/usr/bin/env bash
# The independent reference for Kalah and Oware (tests/suites/openspiel.sh):
# DeepMind's OpenSpiel 2.0.2 from PyPI (its manylinux wheel; it needs Python
# 3.11 or newer), installed into the Python kit's venv (target/venv, made
# here if tests/setup.d/python.sh has not made it yet) so that one script
# can drive both. Idempotent: an installed 2.0.2 is reused.
set -euo pipefail
cd "$(dirname "$0")/../.."

venv=target/venv
python=${PYTHON:-python3}
want=2.0.2
if [ ! -x "$venv/bin/python" ]; then
  mkdir -p target
  "$python" -m venv "$venv"
fi
if ! "$venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('open_spiel') != '$want')" 2>/dev/null; then
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "open_spiel==$want"
fi
"$venv/bin/python" -c 'import pyspiel; print("open_spiel", pyspiel.load_game("oware"), "installed in target/venv")'
