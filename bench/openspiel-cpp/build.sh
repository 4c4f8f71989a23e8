#!/usr/bin/env bash
# Builds bench/openspiel-cpp/playouts.cc against OpenSpiel 2.0.2's own C++
# sources (not part of CI; needs g++ and PyPI once). The source distribution
# on PyPI carries the C++ core, the games and a vendored abseil, so no other
# fetch is needed: this compiles only what the `mancala` and `oware` games
# and the core need, with plain g++ (no cmake), into target/openspiel-cpp/.
#
# Usage: bench/openspiel-cpp/build.sh   (then target/openspiel-cpp/openspiel-playouts 3)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=$root/target/openspiel-cpp
version=2.0.2
mkdir -p "$out/obj"
cd "$out"

if [ ! -d "open_spiel-$version" ]; then
  if [ ! -f "open_spiel-$version.tar.gz" ]; then
    # why a venv of its own: `pip download --no-binary` prepares the sdist's
    # metadata, which needs a setuptools newer than some venvs carry, and
    # --no-build-isolation keeps pip from building cmake from source for it.
    python3 -m venv dl-venv
    dl-venv/bin/pip install --quiet -U setuptools wheel
    dl-venv/bin/pip download --quiet --no-deps --no-binary :all: --no-build-isolation \
      "open-spiel==$version" -d .
  fi
  tar xzf "open_spiel-$version.tar.gz"
fi
src=$out/open_spiel-$version
os=$src/open_spiel
absl=$os/abseil-cpp

CXX=${CXX:-g++}
flags=(-std=c++17 -O3 -DNDEBUG -march=native -I"$src" -I"$absl" -I"$os/json/include" -w)

# compile FILE OBJ: once, unless the source is newer.
compile() {
  local file=$1 obj=$2
  if [ ! -f "$obj" ] || [ "$file" -nt "$obj" ]; then
    "$CXX" "${flags[@]}" -c "$file" -o "$obj"
  fi
}

# Abseil: every library source of the parts the core uses (tests, benchmarks,
# mocks and tools left out), into an archive the linker picks from.
absl_objs=()
: > absl-skipped.log
while IFS= read -r file; do
  obj=obj/absl_$(echo "${file#"$absl"/absl/}" | tr / _).o
  # why tolerated: a few library files need what is not here (gmock for
  # the test matchers, platform APIs); a part the driver needs would fail
  # at the link below, naming the symbol.
  if compile "$file" "$obj" 2>>absl-skipped.log; then
    absl_objs+=("$obj")
  else
    echo "skipped ${file#"$absl"/} (see $out/absl-skipped.log)"
  fi
done < <(find "$absl/absl"/{base,strings,synchronization,time,numeric,debugging,hash,container,types,profiling,crc,random,log,status,flags} \
           -name '*.cc' \
           ! -name '*_test*.cc' ! -name '*_benchmark.cc' ! -name '*test_*.cc' \
           ! -name '*mock*' ! -name '*_gentables.cc' ! -name 'print_hash_of.cc' \
           ! -path '*/testing/*' ! -name 'chi_square.cc' ! -name 'distribution_test_util.cc' \
           ! -name 'nanobenchmark.cc' ! -name '*_main.cc' ! -name 'benchmarks.cc' \
           ! -name '*matchers*' ! -name '*test_util*' \
           | sort)
rm -f libabsl.a
ar rcs libabsl.a "${absl_objs[@]}"

# The core and the two games (linked as objects: the games register
# themselves from static initialisers, which an archive would drop).
core=(spiel.cc spiel_utils.cc spiel_globals.cc game_parameters.cc observer.cc policy.cc
      canonical_game_strings.cc utils/usage_logging.cc utils/status.cc utils/file.cc
      utils/combinatorics.cc
      games/mancala/mancala.cc games/oware/oware.cc games/oware/oware_board.cc)
objs=()
for file in "${core[@]}"; do
  [ -f "$os/$file" ] || continue
  obj=obj/os_$(echo "$file" | tr / _).o
  compile "$os/$file" "$obj"
  objs+=("$obj")
done
compile "$here/playouts.cc" obj/playouts.o
"$CXX" -O3 -o openspiel-playouts obj/playouts.o "${objs[@]}" libabsl.a -lpthread
echo "built $out/openspiel-playouts"
