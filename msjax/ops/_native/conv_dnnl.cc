// msjax's CPU convolution kernels: oneDNN's convolution primitives as XLA FFI custom-call targets.
//
// Three handlers, one per pass of a float32 N-d (1-3 spatial dims) convolution in MindSpore's
// layout (x: N, C, *spatial; w: O, C/groups, *kernel):
//   MsjaxConvForward      (x, w)  -> y
//   MsjaxConvBackwardData (g, w)  -> dx   (dx's shape is the result buffer's)
//   MsjaxConvBackwardWeights (x, g) -> dw
// Attributes: stride, pad_lo, pad_hi, dilation (int64 arrays, one per spatial dim; dilation as
// MindSpore counts it, 1 = dense) and groups (int64).
//
// The primitives are built once per (pass, shapes, attributes) and kept; oneDNN picks its
// preferred (blocked) memory formats and the plain NC* buffers XLA hands over are reordered in and
// out. Built by msjax/ops/_native/__init__.py with g++ against the onednn-cpu-gomp wheel.
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "oneapi/dnnl/dnnl.hpp"
#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;

namespace {

enum Pass { kForward = 0, kBackwardData = 1, kBackwardWeights = 2 };

dnnl::engine& Engine() {
  static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

// One operand of a primitive: the user's plain layout and, where oneDNN wants another, a buffer in
// its layout with the reorder between them.
struct Operand {
  dnnl::memory::desc user;
  dnnl::memory::desc inner;
  bool reorder = false;
  dnnl::memory buffer;          // in `inner`'s layout, when reorder
  dnnl::reorder to_inner;       // user -> inner (inputs)
  dnnl::reorder to_user;        // inner -> user (the output)

  void Init(const dnnl::memory::desc& u, const dnnl::memory::desc& i, bool is_output) {
    user = u;
    inner = i;
    reorder = !(u == i);
    if (reorder) {
      buffer = dnnl::memory(inner, Engine());
      if (is_output) {
        to_user = dnnl::reorder(buffer, dnnl::memory(user, Engine(), DNNL_MEMORY_NONE));
      } else {
        to_inner = dnnl::reorder(dnnl::memory(user, Engine(), DNNL_MEMORY_NONE), buffer);
      }
    }
  }
};

struct Plan {
  std::mutex mutex;             // the buffers are the plan's own: one execution at a time
  dnnl::primitive prim;
  Operand a, b, out;            // inputs in the handler's order, then the result
  dnnl::memory scratchpad;      // the primitive's own, kept (no allocation and page faults per call)
  int a_arg = 0, b_arg = 0, out_arg = 0;
};

dnnl::memory::format_tag PlainTag(size_t rank, bool grouped_weights) {
  using tag = dnnl::memory::format_tag;
  if (grouped_weights) {
    switch (rank) {
      case 4: return tag::goiw;
      case 5: return tag::goihw;
      default: return tag::goidhw;
    }
  }
  switch (rank) {
    case 3: return tag::ncw;
    case 4: return tag::nchw;
    default: return tag::ncdhw;
  }
}

using Dims = dnnl::memory::dims;

dnnl::memory::desc Plain(const Dims& dims, bool grouped_weights = false) {
  return dnnl::memory::desc(dims, dnnl::memory::data_type::f32, PlainTag(dims.size(), grouped_weights));
}

dnnl::memory::desc Any(const Dims& dims) {
  return dnnl::memory::desc(dims, dnnl::memory::data_type::f32, dnnl::memory::format_tag::any);
}

std::string Key(int pass, const Dims& x, const Dims& w, const Dims& y, const Dims& stride,
                const Dims& lo, const Dims& hi, const Dims& dil, int64_t groups) {
  std::string key = std::to_string(pass) + "|" + std::to_string(groups);
  for (const Dims* d : {&x, &w, &y, &stride, &lo, &hi, &dil}) {
    key += "|";
    for (auto v : *d) key += std::to_string(v) + ",";
  }
  return key;
}

std::shared_ptr<Plan> MakePlan(int pass, const Dims& x, const Dims& w_in, const Dims& y, const Dims& stride,
                               const Dims& lo, const Dims& hi, const Dims& dil, int64_t groups) {
  Dims w = w_in;
  bool grouped = groups > 1;
  if (grouped) {  // (O, C/g, *k) -> (g, O/g, C/g, *k): the same bytes
    w.insert(w.begin(), groups);
    w[1] /= groups;
  }
  Dims dilates;
  for (auto d : dil) dilates.push_back(d - 1);
  auto& eng = Engine();
  auto alg = dnnl::algorithm::convolution_direct;
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  dnnl::memory::desc ax = Any(x), ay = Any(y);
  dnnl::convolution_forward::primitive_desc fwd(eng, dnnl::prop_kind::forward_training, alg, ax, Any(w), ay,
                                               stride, dilates, lo, hi, attr);
  auto plan = std::make_shared<Plan>();
  // one pass: its primitive and scratchpad, its two inputs and its output (user layout, the
  // primitive's layout, DNNL argument)
  auto bind = [&](const auto& pd, auto prim, const dnnl::memory::desc& a, const dnnl::memory::desc& a_in,
                  int a_arg, const dnnl::memory::desc& b, const dnnl::memory::desc& b_in, int b_arg,
                  const dnnl::memory::desc& out, const dnnl::memory::desc& out_in, int out_arg) {
    plan->prim = prim;
    plan->scratchpad = dnnl::memory(pd.scratchpad_desc(), eng);
    plan->a.Init(a, a_in, false);
    plan->b.Init(b, b_in, false);
    plan->out.Init(out, out_in, true);
    plan->a_arg = a_arg;
    plan->b_arg = b_arg;
    plan->out_arg = out_arg;
  };
  if (pass == kForward) {
    bind(fwd, dnnl::convolution_forward(fwd), Plain(x), fwd.src_desc(), DNNL_ARG_SRC, Plain(w, grouped),
         fwd.weights_desc(), DNNL_ARG_WEIGHTS, Plain(y), fwd.dst_desc(), DNNL_ARG_DST);
  } else if (pass == kBackwardData) {
    dnnl::convolution_backward_data::primitive_desc bwd(eng, alg, ax, Any(w), ay, stride, dilates, lo, hi,
                                                        fwd, attr);
    bind(bwd, dnnl::convolution_backward_data(bwd), Plain(y), bwd.diff_dst_desc(), DNNL_ARG_DIFF_DST,
         Plain(w, grouped), bwd.weights_desc(), DNNL_ARG_WEIGHTS, Plain(x), bwd.diff_src_desc(), DNNL_ARG_DIFF_SRC);
  } else {
    dnnl::convolution_backward_weights::primitive_desc bwd(eng, alg, ax, Any(w), ay, stride, dilates, lo,
                                                           hi, fwd, attr);
    bind(bwd, dnnl::convolution_backward_weights(bwd), Plain(x), bwd.src_desc(), DNNL_ARG_SRC, Plain(y),
         bwd.diff_dst_desc(), DNNL_ARG_DIFF_DST, Plain(w, grouped), bwd.diff_weights_desc(),
         DNNL_ARG_DIFF_WEIGHTS);
  }
  return plan;
}

std::shared_ptr<Plan> GetPlan(int pass, const Dims& x, const Dims& w, const Dims& y, const Dims& stride,
                              const Dims& lo, const Dims& hi, const Dims& dil, int64_t groups) {
  static std::mutex mutex;
  static std::unordered_map<std::string, std::shared_ptr<Plan>> plans;
  std::string key = Key(pass, x, w, y, stride, lo, hi, dil, groups);
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = plans.find(key);
    if (it != plans.end()) return it->second;
  }
  auto plan = MakePlan(pass, x, w, y, stride, lo, hi, dil, groups);
  std::lock_guard<std::mutex> lock(mutex);
  return plans.emplace(key, plan).first->second;
}

Dims ToDims(ffi::Span<const int64_t> s) { return Dims(s.begin(), s.end()); }

template <typename B>
Dims Shape(const B& buffer) {
  auto d = buffer.dimensions();
  return Dims(d.begin(), d.end());
}

void Run(Plan& plan, void* a, void* b, void* out) {
  auto& eng = Engine();
  thread_local dnnl::stream stream(Engine());
  std::lock_guard<std::mutex> lock(plan.mutex);
  auto input = [&](Operand& op, void* data) {
    dnnl::memory user(op.user, eng, data);
    if (!op.reorder) return user;
    op.to_inner.execute(stream, user, op.buffer);
    return op.buffer;
  };
  dnnl::memory ma = input(plan.a, a), mb = input(plan.b, b);
  dnnl::memory user_out(plan.out.user, eng, out);
  dnnl::memory mo = plan.out.reorder ? plan.out.buffer : user_out;
  plan.prim.execute(stream, {{plan.a_arg, ma}, {plan.b_arg, mb}, {plan.out_arg, mo},
                             {DNNL_ARG_SCRATCHPAD, plan.scratchpad}});
  if (plan.out.reorder) plan.out.to_user.execute(stream, plan.out.buffer, user_out);
  stream.wait();
}

ffi::Error Check(size_t rank, ffi::Span<const int64_t> stride, ffi::Span<const int64_t> lo,
                 ffi::Span<const int64_t> hi, ffi::Span<const int64_t> dil, int64_t groups) {
  size_t nd = rank - 2;
  if (rank < 3 || rank > 5 || stride.size() != nd || lo.size() != nd || hi.size() != nd || dil.size() != nd ||
      groups < 1) {
    return ffi::Error(ffi::ErrorCode::kInvalidArgument, "msjax conv_dnnl: bad rank or attributes");
  }
  return ffi::Error::Success();
}

// Operands (a, b) -> out: forward (x, w) -> y, backward data (g, w) -> dx, backward weights
// (x, g) -> dw; the plan is keyed by (x, w, y) shapes.
template <int P>
ffi::Error Convolution(ffi::Buffer<ffi::F32> a, ffi::Buffer<ffi::F32> b, ffi::ResultBuffer<ffi::F32> out,
                       ffi::Span<const int64_t> stride, ffi::Span<const int64_t> lo, ffi::Span<const int64_t> hi,
                       ffi::Span<const int64_t> dil, int64_t groups) {
  auto err = Check(a.dimensions().size(), stride, lo, hi, dil, groups);
  if (err.failure()) return err;
  try {
    Dims sa = Shape(a), sb = Shape(b), so = Shape(*out);
    const Dims& x = P == kBackwardData ? so : sa;
    const Dims& w = P == kBackwardWeights ? so : sb;
    const Dims& y = P == kForward ? so : (P == kBackwardData ? sa : sb);
    auto plan = GetPlan(P, x, w, y, ToDims(stride), ToDims(lo), ToDims(hi), ToDims(dil), groups);
    Run(*plan, a.untyped_data(), b.untyped_data(), out->untyped_data());
  } catch (const dnnl::error& e) {
    return ffi::Error(ffi::ErrorCode::kInternal, std::string("oneDNN: ") + e.what());
  } catch (const std::exception& e) {
    return ffi::Error(ffi::ErrorCode::kInternal, e.what());
  }
  return ffi::Error::Success();
}

}  // namespace

#define MSJAX_BIND                        \
  ffi::Ffi::Bind()                        \
      .Arg<ffi::Buffer<ffi::F32>>()       \
      .Arg<ffi::Buffer<ffi::F32>>()       \
      .Ret<ffi::Buffer<ffi::F32>>()       \
      .Attr<ffi::Span<const int64_t>>("stride") \
      .Attr<ffi::Span<const int64_t>>("pad_lo") \
      .Attr<ffi::Span<const int64_t>>("pad_hi") \
      .Attr<ffi::Span<const int64_t>>("dilation") \
      .Attr<int64_t>("groups")

XLA_FFI_DEFINE_HANDLER_SYMBOL(MsjaxConvForward, Convolution<kForward>, MSJAX_BIND);
XLA_FFI_DEFINE_HANDLER_SYMBOL(MsjaxConvBackwardData, Convolution<kBackwardData>, MSJAX_BIND);
XLA_FFI_DEFINE_HANDLER_SYMBOL(MsjaxConvBackwardWeights, Convolution<kBackwardWeights>, MSJAX_BIND);
