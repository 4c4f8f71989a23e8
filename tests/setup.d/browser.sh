#!/usr/bin/env bash
# Installs what tests/suites/browser.sh needs: Debian's chromium and
# chromium-driver, and a Python venv under target/ with selenium and pytest.
# Idempotent: each step checks first. Nothing downloads a browser or a driver
# of its own (selenium is pointed at /usr/bin/chromedriver).
set -euo pipefail
cd "$(dirname "$0")/../.."

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/chromedriver ] || missing+=(chromium-driver)
python3 -c 'import ensurepip' 2>/dev/null || missing+=(python3-venv)
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi

venv=target/browser-venv
if ! "$venv/bin/python" -c 'import selenium, pytest' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check 'selenium>=4.10,<5' 'pytest>=7,<9'
fi
