// glibc 2.36's float tanh (sysdeps/ieee754/flt-32/s_tanhf.c, fdlibm's, on its s_expm1f.c), 8 lanes (AVX2)
// or 4 (SSE2) at a time and without branches: every path tanhf takes for some input is computed for all lanes and the lane's
// own is selected by masks of its bits, each path with the C source's float operations in its order (built
// with -ffp-contract=off: no fused multiply-adds). So a lane's result has the bits the C library's tanhf gives
// for that input where the library is that code (glibc up to 2.40 on x86-64: a plain SSE2 function there, not
// a CPU-dispatched one); glibc 2.41's correctly rounded tanhf (CORE-MATH) is another function, and so may be
// another C library's: gelu.cc compares this with the process's own tanhf before it uses it.
//
// Only the paths tanhf reaches are kept from expm1f: tanhf calls it with 2|x| in [2, 44) (reduction
// k = 3..63) or with -2|x| in (-2, -2^-54] (|u| < 2^-25: u itself; k = 0, -1, -2 or -3).
//
// bench/tanhf_exhaustive.cc compares tanh_lanes with the C library's tanhf on all 2^32 float bit patterns.
#ifndef MSJAX_TANHF_VEC_H_
#define MSJAX_TANHF_VEC_H_

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace msjax_tanhf {

template <int N>
struct Lanes {
  typedef float F __attribute__((vector_size(4 * N)));
  typedef int32_t I __attribute__((vector_size(4 * N)));
  typedef uint32_t U __attribute__((vector_size(4 * N)));
};

#define MSJAX_INLINE static inline __attribute__((always_inline))
#define MSJAX_LANE_TYPES                 \
  typedef typename Lanes<N>::F VF;       \
  typedef typename Lanes<N>::I VI;       \
  typedef typename Lanes<N>::U VU;

template <int N>
MSJAX_INLINE typename Lanes<N>::F add_exponent(typename Lanes<N>::F y, typename Lanes<N>::I k) {
  MSJAX_LANE_TYPES
  return (VF)((VU)y + ((VU)k << 23));                              // SET_FLOAT_WORD(y, i + (k << 23))
}

// expm1f(u) for the u tanhf passes (see above); lanes outside that domain give unspecified values.
template <int N>
MSJAX_INLINE typename Lanes<N>::F expm1_for_tanh(typename Lanes<N>::F u) {
  MSJAX_LANE_TYPES
  const float ln2_hi = 6.9313812256e-01f, ln2_lo = 9.0580006145e-06f, invln2 = 1.4426950216e+00f;
  const float Q1 = -3.3333335072e-02f, Q2 = 1.5873016091e-03f, Q3 = -7.9365076090e-05f, Q4 = 4.0082177293e-06f,
              Q5 = -2.0109921195e-07f;
  const VI hx = (VI)u & 0x7fffffff;
  const VI negative = (VI)u < 0;
  const VI reduce = hx > 0x3eb17218;                              // |u| > 0.5 ln2
  const VF half = (VF)(negative ? (VI){} + (int32_t)0xbf000000 : (VI){} + 0x3f000000);   // xsb ? -0.5f : 0.5f
  const VI k_rounded = __builtin_convertvector(invln2 * u + half, VI);       // k = invln2*x + (+-0.5), truncated
  // |u| < 1.5 ln2 (only negative u here): k = -1, hi = x + ln2_hi, lo = -ln2_lo, which is t = -1 below, exactly
  const VI k = reduce ? ((hx < 0x3F851592) ? (VI){} - 1 : k_rounded) : (VI){};
  const VF t = __builtin_convertvector(k, VF);
  const VF hi = u - t * ln2_hi;
  const VF lo = t * ln2_lo;
  const VF reduced = hi - lo;
  const VF c = (hi - reduced) - lo;
  const VF x = reduce ? reduced : u;

  const VF hfx = 0.5f * x;
  const VF hxs = x * hfx;
  const VF r1 = 1.0f + hxs * (Q1 + hxs * (Q2 + hxs * (Q3 + hxs * (Q4 + hxs * Q5))));
  const VF t3 = 3.0f - r1 * hfx;
  VF e = hxs * ((r1 - t3) / (6.0f - x * t3));
  const VF k0 = x - (x * e - hxs);                                 // k == 0
  e = (x * (e - c) - c);
  e -= hxs;
  const VF km1 = 0.5f * (x - e) - 0.5f;                            // k == -1
  const VF far = add_exponent<N>(1.0f - (e - x), k) - 1.0f;        // k <= -2 || k > 56
  const VI shift = k & 31;
  const VF below23 = add_exponent<N>((VF)(0x3f800000 - (0x1000000 >> shift)) - (e - x), k);   // k < 23
  VF upto56 = x - (e + (VF)((VU)(0x7f - k) << 23));                                             // 23 <= k <= 56
  upto56 += 1.0f;
  upto56 = add_exponent<N>(upto56, k);

  VF r = (k < 23) ? below23 : upto56;
  r = ((k <= -2) | (k > 56)) ? far : r;
  r = (k == -1) ? km1 : r;
  r = (k == 0) ? ((hx < 0x33000000) ? u : k0) : r;                 // |u| < 2^-25: u itself
  return r;
}

// tanhf of each lane. The three divisions of tanhf's paths (two/(t+two), -t/(t+two), one/x) are one
// division of the lane's own numerator by its own denominator: the same operation on the same operands.
template <int N>
MSJAX_INLINE typename Lanes<N>::F tanh_lanes(typename Lanes<N>::F x) {
  MSJAX_LANE_TYPES
  const float one = 1.0f, two = 2.0f, tiny = 1.0e-30f;
  const VI jx = (VI)x;
  const VI ix = jx & 0x7fffffff;
  const VF ax = (VF)ix;                                            // fabsf(x)
  const VI at_least_one = ix >= 0x3f800000;
  const VI inf_nan = ix >= 0x7f800000;
  const VF t = expm1_for_tanh<N>(at_least_one ? two * ax : -two * ax);
  const VF num = inf_nan ? (VF){} + one : (at_least_one ? (VF){} + two : -t);
  const VF q = num / (inf_nan ? x : t + two);
  VF z = at_least_one ? one - q : q;                               // one - two/(t+two) : -t/(t+two)
  const VF saturated = ((VF){} + one) - tiny;                     // |x| >= 22
  z = (ix >= 0x41b00000) ? saturated : z;
  z = (jx >= 0) ? z : -z;
  z = (ix < 0x24000000) ? x * (one + x) : z;                       // |x| < 2^-55
  z = (ix == 0) ? x : z;
  return inf_nan ? ((jx >= 0) ? q + one : q - one) : z;             // one/x + one : one/x - one
}

// f over n floats, N at a time, the last partial block through a padded copy.
template <int N, typename Fn>
MSJAX_INLINE void apply(const float* in, float* out, size_t n, Fn f) {
  typedef typename Lanes<N>::F VF;
  size_t i = 0;
  VF v;
  for (; i + N <= n; i += N) {
    std::memcpy(&v, in + i, sizeof v);
    v = f(v);
    std::memcpy(out + i, &v, sizeof v);
  }
  if (i < n) {
    float a[N] = {};
    std::memcpy(a, in + i, (n - i) * sizeof(float));
    std::memcpy(&v, a, sizeof v);
    v = f(v);
    std::memcpy(out + i, &v, (n - i) * sizeof(float));
  }
}

// tanh_<isa> and gelu_<isa>: (in, out, n) with N lanes; built for the instruction set the attribute names.
#define MSJAX_TANHF_KERNELS(ISA, N, ATTR)                                                              \
  ATTR void tanh_##ISA(const float* in, float* out, size_t n) {                                         \
    apply<N>(in, out, n, [](Lanes<N>::F x) __attribute__((always_inline)) { return tanh_lanes<N>(x); }); \
  }                                                                                                    \
  /* MindSpore's GeLU: x * (1 + tanhf(a * (x + b * x * x * x))) / 2, each step rounded to float */      \
  ATTR void gelu_##ISA(const float* in, float* out, size_t n) {                                         \
    apply<N>(in, out, n, [](Lanes<N>::F v) __attribute__((always_inline)) {                              \
      const float a = 0.7978845608f, b = 0.044715f;                                                     \
      const Lanes<N>::F t = tanh_lanes<N>(a * (v + b * v * v * v));                                    \
      return v * (1.0f + t) / 2.0f;                                                                     \
    });                                                                                                \
  }

MSJAX_TANHF_KERNELS(avx2, 8, __attribute__((target("avx2"), noinline)))
MSJAX_TANHF_KERNELS(sse2, 4, __attribute__((noinline)))

// The C library's tanhf of each value, one call a value (the reference the vector code must equal).
inline void tanh_libm(const float* in, float* out, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = std::tanh(in[i]);
}

// MindSpore's GeLU with the C library's tanhf, one value at a time (its CPU kernel's loop).
inline void gelu_libm(const float* in, float* out, size_t n) {
  const float a = 0.7978845608f, b = 0.044715f;
  for (size_t i = 0; i < n; ++i) {
    const float v = in[i];
    const float t = std::tanh(a * (v + b * v * v * v));
    out[i] = v * (1.0f + t) / 2.0f;
  }
}

}  // namespace msjax_tanhf

#endif  // MSJAX_TANHF_VEC_H_
