#!/usr/bin/env bash
# Installs what tests/suites/browser.sh needs: Debian's chromium and
# chromium-driver, and a Python venv under target/ with selenium and pytest.
# Idempotent: each step checks first. Nothing downloads a browser or a driver
# of its own (selenium is pointed at /usr/bin/chromedriver).
set -euo pipefail
cd "$(dirname "$0")/../.."
. tests/setup.d/debian-packages

missing=$(missing_debian_packages)
if [ -n "$missing" ]; then
  # shellcheck disable=SC2086 # one word per package
  install_debian_packages $missing
fi

venv=target/browser-venv
if ! "$venv/bin/python" -c 'import selenium, pytest' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check 'selenium>=4.10,<5' 'pytest>=7,<9'
fi
