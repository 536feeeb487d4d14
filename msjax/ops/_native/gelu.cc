// msjax's tanh-form GeLU kernel: MindSpore 2.10's CPU ``GeLU`` arithmetic as an XLA FFI custom-call target.
//
// MindSpore's CPU kernel (its element-wise "arithmetic self" kernels) computes, for float32 x,
//   t = tanhf(a * (x + ((b * x) * x) * x)),  y = (x * (1 + t)) / 2,  a = 0.7978845608f, b = 0.044715f,
// each step rounded to float (no fused multiply-adds: built with -ffp-contract=off), tanhf being the C
// library's (this process's libm, as MindSpore's). A float16 input is computed so in float32 and rounded
// once (the caller casts). Found by matching MindSpore 2.10's outputs bit for bit (every float16 value,
// 100,003 normal float32 draws; tests/test_gelu_bits.py).
//
// The kernel runs glibc 2.36's tanhf eight lanes at a time (tanhf_vec.h; AVX2, else SSE2 four lanes: 4-5x less
// CPU than a libm call a value) when, once per process, that code gives the process's own tanhf's bits
// on a set of inputs at every branch and reduction boundary of tanhf and expm1f (CheckInputs); otherwise
// (another C library's tanhf, e.g. glibc 2.41's correctly rounded one) and under MSJAX_GELU_LIBM=1 it calls
// the C library's tanhf a value at a time.
//
// MsjaxGeluTanh (x) -> y, float32 of any shape.
// MsjaxGeluTanhPath() -> 0: AVX2 vector code, 1: SSE2 vector code, 2: libm (MSJAX_GELU_LIBM=1),
//                        3: libm (the vector code differs from this process's tanhf).
// MsjaxGeluTanhCheck(reference) -> how many of CheckInputs' values the vector code's tanhf gives other bits
//                        for than reference (a NaN matches any NaN).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "tanhf_vec.h"
#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;

namespace {

using Kernel = void (*)(const float*, float*, size_t);

// Float bit patterns around every boundary tanhf and the expm1f it calls branch at (both signs, 16 patterns
// either side), the reduction's k steps, and 4,096 patterns spread over every exponent; each once.
std::vector<float> CheckInputs() {
  std::vector<uint32_t> centres = {0x00000000u, 0x00000001u, 0x00800000u, 0x24000000u, 0x3f800000u, 0x41b00000u,
                                   0x7f7fffffu, 0x7f800000u, 0x7fc00000u,
                                   // expm1f(-2|x|)'s |u| < 2^-25, <= 0.5 ln2, < 1.5 ln2 as |x|
                                   0x32800000u, 0x3e317218u, 0x3f051592u};
  for (int k = -3; k <= 64; ++k) {   // where invln2 * u +- 0.5 reaches k, as |x| = |u| / 2
    const float x = static_cast<float>(std::fabs(k - 0.5) / 1.4426950216 / 2.0);
    uint32_t bits;
    std::memcpy(&bits, &x, 4);
    centres.push_back(bits);
  }
  std::vector<uint32_t> patterns;
  for (uint32_t c : centres) {
    for (int d = -16; d <= 16; ++d) {
      const int64_t b = static_cast<int64_t>(c) + d;
      if (b < 0 || b > 0x7fffffff) continue;
      for (uint32_t sign : {0u, 0x80000000u}) {
        patterns.push_back(static_cast<uint32_t>(b) | sign);
      }
    }
  }
  for (uint32_t i = 0; i < 4096; ++i) patterns.push_back((i << 20) | (i * 2654435761u >> 12));
  std::sort(patterns.begin(), patterns.end());
  patterns.erase(std::unique(patterns.begin(), patterns.end()), patterns.end());
  std::vector<float> inputs(patterns.size());
  std::memcpy(inputs.data(), patterns.data(), patterns.size() * 4);
  return inputs;
}

bool SameBits(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return std::memcmp(&a, &b, 4) == 0;
}

Kernel VectorTanh() { return __builtin_cpu_supports("avx2") ? msjax_tanhf::tanh_avx2 : msjax_tanhf::tanh_sse2; }

int64_t Differences(float (*reference)(float)) {
  const std::vector<float> in = CheckInputs();
  std::vector<float> got(in.size());
  VectorTanh()(in.data(), got.data(), in.size());
  int64_t differ = 0;
  for (size_t i = 0; i < in.size(); ++i) differ += !SameBits(got[i], reference(in[i]));
  return differ;
}

float LibmTanh(float x) { return std::tanh(x); }

int ChoosePath() {
  const char* forced = std::getenv("MSJAX_GELU_LIBM");
  if (forced != nullptr && std::strcmp(forced, "") != 0 && std::strcmp(forced, "0") != 0) return 2;
  if (Differences(LibmTanh) != 0) return 3;
  return __builtin_cpu_supports("avx2") ? 0 : 1;
}

int Path() {
  static const int path = ChoosePath();   // once per process, on the first call
  return path;
}

ffi::Error GeluTanh(ffi::Buffer<ffi::F32> x, ffi::ResultBuffer<ffi::F32> y) {
  static const Kernel kernel[] = {msjax_tanhf::gelu_avx2, msjax_tanhf::gelu_sse2, msjax_tanhf::gelu_libm,
                                  msjax_tanhf::gelu_libm};
  kernel[Path()](x.typed_data(), y->typed_data(), x.element_count());
  return ffi::Error::Success();
}

}  // namespace

extern "C" int MsjaxGeluTanhPath() { return Path(); }

extern "C" int64_t MsjaxGeluTanhCheck(float (*reference)(float)) { return Differences(reference); }

XLA_FFI_DEFINE_HANDLER_SYMBOL(MsjaxGeluTanh, GeluTanh,
                              ffi::Ffi::Bind().Arg<ffi::Buffer<ffi::F32>>().Ret<ffi::Buffer<ffi::F32>>());
