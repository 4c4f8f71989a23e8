#!/usr/bin/env bash
# KGP clients written like the KGP repository's Python client (one socket
# file shared by a reader and writers, so they lose lines) play 100 rated
# Kalah games in an arena: no time forfeit, no failed admission, the random
# moves counted (tests/kgp/arena_run.py). Needs only python3.
set -euo pipefail
cd "$(dirname "$0")/../.."

# --profile test: the binaries `cargo test --workspace` built (tests/run runs
# it first), so nothing is rebuilt.
cargo build -q --profile test -p arbiter -p engine
ARBITER_BIN_DIR="$PWD/target/debug" python3 tests/kgp/arena_run.py --games 100 --clients 4
