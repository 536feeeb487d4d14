// msjax's CPU LSTM kernel: oneDNN's lstm_forward primitive as an XLA FFI custom-call target, configured
// as MindSpore 2.10's CPU LSTM kernel configures it (plugin/device/cpu/kernel/mkldnn/lstm_cpu_kernel.cc):
// forward_training, the weights given in the plain ldgoi layout (MindSpore's (4H, I) / (4H, H) matrices,
// gates i, f, g, o) and reordered into the layout the primitive asks for (format `any`), the bias one ldgo
// vector, the states ldnc, x and y tnc. oneDNN 3.2 (msjax's wheel) computes MindSpore's oneDNN 3.10
// values bit for bit on these settings (tests/test_lstm_bits.py; both instruction sets, AVX2 and AVX-512,
// where their bits differ from each other).
//
// MsjaxLstmForward (x (T, N, I), h0 (N, H), c0 (N, H), w_ih (4H, I), w_hh (4H, H), bias (4H))
//   -> y (T, N, H), h_n (N, H), c_n (N, H); float32, one layer, one direction (left to right).
//
// The primitive runs with one current OpenMP thread, as MindSpore's oneDNN (threadpool runtime, a stream
// without a threadpool) runs it. Plans (primitive, reordered weights, workspace, scratchpad) are kept per
// shape and per thread (thread_local: the pool's threads each run their own, no lock).
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

#include "oneapi/dnnl/dnnl.hpp"
#include "xla/ffi/api/ffi.h"
#include "offload.h"

namespace ffi = xla::ffi;

extern "C" int omp_get_max_threads(void);
extern "C" void omp_set_num_threads(int);

namespace {

using Dims = dnnl::memory::dims;
using tag = dnnl::memory::format_tag;

dnnl::engine& LstmEngine() {
  static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

dnnl::memory::desc F32(const Dims& dims, tag t) { return dnnl::memory::desc(dims, dnnl::memory::data_type::f32, t); }

// one current OpenMP thread while it lives
struct OneThread {
  int saved = omp_get_max_threads();
  OneThread() { omp_set_num_threads(1); }
  ~OneThread() { omp_set_num_threads(saved); }
};

struct LstmPlan {
  dnnl::memory::desc src, state, dst, bias, user_layer, user_iter;
  dnnl::lstm_forward prim;
  dnnl::memory weights_layer, weights_iter, workspace, scratchpad;
  dnnl::reorder to_layer, to_iter;

  LstmPlan(int64_t t, int64_t n, int64_t i, int64_t h) {
    auto& eng = LstmEngine();
    src = F32({t, n, i}, tag::tnc);
    state = F32({1, 1, n, h}, tag::ldnc);
    dst = F32({t, n, h}, tag::tnc);
    bias = F32({1, 1, 4, h}, tag::ldgo);
    user_layer = F32({1, 1, i, 4, h}, tag::ldgoi);
    user_iter = F32({1, 1, h, 4, h}, tag::ldgoi);
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    dnnl::lstm_forward::primitive_desc pd(eng, dnnl::prop_kind::forward_training,
                                          dnnl::rnn_direction::unidirectional_left2right, src, state, state,
                                          F32({1, 1, i, 4, h}, tag::any), F32({1, 1, h, 4, h}, tag::any), bias, dst,
                                          state, state, attr);
    prim = dnnl::lstm_forward(pd);
    weights_layer = dnnl::memory(pd.weights_layer_desc(), eng);
    weights_iter = dnnl::memory(pd.weights_iter_desc(), eng);
    workspace = dnnl::memory(pd.workspace_desc(), eng);
    scratchpad = dnnl::memory(pd.scratchpad_desc(), eng);
    to_layer = dnnl::reorder(dnnl::memory(user_layer, eng, DNNL_MEMORY_NONE), weights_layer);
    to_iter = dnnl::reorder(dnnl::memory(user_iter, eng, DNNL_MEMORY_NONE), weights_iter);
  }

  void Run(void* x, void* h0, void* c0, void* w_ih, void* w_hh, void* b, void* y, void* hn, void* cn) {
    auto& eng = LstmEngine();
    thread_local dnnl::stream stream(LstmEngine());
    OneThread one;
    dnnl::memory user_ih(user_layer, eng, w_ih), user_hh(user_iter, eng, w_hh);
    to_layer.execute(stream, user_ih, weights_layer);
    to_iter.execute(stream, user_hh, weights_iter);
    prim.execute(stream, {{DNNL_ARG_SRC_LAYER, dnnl::memory(src, eng, x)},
                          {DNNL_ARG_SRC_ITER, dnnl::memory(state, eng, h0)},
                          {DNNL_ARG_SRC_ITER_C, dnnl::memory(state, eng, c0)},
                          {DNNL_ARG_WEIGHTS_LAYER, weights_layer},
                          {DNNL_ARG_WEIGHTS_ITER, weights_iter},
                          {DNNL_ARG_BIAS, dnnl::memory(bias, eng, b)},
                          {DNNL_ARG_DST_LAYER, dnnl::memory(dst, eng, y)},
                          {DNNL_ARG_DST_ITER, dnnl::memory(state, eng, hn)},
                          {DNNL_ARG_DST_ITER_C, dnnl::memory(state, eng, cn)},
                          {DNNL_ARG_WORKSPACE, workspace},
                          {DNNL_ARG_SCRATCHPAD, scratchpad}});
    stream.wait();
  }
};

LstmPlan& PlanFor(int64_t t, int64_t n, int64_t i, int64_t h) {
  thread_local std::unordered_map<std::string, std::unique_ptr<LstmPlan>> plans;
  auto& plan = plans[std::to_string(t) + "," + std::to_string(n) + "," + std::to_string(i) + "," + std::to_string(h)];
  if (!plan) plan = std::make_unique<LstmPlan>(t, n, i, h);
  return *plan;
}

ffi::Error Invalid(const char* what) {
  return ffi::Error(ffi::ErrorCode::kInvalidArgument, std::string("msjax lstm: ") + what);
}

ffi::Future Lstm(ffi::ThreadPool pool, ffi::Buffer<ffi::F32> x, ffi::Buffer<ffi::F32> h0, ffi::Buffer<ffi::F32> c0,
                 ffi::Buffer<ffi::F32> w_ih, ffi::Buffer<ffi::F32> w_hh, ffi::Buffer<ffi::F32> bias,
                 ffi::ResultBuffer<ffi::F32> y, ffi::ResultBuffer<ffi::F32> hn, ffi::ResultBuffer<ffi::F32> cn) {
  auto xd = x.dimensions();
  auto hd = h0.dimensions();
  if (xd.size() != 3 || hd.size() != 2) return msjax_native::Failed(Invalid("x must be 3-D and h0 2-D"));
  const int64_t t = xd[0], n = xd[1], i = xd[2], h = hd[1];
  if (hd[0] != n || c0.element_count() != static_cast<size_t>(n * h) ||
      w_ih.element_count() != static_cast<size_t>(4 * h * i) || w_hh.element_count() != static_cast<size_t>(4 * h * h) ||
      bias.element_count() != static_cast<size_t>(4 * h)) {
    return msjax_native::Failed(Invalid("operand sizes do not match x (T, N, I) and h0 (N, H)"));
  }
  void *px = x.untyped_data(), *ph = h0.untyped_data(), *pc = c0.untyped_data(), *pi = w_ih.untyped_data(),
       *pw = w_hh.untyped_data(), *pb = bias.untyped_data(), *py = y->untyped_data(), *phn = hn->untyped_data(),
       *pcn = cn->untyped_data();
  return msjax_native::Offload(pool, [=]() -> ffi::Error {
    try {
      PlanFor(t, n, i, h).Run(px, ph, pc, pi, pw, pb, py, phn, pcn);
    } catch (const dnnl::error& e) {
      return ffi::Error(ffi::ErrorCode::kInternal, std::string("oneDNN: ") + e.what());
    } catch (const std::exception& e) {
      return ffi::Error(ffi::ErrorCode::kInternal, e.what());
    }
    return ffi::Error::Success();
  });
}

}  // namespace

XLA_FFI_DEFINE_HANDLER_SYMBOL(MsjaxLstmForward, Lstm,
                              ffi::Ffi::Bind()
                                  .Ctx<ffi::ThreadPool>()
                                  .Arg<ffi::Buffer<ffi::F32>>()
                                  .Arg<ffi::Buffer<ffi::F32>>()
                                  .Arg<ffi::Buffer<ffi::F32>>()
                                  .Arg<ffi::Buffer<ffi::F32>>()
                                  .Arg<ffi::Buffer<ffi::F32>>()
                                  .Arg<ffi::Buffer<ffi::F32>>()
                                  .Ret<ffi::Buffer<ffi::F32>>()
                                  .Ret<ffi::Buffer<ffi::F32>>()
                                  .Ret<ffi::Buffer<ffi::F32>>());
