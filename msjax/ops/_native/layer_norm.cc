// msjax's LayerNorm kernel: MindSpore 2.10's CPU LayerNorm arithmetic (msjax/ops/_impl/layer_norm_cpu.py)
// as an XLA FFI custom-call target, so a PyNative LayerNorm compiles a program of one custom call (or,
// through the host twin, none) instead of a float64 `lax.scan` (0.5-0.9 s per new shape).
//
// Per normalised block of `block` values: the sums of x and of x * x in double, one value after another
// from +0.0; mean = sum / n, var = sum_sq / n - mean * mean (double, each step rounded, no fused
// multiply-add: built with -ffp-contract=off), each rounded to float. Then, in float,
// y = ((x - mean) / sqrtf(var + eps)) * gamma + beta; a NaN product (mean * mean, * gamma) becomes the
// positive quiet NaN, as the XLA form's `rounded` makes it; with `half`, every float step (the mean, the
// root, the difference, the quotient, the product, the sum) is rounded to float16 and back as XLA's
// conversions do it (ties to even, float16's subnormals kept as MindSpore's float16 steps keep them,
// beyond its largest to an infinity, NaN kept).
// Blocks are summed four at a time (independent chains; each block's own order is unchanged).
//
// MsjaxLayerNorm (x, gamma, beta) -> y (x's shape), mean, var (one value per block), all float32;
// gamma / beta: `p` values applied to element i as gamma[i % p], or no values (left out).
// Attributes: eps (float32), block (int64, values per block), half (int64).
// MsjaxLayerNormHost: the same loops called from Python on host buffers, with the calling thread's
// FTZ/DAZ bits set as XLA's executable runs (runtime/_host_eager.py's first PyNative calls).
#include <xmmintrin.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;

namespace {

// a float32 rounded to float16 and back, as XLA's conversions pair does it (ties to even; float16's
// subnormals kept, below them a zero of the value's sign; beyond its largest an infinity; NaN kept)
inline float ReduceToHalf(float v) {
  if (std::isnan(v)) return v;
  const float a = std::fabs(v);
  if (a < 6.103515625e-05f) {                            // below float16's smallest normal, 2^-14
    const float r = std::nearbyint(a * 16777216.0f) * 5.9604644775390625e-08f;   // multiples of 2^-24
    return std::copysign(r, v);
  }
  uint32_t b;
  std::memcpy(&b, &v, sizeof b);
  const uint32_t last = 1u << 13;                        // the last mantissa bit kept
  b = (b + ((b & last) >> 13) + ((last >> 1) - 1)) & ~(last - 1);
  if ((b & 0x7f800000u) > (142u << 23)) {
    b = (b & 0x80000000u) | 0x7f800000u;                // beyond float16: infinity
  }
  float r;
  std::memcpy(&r, &b, sizeof r);
  return r;
}

// a product's NaN as msjax's `rounded` (layer_norm_cpu.py) leaves it: the positive quiet NaN
template <typename T>
inline T Canonical(T v) {
  return std::isnan(v) ? std::numeric_limits<T>::quiet_NaN() : v;
}

template <bool kHalf>
inline float Step(float v) {
  return kHalf ? ReduceToHalf(v) : v;
}

template <bool kHalf>
void Normalize(const float* x, const float* gamma, const float* beta, int64_t blocks, int64_t n, int64_t p,
               float eps, float* y, float* mean, float* var) {
  constexpr int64_t kLanes = 4;
  for (int64_t b0 = 0; b0 < blocks; b0 += kLanes) {
    const int64_t lanes = blocks - b0 < kLanes ? blocks - b0 : kLanes;
    double s[kLanes] = {0.0, 0.0, 0.0, 0.0}, q[kLanes] = {0.0, 0.0, 0.0, 0.0};
    if (lanes == kLanes) {
      const float* r0 = x + b0 * n;
      for (int64_t j = 0; j < n; ++j) {
        for (int64_t k = 0; k < kLanes; ++k) {
          const double v = static_cast<double>(r0[k * n + j]);
          s[k] = s[k] + v;
          q[k] = q[k] + v * v;
        }
      }
    } else {
      for (int64_t k = 0; k < lanes; ++k) {
        const float* r = x + (b0 + k) * n;
        for (int64_t j = 0; j < n; ++j) {
          const double v = static_cast<double>(r[j]);
          s[k] = s[k] + v;
          q[k] = q[k] + v * v;
        }
      }
    }
    for (int64_t k = 0; k < lanes; ++k) {
      const int64_t blk = b0 + k;
      const double count = static_cast<double>(n);
      const double m64 = s[k] / count;
      const double sq = Canonical(m64 * m64);
      const double v64 = q[k] / count - sq;
      const float m = static_cast<float>(m64), v = static_cast<float>(v64);
      mean[blk] = m;
      var[blk] = v;
      const float mh = Step<kHalf>(m);
      const float den = Step<kHalf>(std::sqrt(v + eps));
      const float* xr = x + blk * n;
      float* yr = y + blk * n;
      int64_t at = p > 0 ? (blk * n) % p : 0;              // element i takes gamma[i % p]
      for (int64_t j = 0; j < n; ++j) {
        float t = Step<kHalf>(Step<kHalf>(xr[j] - mh) / den);
        if (gamma != nullptr) t = Step<kHalf>(Canonical(t * gamma[at]));
        if (beta != nullptr) t = Step<kHalf>(t + beta[at]);
        yr[j] = t;
        if (++at == p) at = 0;
      }
    }
  }
}

// 0 on success; 1 when the sizes do not fit together
int Run(const float* x, int64_t total, const float* gamma, int64_t gamma_n, const float* beta, int64_t beta_n,
        int64_t n, int64_t blocks, int64_t half, float eps, float* y, float* mean, float* var) {
  if (n < 0 || blocks < 0 || blocks * n != total) return 1;
  const int64_t p = gamma_n > 0 ? gamma_n : beta_n;
  if ((gamma_n > 0 && gamma_n != p) || (beta_n > 0 && beta_n != p) || (p > 0 && total % p != 0)) return 1;
  const float* g = gamma_n > 0 ? gamma : nullptr;
  const float* b = beta_n > 0 ? beta : nullptr;
  if (half) {
    Normalize<true>(x, g, b, blocks, n, p, eps, y, mean, var);
  } else {
    Normalize<false>(x, g, b, blocks, n, p, eps, y, mean, var);
  }
  return 0;
}

ffi::Error LayerNorm(ffi::Buffer<ffi::F32> x, ffi::Buffer<ffi::F32> gamma, ffi::Buffer<ffi::F32> beta,
                     ffi::ResultBuffer<ffi::F32> y, ffi::ResultBuffer<ffi::F32> mean,
                     ffi::ResultBuffer<ffi::F32> var, float eps, int64_t block, int64_t half) {
  const int64_t blocks = static_cast<int64_t>(mean->element_count());
  if (y->element_count() != x.element_count() || var->element_count() != mean->element_count() ||
      Run(x.typed_data(), static_cast<int64_t>(x.element_count()), gamma.typed_data(),
          static_cast<int64_t>(gamma.element_count()), beta.typed_data(), static_cast<int64_t>(beta.element_count()),
          block, blocks, half, eps, y->typed_data(), mean->typed_data(), var->typed_data()) != 0) {
    return ffi::Error(ffi::ErrorCode::kInvalidArgument, "msjax layer norm: sizes of x, gamma, beta and blocks");
  }
  return ffi::Error::Success();
}

}  // namespace

extern "C" int MsjaxLayerNormHost(const float* x, int64_t total, const float* gamma, int64_t gamma_n,
                                  const float* beta, int64_t beta_n, int64_t block, int64_t blocks, int64_t half,
                                  float eps, int64_t flush, float* y, float* mean, float* var) {
  const unsigned int csr = _mm_getcsr();
  if (flush) _mm_setcsr(csr | 0x8040);     // FTZ (bit 15) and DAZ (bit 6)
  const int status = Run(x, total, gamma, gamma_n, beta, beta_n, block, blocks, half, eps, y, mean, var);
  _mm_setcsr(csr);
  return status;
}

XLA_FFI_DEFINE_HANDLER_SYMBOL(MsjaxLayerNorm, LayerNorm,
                              ffi::Ffi::Bind()
                                  .Arg<ffi::Buffer<ffi::F32>>()
                                  .Arg<ffi::Buffer<ffi::F32>>()
                                  .Arg<ffi::Buffer<ffi::F32>>()
                                  .Ret<ffi::Buffer<ffi::F32>>()
                                  .Ret<ffi::Buffer<ffi::F32>>()
                                  .Ret<ffi::Buffer<ffi::F32>>()
                                  .Attr<float>("eps")
                                  .Attr<int64_t>("block")
                                  .Attr<int64_t>("half"));
