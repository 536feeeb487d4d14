// msjax's training-mode BatchNorm kernels: MindSpore 2.10's CPU BatchNorm / BatchNormGrad arithmetic as
// XLA FFI custom-call targets.
//
// MindSpore's CPU kernels call oneDNN 3.10's batch-normalization primitives, which pick the reference
// ncsp implementation ("ncsp_bnorm:any") for a plain NCHW float32 tensor. MindSpore's oneDNN runs on its
// threadpool runtime, which cannot synchronise threads inside a primitive, so each channel is reduced
// whole by one thread (the thread count changes which thread, not the order). The sums are the
// compiled loops of that implementation as MindSpore's build (GCC, SSE) vectorised them, found by
// matching MindSpore 2.10's outputs bit for bit (batch 4-32, 8-64 channels, spatial sizes 1, 15, 16,
// 49, 256; tests/test_batch_norm_bits.py):
//   forward sums (the mean's, then the variance's over (x - mean)^2): per image, four float lanes, element
//     j of the full blocks of four into lane j mod 4, the 1-3 left-over elements into lane 0; the lanes
//     then added into the channel's running sum one by one;
//   backward sums (dbeta = sum dy, dgamma' = sum (x - mean) dy): per image, a sequential sum from zero
//     (that loop is not vectorised), added into the channel's running sum.
// mean = sum / (N*S), var = sum / (N*S) (biased), y = (gamma / sqrtf(var + eps)) * (x - mean) + beta,
// dgamma = dgamma' * (1 / sqrtf(var + eps)),
// dx = (dy - (dbeta / (N*S) + (x - mean) * dgamma * r / (N*S))) * (gamma * r), r = 1 / sqrtf(var + eps),
// evaluated left to right in float without fused multiply-adds (built with -ffp-contract=off).
//
// MsjaxBatchNormTrain (x (N, C, ...), gamma (C,), beta (C,)) -> y, mean (C,), biased variance (C,)
// MsjaxBatchNormGrad (dy, x, gamma, mean, variance) -> dx, dgamma, dbeta
// Attribute: eps (float32).
#include <cmath>
#include <cstdint>
#include <vector>

#include "xla/ffi/api/ffi.h"
#include "offload.h"

namespace ffi = xla::ffi;

namespace {

// the forward's per-channel sum of f(v[i]) over the N images of s elements at stride c * s
template <typename F>
float ForwardSum(const float* v, int64_t n, int64_t c, int64_t s, F f) {
  float sum = 0.0f;
  const int64_t full = s - s % 4;
  for (int64_t i = 0; i < n; ++i) {
    const float* p = v + i * c * s;
    float lane[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int64_t j = 0; j < full; j += 4) {
      for (int k = 0; k < 4; ++k) lane[k] += f(p[j + k]);
    }
    for (int64_t j = full; j < s; ++j) lane[0] += f(p[j]);
    for (int k = 0; k < 4; ++k) sum += lane[k];
  }
  return sum;
}

// channels [c0, c1) of the forward (each channel is computed whole, so any split gives the same bits)
void TrainForward(const float* x, const float* gamma, const float* beta, int64_t n, int64_t c, int64_t s,
                  float eps, float* y, float* mean, float* var, int64_t c0, int64_t c1) {
  const float count = static_cast<float>(n * s);
  for (int64_t ch = c0; ch < c1; ++ch) {
    const float* xc = x + ch * s;
    const float m = ForwardSum(xc, n, c, s, [](float v) { return v; }) / count;
    const float v = ForwardSum(xc, n, c, s, [m](float t) {
                      const float d = t - m;
                      return d * d;
                    }) / count;
    mean[ch] = m;
    var[ch] = v;
    const float sm = gamma[ch] / std::sqrt(v + eps);
    const float sv = beta[ch];
    for (int64_t i = 0; i < n; ++i) {
      const float* p = xc + i * c * s;
      float* q = y + ch * s + i * c * s;
      for (int64_t j = 0; j < s; ++j) q[j] = sm * (p[j] - m) + sv;
    }
  }
}

void TrainBackward(const float* dy, const float* x, const float* gamma, const float* mean, const float* var,
                   int64_t n, int64_t c, int64_t s, float eps, float* dx, float* dgamma, float* dbeta, int64_t c0,
                   int64_t c1) {
  const float count = static_cast<float>(n * s);
  for (int64_t ch = c0; ch < c1; ++ch) {
    const float m = mean[ch];
    float dg = 0.0f, db = 0.0f;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t off = i * c * s + ch * s;
      float pg = 0.0f, pb = 0.0f;
      for (int64_t j = 0; j < s; ++j) {
        const float d = dy[off + j];
        pg += (x[off + j] - m) * d;
        pb += d;
      }
      dg += pg;
      db += pb;
    }
    const float r = 1.0f / std::sqrt(var[ch] + eps);
    dg *= r;
    dgamma[ch] = dg;
    dbeta[ch] = db;
    const float k = gamma[ch] * r;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t off = i * c * s + ch * s;
      for (int64_t j = 0; j < s; ++j) {
        float v = dy[off + j];
        v -= db / count + (x[off + j] - m) * dg * r / count;
        dx[off + j] = v * k;
      }
    }
  }
}

// (N, C, S) of an (N, C, ...) buffer, or false
template <typename B>
bool Layout(const B& x, int64_t& n, int64_t& c, int64_t& s) {
  auto d = x.dimensions();
  if (d.size() < 2) return false;
  n = d[0];
  c = d[1];
  s = 1;
  for (size_t i = 2; i < d.size(); ++i) s *= d[i];
  return true;
}

ffi::Error BadShape() {
  return ffi::Error(ffi::ErrorCode::kInvalidArgument, "msjax batch norm: x (N, C, ...) and (C,) parameters");
}

// The channels are split into one contiguous range per thread of XLA's intra-op pool (at least
// kMinPartElements elements each), run as pool tasks (offload.h): MindSpore's kernel splits its channels
// over its threads too; each channel is reduced whole by one thread either way, so the bits do not change.
constexpr int64_t kMinPartElements = 1 << 15;

template <typename Range>
ffi::Future SplitChannels(ffi::ThreadPool pool, int64_t n, int64_t c, int64_t s, Range range) {
  const int64_t parts = msjax_native::Parts(pool, c, n * c * s, kMinPartElements);
  return msjax_native::OffloadParts(pool, parts, [=](int64_t i) {
    range(c * i / parts, c * (i + 1) / parts);
    return ffi::Error::Success();
  });
}

ffi::Future Train(ffi::ThreadPool pool, ffi::Buffer<ffi::F32> x, ffi::Buffer<ffi::F32> gamma,
                  ffi::Buffer<ffi::F32> beta, ffi::ResultBuffer<ffi::F32> y, ffi::ResultBuffer<ffi::F32> mean,
                  ffi::ResultBuffer<ffi::F32> var, float eps) {
  int64_t n, c, s;
  if (!Layout(x, n, c, s) || gamma.element_count() != static_cast<size_t>(c) ||
      beta.element_count() != static_cast<size_t>(c)) {
    return msjax_native::Failed(BadShape());
  }
  const float *px = x.typed_data(), *pg = gamma.typed_data(), *pb = beta.typed_data();
  float *py = y->typed_data(), *pm = mean->typed_data(), *pv = var->typed_data();
  return SplitChannels(pool, n, c, s, [=](int64_t c0, int64_t c1) {
    TrainForward(px, pg, pb, n, c, s, eps, py, pm, pv, c0, c1);
  });
}

ffi::Future Grad(ffi::ThreadPool pool, ffi::Buffer<ffi::F32> dy, ffi::Buffer<ffi::F32> x,
                 ffi::Buffer<ffi::F32> gamma, ffi::Buffer<ffi::F32> mean, ffi::Buffer<ffi::F32> var,
                 ffi::ResultBuffer<ffi::F32> dx, ffi::ResultBuffer<ffi::F32> dgamma, ffi::ResultBuffer<ffi::F32> dbeta,
                 float eps) {
  int64_t n, c, s;
  if (!Layout(x, n, c, s) || dy.element_count() != x.element_count() ||
      gamma.element_count() != static_cast<size_t>(c) || mean.element_count() != static_cast<size_t>(c) ||
      var.element_count() != static_cast<size_t>(c)) {
    return msjax_native::Failed(BadShape());
  }
  const float *pdy = dy.typed_data(), *px = x.typed_data(), *pg = gamma.typed_data(), *pm = mean.typed_data(),
              *pv = var.typed_data();
  float *pdx = dx->typed_data(), *pdg = dgamma->typed_data(), *pdb = dbeta->typed_data();
  return SplitChannels(pool, n, c, s, [=](int64_t c0, int64_t c1) {
    TrainBackward(pdy, px, pg, pm, pv, n, c, s, eps, pdx, pdg, pdb, c0, c1);
  });
}

}  // namespace

XLA_FFI_DEFINE_HANDLER_SYMBOL(MsjaxBatchNormTrain, Train,
                              ffi::Ffi::Bind()
                                  .Ctx<ffi::ThreadPool>()
                                  .Arg<ffi::Buffer<ffi::F32>>()
                                  .Arg<ffi::Buffer<ffi::F32>>()
                                  .Arg<ffi::Buffer<ffi::F32>>()
                                  .Ret<ffi::Buffer<ffi::F32>>()
                                  .Ret<ffi::Buffer<ffi::F32>>()
                                  .Ret<ffi::Buffer<ffi::F32>>()
                                  .Attr<float>("eps"));
XLA_FFI_DEFINE_HANDLER_SYMBOL(MsjaxBatchNormGrad, Grad,
                              ffi::Ffi::Bind()
                                  .Ctx<ffi::ThreadPool>()
                                  .Arg<ffi::Buffer<ffi::F32>>()
                                  .Arg<ffi::Buffer<ffi::F32>>()
                                  .Arg<ffi::Buffer<ffi::F32>>()
                                  .Arg<ffi::Buffer<ffi::F32>>()
                                  .Arg<ffi::Buffer<ffi::F32>>()
                                  .Ret<ffi::Buffer<ffi::F32>>()
                                  .Ret<ffi::Buffer<ffi::F32>>()
                                  .Ret<ffi::Buffer<ffi::F32>>()
                                  .Attr<float>("eps"));
