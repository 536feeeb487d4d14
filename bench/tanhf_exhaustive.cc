// Exhaustive check of msjax's vector tanhf (msjax/ops/_native/tanhf_vec.h) against this process's C library:
// every float bit pattern (or every --stride-th), the vector result's bits against tanhf's (a NaN against any
// NaN), and the same for the whole GeLU kernel against gelu.cc's scalar loop. Prints the counts of differing
// values (must be 0) and the first few.
//
//   g++ -O2 -ffp-contract=off -std=c++17 -I msjax/ops/_native bench/tanhf_exhaustive.cc -o /tmp/tanhf_exhaustive
//   /tmp/tanhf_exhaustive [--isa avx2|sse2] [--ftz] [--stride N]
//
// --ftz runs with the SSE control register's flush-to-zero and denormals-are-zero bits set (as XLA:CPU runs
// its kernels). tests/test_gelu_native.py builds and runs it with a stride; the full run takes about a minute.
#include <xmmintrin.h>

#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "tanhf_vec.h"

namespace {

using Kernel = void (*)(const float*, float*, size_t);

bool same(float got, float want) {
  if (std::isnan(want)) return std::isnan(got);
  uint32_t g, w;
  std::memcpy(&g, &got, 4);
  std::memcpy(&w, &want, 4);
  return g == w;
}

}  // namespace

int main(int argc, char** argv) {
  std::string isa = __builtin_cpu_supports("avx2") ? "avx2" : "sse2";
  bool ftz = false;
  uint64_t stride = 1;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--ftz")) {
      ftz = true;
    } else if (!std::strcmp(argv[i], "--isa") && i + 1 < argc) {
      isa = argv[++i];
    } else if (!std::strcmp(argv[i], "--stride") && i + 1 < argc) {
      stride = std::strtoull(argv[++i], nullptr, 10);
    } else {
      std::fprintf(stderr, "usage: %s [--isa avx2|sse2] [--ftz] [--stride N]\n", argv[0]);
      return 2;
    }
  }
  if (isa != "sse2" && !(isa == "avx2" && __builtin_cpu_supports("avx2"))) {
    std::fprintf(stderr, "no such instruction set on this CPU: %s\n", isa.c_str());
    return 2;
  }
  if (ftz) _mm_setcsr(_mm_getcsr() | 0x8040);
  namespace m = msjax_tanhf;
  const Kernel tanh_fast = isa == "avx2" ? m::tanh_avx2 : m::tanh_sse2;
  const Kernel gelu_fast = isa == "avx2" ? m::gelu_avx2 : m::gelu_sse2;
  const size_t block = 1 << 16;
  std::vector<float> in(block), want(block), got(block);
  uint64_t checked = 0, tanh_diff = 0, gelu_diff = 0;
  const auto start = std::chrono::steady_clock::now();
  for (uint64_t base = 0; base < (uint64_t(1) << 32);) {
    size_t n = 0;
    for (; n < block && base < (uint64_t(1) << 32); ++n, base += stride) {
      const uint32_t bits = uint32_t(base);
      std::memcpy(&in[n], &bits, 4);
    }
    checked += n;
    struct { Kernel fast, ref; uint64_t* count; const char* name; } passes[] = {
        {tanh_fast, msjax_tanhf::tanh_libm, &tanh_diff, "tanhf"}, {gelu_fast, msjax_tanhf::gelu_libm, &gelu_diff, "gelu"}};
    for (auto& p : passes) {
      p.ref(in.data(), want.data(), n);
      p.fast(in.data(), got.data(), n);
      for (size_t i = 0; i < n; ++i) {
        if (same(got[i], want[i])) continue;
        if ((*p.count)++ < 10) {
          uint32_t b;
          std::memcpy(&b, &in[i], 4);
          std::printf("%s differs at 0x%08x (%.9g): %.9g, C library %.9g\n", p.name, b, in[i], got[i], want[i]);
        }
      }
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("isa %s, ftz %d, %" PRIu64 " inputs checked (stride %" PRIu64 ") in %.1f s: tanhf differs at %" PRIu64
              ", gelu at %" PRIu64 "\n", isa.c_str(), int(ftz), checked, stride, seconds, tanh_diff, gelu_diff);
  return (tanh_diff || gelu_diff) ? 1 : 0;
}
