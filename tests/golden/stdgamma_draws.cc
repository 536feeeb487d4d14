// Issue 24: libstdc++'s std::gamma_distribution<float> / std::normal_distribution<float>
// draws from std::mt19937, as MindSpore 2.10's MixUpBatch and CutMixBatch make them; the
// reference for msjax/dataset/_stdgamma.py (tests/test_stdgamma.py). Never built by the tests:
//
//   g++ -O2 -o /tmp/stdgamma_draws tests/golden/stdgamma_draws.cc
//   python tests/golden/record_stdgamma.py /tmp/stdgamma_draws   # writes stdgamma_libstdcxx.json
//
// Prints, for `seed alpha count`: `count` draws of one gamma object, then `count` draws, each
// of a fresh gamma object, then `count` draws of one normal object, as float32 bit patterns.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <random>

static void put(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  std::printf("%08x\n", u);
}

int main(int argc, char **argv) {
  if (argc != 4) return 2;
  unsigned seed = std::strtoul(argv[1], nullptr, 10);
  float alpha = std::strtof(argv[2], nullptr);
  int count = std::atoi(argv[3]);
  std::mt19937 rnd(seed);
  std::gamma_distribution<float> kept(alpha, 1.0F);
  for (int i = 0; i < count; i++) put(kept(rnd));
  for (int i = 0; i < count; i++) {
    std::gamma_distribution<float> fresh(alpha, 1.0F);
    put(fresh(rnd));
  }
  std::normal_distribution<float> normal(0.0F, 1.0F);
  for (int i = 0; i < count; i++) put(normal(rnd));
  return 0;
}
