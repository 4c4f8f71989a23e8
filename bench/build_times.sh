#!/usr/bin/env bash
# How long the arbiter takes to build: clean (release and dev), then after an
# edit to one file (a comment line put at its top, which shifts every span in
# it) for each FILE given, in release and in dev. The edits are undone at the
# end (git checkout). Run it on a worktree of the commit to measure:
#
#   git worktree add /tmp/at-HEAD HEAD
#   bench/build_times.sh /tmp/at-HEAD /tmp/at-HEAD-target times.txt clean \
#       arbiter/arena/src/pairing.rs arbiter/board/src/board.rs arbiter/core/src/play/runner.rs
#
# (before the crate split, commit 5d831ed: arbiter/src/arena/pairing.rs,
# arbiter/src/web/board.rs, arbiter/src/play/runner.rs). `noclean` instead
# of `clean` builds first untimed and measures only the edits. `tests`
# instead times the cargo part of tests/run: `cargo test --workspace
# --no-run` from an empty target directory, then after each FILE's edit, and
# counts the test binaries cargo built and their total size. Appends to OUT.
set -euo pipefail
[ $# -ge 4 ] || { sed -n '2,16p' "$0" >&2; exit 2; }
src=$1; export CARGO_TARGET_DIR=$2; out=$3; clean=$4; shift 4
cd "$src"
t() {
  local s e
  s=$(date +%s.%N)
  "$@" >/dev/null 2>&1
  e=$(date +%s.%N)
  awk -v s="$s" -v e="$e" 'BEGIN { printf "%.1f", e - s }'
}
echo "== $(git rev-parse --short HEAD 2>/dev/null || basename "$src") $(date -u +%FT%TZ) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out"
if [ "$clean" = tests ]; then
  rm -rf "$CARGO_TARGET_DIR"
  echo "clean cargo test --workspace --no-run: $(t cargo test --workspace --no-run) s" >> "$out"
  for f in "$@"; do
    sed -i "1i // edit tests $(date +%s%N)" "$f"
    echo "cargo test --workspace --no-run after editing $f: $(t cargo test --workspace --no-run) s" >> "$out"
  done
  # The binaries cargo runs: one per crate's unit tests (lib and bin), one
  # per integration-test target. `--no-run` names each ("Executable ...").
  exes=$(cargo test --workspace --no-run 2>&1 | sed -n 's/^ *Executable \(.*\) (\(.*\))$/\1|\2/p')
  unit=$(grep -c '^unittests' <<<"$exes" || true)
  integ=$(grep -vc '^unittests' <<<"$exes" || true)
  bytes=$(cut -d'|' -f2 <<<"$exes" | xargs stat -c %s | awk '{ s += $1 } END { print s }')
  ibytes=$(grep -v '^unittests' <<<"$exes" | cut -d'|' -f2 | xargs stat -c %s | awk '{ s += $1 } END { print s }')
  echo "test binaries: $unit unit-test, $integ integration-test; $((bytes / 1048576)) MiB in all, integration tests $((ibytes / 1048576)) MiB" >> "$out"
  echo "target directory: $(du -sm "$CARGO_TARGET_DIR" | cut -f1) MiB" >> "$out"
  [ $# -eq 0 ] || git checkout -- "$@" 2>/dev/null || true
  echo "load at end $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out"
  exit 0
fi
if [ "$clean" = clean ]; then
  rm -rf "$CARGO_TARGET_DIR"
  echo "clean release build: $(t cargo build --release -p arbiter) s" >> "$out"
  echo "clean dev build: $(t cargo build -p arbiter) s" >> "$out"
else
  cargo build --release -p arbiter >/dev/null 2>&1
  cargo build -p arbiter >/dev/null 2>&1
fi
for profile in release dev; do
  flag=()
  [ "$profile" = release ] && flag=(--release)
  for f in "$@"; do
    sed -i "1i // edit $profile $(date +%s%N)" "$f"
    echo "$profile rebuild after editing $f: $(t cargo build "${flag[@]}" -p arbiter) s" >> "$out"
  done
done
git checkout -- "$@"
echo "load at end $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out"
