#!/usr/bin/env bash
# The browser board (`arbiter serve`) in a real headless Chromium, driven
# through WebDriver by selenium (tests/browser/). Fails, never skips, when
# Chromium, its driver or the venv is missing: run tests/setup first.
set -euo pipefail
cd "$(dirname "$0")/../.."

venv=target/browser-venv
for need in /usr/bin/chromium /usr/bin/chromedriver "$venv/bin/pytest"; do
  if [ ! -x "$need" ]; then
    echo "browser suite: $need is missing; run tests/setup (it installs chromium, chromium-driver and the venv)" >&2
    exit 1
  fi
done

# why --profile test: the binaries `cargo test --workspace` already built (tests/run
# runs it first), so CI does not build the workspace a second time.
cargo build -q --profile test -p arbiter -p engine -p testbots
ARBITER_BIN_DIR="$PWD/target/debug" "$venv/bin/pytest" -q -p no:cacheprovider tests/browser
