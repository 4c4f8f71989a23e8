#!/usr/bin/env bash
# Docs that run (tests/docs/run_docs.py): every command block of README.md,
# docs/*.md and python/README.md is run in a scratch directory (or marked
# illustrative in the markdown, with its reason), the lines it promises
# checked; every path the docs name is requested from the server the docs
# start; every --flag and default the docs write must match --help. About a
# minute on a loaded two-core machine, with the test-profile binaries built.
set -euo pipefail
cd "$(dirname "$0")/../.."

# why --profile test: the binaries `cargo test --workspace` already built (tests/run
# runs it first), so nothing is built a second time.
cargo build -q --profile test -p arbiter -p engine
ARBITER_BIN_DIR="$PWD/target/debug" python3 tests/docs/run_docs.py "$@"
