// Random playouts per CPU second of OpenSpiel's own C++ `mancala` (Kalah) and
// `oware`, for BENCHMARKS.md, played as `engine bench` plays them: from the
// start, a uniformly random legal action every ply until the game ends.
// Built by bench/openspiel-cpp/build.sh against OpenSpiel 2.0.2's sources.
//
// Usage: openspiel-playouts [seconds per game]

#include <time.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "open_spiel/spiel.h"

namespace {

// CPU time of this process in seconds (as `engine bench` counts its thread's).
double cpu_seconds() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

// xorshift64*: a cheap generator, so that the rules, not the dice, are timed.
struct Rng {
  uint64_t s = 0x9E3779B97F4A7C15ull;
  uint64_t next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 2685821657736338717ull;
  }
};

void run(const std::string& name, double seconds) {
  std::shared_ptr<const open_spiel::Game> game = open_spiel::LoadGame(name);
  Rng rng;
  uint64_t games = 0, plies = 0;
  double began = cpu_seconds(), spent = 0;
  do {
    std::unique_ptr<open_spiel::State> state = game->NewInitialState();
    while (!state->IsTerminal()) {
      std::vector<open_spiel::Action> actions = state->LegalActions();
      state->ApplyAction(actions[rng.next() % actions.size()]);
      ++plies;
    }
    ++games;
    spent = cpu_seconds() - began;
  } while (spent < seconds);
  std::printf("%s: %.0f playouts per CPU second, %.1f plies each (%llu games)\n",
              name.c_str(), games / spent, double(plies) / games,
              static_cast<unsigned long long>(games));
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = argc > 1 ? std::atof(argv[1]) : 3.0;
  for (const char* name : {"mancala", "oware"}) run(name, seconds);
  return 0;
}
