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
// The primitives are built once per (pass, shapes, attributes) and kept. They are built on the
// plain NC* / OI* layouts, as MindSpore 2.10's CPU kernels build theirs (oneDNN then picks the
// same implementation, x64:gemm:jit, and sums in the same order: MindSpore's values bit for bit);
// oneDNN's own preferred blocked formats would be faster on some shapes but sum in another order.
//
// MsjaxMatmul (a, b) -> a' @ b', a' = a or a.T (transpose_a), b' = b or b.T (transpose_b): oneDNN's
// matmul primitive on row-major buffers with the transposes as strides ("ba"), as MindSpore's
// MatMul CPU kernel calls it (gemm:jit:f32), for Dense and its gradients; b is read from a row-padded copy
// where oneDNN's AVX2 gemm would run slowly on it in place (PadWeightRows: same bits).
//
// MsjaxSparseSoftmaxXent (logits (B, C), labels (B,) int32) -> the batch-mean loss () or, with
// is_grad, its gradient (B, C): MindSpore 2.10's SparseSoftmaxCrossEntropyWithLogits CPU kernel's
// arithmetic (its softmax's exp polynomial, 8-lane blocks then a scalar tail, the running sums in
// float, glibc's logf), written out with explicit fused multiply-adds (built with -ffp-contract=off).
// MsjaxMatmulHost / MsjaxConvHost / MsjaxSparseSoftmaxXentHost: the same product / convolution pass /
// loss called from Python on host buffers (the FFI handlers' own code and plans), for the first PyNative calls that msjax/runtime/_host_eager.py evaluates without
// compiling a program; `flush` sets the calling thread's FTZ/DAZ bits for the call, as XLA's
// executable runs with them.
// Built by msjax/ops/_native/__init__.py with g++ against the onednn-cpu-gomp wheel.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <unistd.h>
#include <xmmintrin.h>

#include "oneapi/dnnl/dnnl.hpp"
#include "xla/ffi/api/ffi.h"
#include "offload.h"

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
  int threads = 1;              // current OpenMP threads while it runs (see CurrentThreads); 0: all

  // one pass: its primitive and scratchpad, its two inputs and its output (user layout, the
  // primitive's layout, DNNL argument)
  template <typename PD>
  void Bind(const PD& pd, dnnl::primitive p, const dnnl::memory::desc& a_user, const dnnl::memory::desc& a_in,
            int a_id, const dnnl::memory::desc& b_user, const dnnl::memory::desc& b_in, int b_id,
            const dnnl::memory::desc& out_user, const dnnl::memory::desc& out_in, int out_id) {
    prim = p;
    scratchpad = dnnl::memory(pd.scratchpad_desc(), pd.get_engine());
    a.Init(a_user, a_in, false);
    b.Init(b_user, b_in, false);
    out.Init(out_user, out_in, true);
    a_arg = a_id;
    b_arg = b_id;
    out_arg = out_id;
  }
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
  dnnl::memory::desc ax = Plain(x), ay = Plain(y), aw = Plain(w, grouped);
  dnnl::convolution_forward::primitive_desc fwd(eng, dnnl::prop_kind::forward_training, alg, ax, aw, ay,
                                               stride, dilates, lo, hi, attr);
  auto plan = std::make_shared<Plan>();
  if (pass == kForward) {
    plan->Bind(fwd, dnnl::convolution_forward(fwd), Plain(x), fwd.src_desc(), DNNL_ARG_SRC, Plain(w, grouped),
               fwd.weights_desc(), DNNL_ARG_WEIGHTS, Plain(y), fwd.dst_desc(), DNNL_ARG_DST);
  } else if (pass == kBackwardData) {
    dnnl::convolution_backward_data::primitive_desc bwd(eng, alg, ax, aw, ay, stride, dilates, lo, hi,
                                                        fwd, attr);
    plan->Bind(bwd, dnnl::convolution_backward_data(bwd), Plain(y), bwd.diff_dst_desc(), DNNL_ARG_DIFF_DST,
               Plain(w, grouped), bwd.weights_desc(), DNNL_ARG_WEIGHTS, Plain(x), bwd.diff_src_desc(), DNNL_ARG_DIFF_SRC);
  } else {
    dnnl::convolution_backward_weights::primitive_desc bwd(eng, alg, ax, aw, ay, stride, dilates, lo,
                                                           hi, fwd, attr);
    plan->Bind(bwd, dnnl::convolution_backward_weights(bwd), Plain(x), bwd.src_desc(), DNNL_ARG_SRC, Plain(y),
               bwd.diff_dst_desc(), DNNL_ARG_DIFF_DST, Plain(w, grouped), bwd.diff_weights_desc(),
               DNNL_ARG_DIFF_WEIGHTS);
  }
  return plan;
}

// The plans of one key: a pass runs on a plan it holds alone (its buffers are the plan's), and a
// second call of the same shape while one runs (GroupConv's three equal convolutions, now that the
// passes run concurrently, see Offload) builds another plan of the same primitive (same
// implementation, same sums) rather than waiting; at most kPlansPerKey, then it waits for the first.
constexpr size_t kPlansPerKey = 4;

struct PlanSet {
  std::mutex mutex;
  std::vector<std::shared_ptr<Plan>> plans;
};

// a plan of `set` locked by `lock`, made by `make` when every existing one is busy
template <typename Make>
std::shared_ptr<Plan> Acquire(PlanSet& set, std::unique_lock<std::mutex>& lock, Make make) {
  {
    std::lock_guard<std::mutex> guard(set.mutex);
    for (auto& plan : set.plans) {
      std::unique_lock<std::mutex> held(plan->mutex, std::try_to_lock);
      if (held.owns_lock()) {
        lock = std::move(held);
        return plan;
      }
    }
  }
  std::shared_ptr<Plan> plan;
  {
    std::lock_guard<std::mutex> guard(set.mutex);
    if (set.plans.size() >= kPlansPerKey) plan = set.plans.front();
  }
  if (!plan) {
    plan = make();
    std::lock_guard<std::mutex> guard(set.mutex);
    set.plans.push_back(plan);
  }
  lock = std::unique_lock<std::mutex>(plan->mutex);
  return plan;
}

PlanSet& PlansOf(const std::string& key) {
  static std::mutex mutex;
  static std::unordered_map<std::string, std::unique_ptr<PlanSet>> sets;
  std::lock_guard<std::mutex> guard(mutex);
  auto& set = sets[key];
  if (!set) set = std::make_unique<PlanSet>();
  return *set;
}

std::shared_ptr<Plan> GetPlan(std::unique_lock<std::mutex>& lock, int pass, const Dims& x, const Dims& w,
                              const Dims& y, const Dims& stride, const Dims& lo, const Dims& hi, const Dims& dil,
                              int64_t groups) {
  return Acquire(PlansOf(Key(pass, x, w, y, stride, lo, hi, dil, groups)), lock,
                 [&] { return MakePlan(pass, x, w, y, stride, lo, hi, dil, groups); });
}

Dims ToDims(ffi::Span<const int64_t> s) { return Dims(s.begin(), s.end()); }

template <typename B>
Dims Shape(const B& buffer) {
  auto d = buffer.dimensions();
  return Dims(d.begin(), d.end());
}

// GNU OpenMP (oneDNN's runtime in the onednn-cpu-gomp wheel)
extern "C" int omp_get_max_threads(void);
extern "C" void omp_set_num_threads(int);

// While a primitive runs, oneDNN's "current" thread count is 1 on the calling thread, as in
// MindSpore 2.10: its oneDNN (threadpool runtime) runs on a stream without a threadpool, so the
// partitions fixed when a primitive was built (for oneDNN's maximum thread count: a convolution's
// outer threading over images, with its weight-gradient reduction) are kept, while everything that
// asks for the current count at run time (the gemm inside a convolution pass that is not outer
// threaded, as conv1's weight gradient in a LeNet5) runs on one thread. A gemm
// on two threads splits a long sum in two (other bits) and, as dozens of small parallel regions
// per call, costs 100x its time on a loaded machine (LeNet5's conv1 weight gradient: 147 ms
// against 1.2 ms). The primitives themselves are built outside this scope.
// The matmul plans run on MatmulThreads(): MindSpore's MatMul kernel splits a long sum over its
// threads (its recorded two-thread bits, tests/test_matmul_fp16_bits.py), as many as its gemm asks for.
struct CurrentThreads {
  int saved = omp_get_max_threads();
  explicit CurrentThreads(int n) { omp_set_num_threads(n); }
  ~CurrentThreads() { omp_set_num_threads(saved); }
};

// an x86-64 machine with AVX2 and without AVX-512 (the instruction set msjax's matmul bits were checked on)
bool OnlyAvx2() {
  static const bool only_avx2 = __builtin_cpu_supports("avx2") && !__builtin_cpu_supports("avx512f");
  return only_avx2;
}

// The threads MindSpore 2.10's oneDNN (3.10, threadpool runtime) gives an f32 gemm of m x k by k x n
// on an AVX2 machine without AVX-512: one per L2 cache of the problem's footprint
// (adjust_thread_count: ceil((m n + m k + n k) * 4 bytes / per-core L2)), at most all of them, so a
// small product (the zoo ResNet-18's 32x512 by 512x10 head) is one sum per value where oneDNN 3.2's
// OpenMP cost model (msjax's wheel) would split it over two threads; elsewhere all threads (0).
int MatmulThreads(int64_t m, int64_t k, int64_t n) {
  static const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  if (!OnlyAvx2() || l2 <= 0) return 0;
  const int64_t bytes = (m * n + m * k + n * k) * static_cast<int64_t>(sizeof(float));
  const int64_t wanted = (bytes + l2 - 1) / l2;
  return static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(omp_get_max_threads(), wanted)));
}

// MindSpore 2.10's oneDNN (3.10) on an AVX-512 CPU gives a small f32 product to its gemm kernel (its brgemm
// matmul's "small shapes fall back"), where oneDNN 3.2 (msjax's wheel) runs brgemm, which sums in another
// order (the census's float16 BERT: a GeLU's float32 values into a 16x512 by 512x12 MatMul). Measured
// against MindSpore 2.10 on an AVX-512 CPU (1,800 shapes, random ones with each transpose, tests/golden/
// matmul_fp16.py): gemm whenever 2 <= n <= 14528 and either 9 <= k <= 128 and m <= 768, or k >= 16,
// m <= 512 and m k <= 49152; its rule takes gemm for some shapes outside this region too (k <= 8, some
// larger m), which stay on brgemm here (docs/testing.md).
// An AVX2 machine has no f32 brgemm in oneDNN 3.2: gemm already.
bool SmallShapeGemm(int64_t m, int64_t k, int64_t n) {
  static const bool avx512 = __builtin_cpu_supports("avx512f");
  return avx512 && n >= 2 && n <= 14528 &&
         ((k >= 9 && k <= 128 && m <= 768) || (k >= 16 && m <= 512 && m * k <= 49152));
}

// oneDNN's AVX2 sgemm reads a row-major b (k x n, not transposed) in place when its rows are 32-byte
// aligned and m is small (its "no-copy" kernel; XLA's buffers are always aligned), with a stride of n
// floats: at n = 512, 1024, 2048 (rows a multiple of 2 KiB apart) its loads fall into a few cache sets
// and the product runs at half speed (256 x 1024 by 1024 x 1024, Dense's input gradient in
// bench/dropout_step.py: 14-17 ms against 8 ms). Copying b into rows kRowPad floats longer first (a
// reorder, 0.3 ms there) gives the same kernel the same operands in the same order, so the same bits
// (checked against unpadded runs over 140 shapes, 1 and 2 threads); the copy pays from m = 64 on.
// Only on AVX2 machines without AVX-512 (where the AVX-512 gemm copies such operands itself).
constexpr int64_t kRowPad = 8;

bool PadWeightRows(int64_t m, int64_t n, bool tb) {
  return OnlyAvx2() && !tb && n % 512 == 0 && m >= 64;
}

// runs the plan's primitive (the caller holds the plan's mutex)
void Run(Plan& plan, void* a, void* b, void* out) {
  auto& eng = Engine();
  thread_local dnnl::stream stream(Engine());
  std::optional<CurrentThreads> threads;
  if (plan.threads > 0) threads.emplace(plan.threads);
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

// runs `body`, turning oneDNN's and other C++ exceptions into FFI errors
template <typename Body>
ffi::Error Guarded(Body body) {
  try {
    body();
  } catch (const dnnl::error& e) {
    return ffi::Error(ffi::ErrorCode::kInternal, std::string("oneDNN: ") + e.what());
  } catch (const std::exception& e) {
    return ffi::Error(ffi::ErrorCode::kInternal, e.what());
  }
  return ffi::Error::Success();
}

std::shared_ptr<Plan> MakeMatmulPlan(const Dims& a, const Dims& b, bool ta, bool tb) {
  using tag = dnnl::memory::format_tag;
  auto f32 = dnnl::memory::data_type::f32;
  Dims m_k = ta ? Dims{a[1], a[0]} : a, k_n = tb ? Dims{b[1], b[0]} : b;
  dnnl::memory::desc src(m_k, f32, ta ? tag::ba : tag::ab), wei(k_n, f32, tb ? tag::ba : tag::ab),
      dst({m_k[0], k_n[1]}, f32, tag::ab);
  // the primitive reads b from a copy with padded rows where that is faster (PadWeightRows)
  dnnl::memory::desc wei_in = PadWeightRows(m_k[0], k_n[1], tb)
                                  ? dnnl::memory::desc(k_n, f32, Dims{k_n[1] + kRowPad, 1}) : wei;
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  dnnl::matmul::primitive_desc pd(Engine(), src, wei_in, dst, attr);
  if (SmallShapeGemm(m_k[0], m_k[1], k_n[1])) {      // oneDNN's next implementation until its gemm
    bool gemm = false;
    while (!(gemm = std::strncmp(pd.impl_info_str(), "gemm", 4) == 0) && pd.next_impl()) {
    }
    if (!gemm) pd = dnnl::matmul::primitive_desc(Engine(), src, wei_in, dst, attr);
  }
  auto plan = std::make_shared<Plan>();
  plan->Bind(pd, dnnl::matmul(pd), src, src, DNNL_ARG_SRC, wei, wei_in, DNNL_ARG_WEIGHTS, dst, dst, DNNL_ARG_DST);
  plan->threads = MatmulThreads(m_k[0], m_k[1], k_n[1]);
  return plan;
}

std::shared_ptr<Plan> GetMatmulPlan(std::unique_lock<std::mutex>& lock, const Dims& a, const Dims& b, bool ta,
                                    bool tb) {
  std::string key = "mm|" + std::to_string(a[0]) + "," + std::to_string(a[1]) + "," + std::to_string(b[0]) + "," +
                    std::to_string(b[1]) + "," + std::to_string(ta) + std::to_string(tb);
  return Acquire(PlansOf(key), lock, [&] { return MakeMatmulPlan(a, b, ta, tb); });
}

// The handlers below return a future and run their pass as a task on XLA's intra-op pool (offload.h),
// so independent passes run at once; each pass on its own is the synchronous call, bit for bit.
using msjax_native::Failed;
using msjax_native::Offload;

ffi::Future Matmul(ffi::ThreadPool pool, ffi::Buffer<ffi::F32> a, ffi::Buffer<ffi::F32> b,
                   ffi::ResultBuffer<ffi::F32> out, int64_t transpose_a, int64_t transpose_b) {
  if (a.dimensions().size() != 2 || b.dimensions().size() != 2) {
    return Failed(ffi::Error(ffi::ErrorCode::kInvalidArgument, "msjax matmul: operands must be 2-D"));
  }
  Dims sa = Shape(a), sb = Shape(b);
  void *pa = a.untyped_data(), *pb = b.untyped_data(), *po = out->untyped_data();
  return Offload(pool, [=] {
    return Guarded([&] {
      std::unique_lock<std::mutex> lock;
      auto plan = GetMatmulPlan(lock, sa, sb, transpose_a != 0, transpose_b != 0);
      Run(*plan, pa, pb, po);
    });
  });
}

float FromBits(int32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// exp(x) = 2^n e^r as MindSpore's softmax evaluates it in its 8- and 4-lane vector blocks: n = x / ln2
// rounded to even, r = x - n ln2 (one fused multiply-add), a degree-5 Horner polynomial of fused
// multiply-adds
float ExpLane(float x) {
  const float ln2 = 0.693147f;
  x = std::max(-88.0f, std::min(x, 88.0f));
  int32_t n = static_cast<int32_t>(std::nearbyint(x / ln2));
  float r = std::fma(-static_cast<float>(n), ln2, x);
  float t = std::fma(r, std::fma(r, 1.0f / 120, 1.0f / 24), 1.0f / 6);
  t = std::fma(r, std::fma(r, t, 0.5f), 1.0f);
  return std::fma(r, t, 1.0f) * FromBits((n + 127) << 23);
}

// ... and in its scalar tail: n = floor(x log2(e) + 1/2), r and the polynomial contracted to fused
// multiply-adds, 2 * 2^(n-1) * p
float ExpTail(float x) {
  x = std::fmax(-87.3365478515625f, std::fmin(88.72283935546875f, x));
  int32_t n = static_cast<int32_t>(std::floor(std::fma(x, 1.44269504088896341f, 0.5f)));
  float r = std::fma(-static_cast<float>(n), 0.693147f, x);
  float p = std::fma(r, std::fma(r, std::fma(r, std::fma(r, std::fma(r, 1.0f / 120, 1.0f / 24), 1.0f / 6), 0.5f),
                                 1.0f), 1.0f);
  return 2.0f * FromBits((n + 126) << 23) * p;
}

// one row's softmax into dst: the exponentials of the 8-lane blocks summed lane-wise, then their lanes
// in order; one 4-lane block summed on its own and added; the scalar tail added one by one
void SoftmaxRow(const float* x, float* dst, int64_t c) {
  float mx = -3.402823466e+38f;
  for (int64_t j = 0; j < c; ++j) mx = std::max(mx, x[j]);
  float sum = 0.0f;
  int64_t j = 0;
  if (c >= 8) {
    float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (; j + 8 <= c; j += 8) {
      for (int k = 0; k < 8; ++k) {
        dst[j + k] = ExpLane(x[j + k] - mx);
        acc[k] += dst[j + k];
      }
    }
    float lanes = acc[0];
    for (int k = 1; k < 8; ++k) lanes += acc[k];
    sum += lanes;
  }
  if (j + 4 <= c) {
    float lanes = 0.0f;
    for (int k = 0; k < 4; ++k) {
      dst[j + k] = ExpLane(x[j + k] - mx);
      lanes = k == 0 ? dst[j] : lanes + dst[j + k];
    }
    sum += lanes;
    j += 4;
  }
  for (; j < c; ++j) {
    dst[j] = ExpTail(x[j] - mx);
    sum += dst[j];
  }
  float inv = 1.0f / sum;
  for (int64_t k = 0; k < c; ++k) dst[k] *= inv;
}

// the loss () or its gradient (B, C) of logits x (B, C) and labels t (B,) into o
void SparseSoftmaxXentRun(const float* x, const int32_t* t, int64_t b, int64_t c, int64_t is_grad, float* o) {
  std::vector<float> soft(static_cast<size_t>(b * c));
  for (int64_t i = 0; i < b; ++i) SoftmaxRow(x + i * c, soft.data() + i * c, c);
  if (is_grad) {
    float scale = static_cast<float>(1.0 / static_cast<double>(b));
    for (int64_t k = 0; k < b * c; ++k) o[k] = scale * soft[k];
    for (int64_t i = 0; i < b; ++i) {
      if (t[i] >= 0 && t[i] < c) o[i * c + t[i]] -= scale;
    }
    return;
  }
  float total = 0.0f;
  for (int64_t i = 0; i < b; ++i) {
    if (t[i] >= 0 && t[i] < c) total -= std::log(soft[i * c + t[i]]);
  }
  o[0] = total / static_cast<float>(b);
}

ffi::Error SparseSoftmaxXent(ffi::Buffer<ffi::F32> logits, ffi::Buffer<ffi::S32> labels,
                             ffi::ResultBuffer<ffi::F32> out, int64_t is_grad) {
  auto d = logits.dimensions();
  if (d.size() != 2 || labels.dimensions().size() != 1 || labels.dimensions()[0] != d[0]) {
    return ffi::Error(ffi::ErrorCode::kInvalidArgument, "msjax sparse softmax: logits (B, C), labels (B,)");
  }
  SparseSoftmaxXentRun(logits.typed_data(), labels.typed_data(), d[0], d[1], is_grad, out->typed_data());
  return ffi::Error::Success();
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
ffi::Future Convolution(ffi::ThreadPool pool, ffi::Buffer<ffi::F32> a, ffi::Buffer<ffi::F32> b,
                        ffi::ResultBuffer<ffi::F32> out, ffi::Span<const int64_t> stride,
                        ffi::Span<const int64_t> lo, ffi::Span<const int64_t> hi, ffi::Span<const int64_t> dil,
                        int64_t groups) {
  auto err = Check(a.dimensions().size(), stride, lo, hi, dil, groups);
  if (err.failure()) return Failed(std::move(err));
  Dims sa = Shape(a), sb = Shape(b), so = Shape(*out);
  Dims st = ToDims(stride), pl = ToDims(lo), ph = ToDims(hi), dl = ToDims(dil);
  void *pa = a.untyped_data(), *pb = b.untyped_data(), *po = out->untyped_data();
  return Offload(pool, [=] {
    return Guarded([&] {
      const Dims& x = P == kBackwardData ? so : sa;
      const Dims& w = P == kBackwardWeights ? so : sb;
      const Dims& y = P == kForward ? so : (P == kBackwardData ? sa : sb);
      std::unique_lock<std::mutex> lock;
      auto plan = GetPlan(lock, P, x, w, y, st, pl, ph, dl, groups);
      Run(*plan, pa, pb, po);
    });
  });
}

}  // namespace

extern "C" int MsjaxMatmulHost(void* a, int64_t a0, int64_t a1, void* b, int64_t b0, int64_t b1,
                               int64_t transpose_a, int64_t transpose_b, int64_t flush, void* out) {
  const unsigned int csr = _mm_getcsr();
  if (flush) _mm_setcsr(csr | 0x8040);     // FTZ (bit 15) and DAZ (bit 6)
  int status = 0;
  try {
    std::unique_lock<std::mutex> lock;
    auto plan = GetMatmulPlan(lock, Dims{a0, a1}, Dims{b0, b1}, transpose_a != 0, transpose_b != 0);
    Run(*plan, a, b, out);
  } catch (...) {
    status = 1;
  }
  _mm_setcsr(csr);
  return status;
}

extern "C" int MsjaxConvHost(int64_t pass, int64_t rank, void* a, const int64_t* sa, void* b, const int64_t* sb,
                             void* out, const int64_t* so, const int64_t* stride, const int64_t* lo,
                             const int64_t* hi, const int64_t* dil, int64_t groups, int64_t flush) {
  if (rank < 3 || rank > 5 || groups < 1 || pass < kForward || pass > kBackwardWeights) return 1;
  const unsigned int csr = _mm_getcsr();
  if (flush) _mm_setcsr(csr | 0x8040);
  int status = 0;
  try {
    const int64_t nd = rank - 2;
    Dims da(sa, sa + rank), db(sb, sb + rank), dout(so, so + rank);
    const Dims& x = pass == kBackwardData ? dout : da;
    const Dims& w = pass == kBackwardWeights ? dout : db;
    const Dims& y = pass == kForward ? dout : (pass == kBackwardData ? da : db);
    std::unique_lock<std::mutex> lock;
    auto plan = GetPlan(lock, static_cast<int>(pass), x, w, y, Dims(stride, stride + nd), Dims(lo, lo + nd),
                        Dims(hi, hi + nd), Dims(dil, dil + nd), groups);
    Run(*plan, a, b, out);
  } catch (...) {
    status = 1;
  }
  _mm_setcsr(csr);
  return status;
}

extern "C" int MsjaxSparseSoftmaxXentHost(const float* x, const int32_t* t, int64_t b, int64_t c, int64_t is_grad,
                                          int64_t flush, float* out) {
  const unsigned int csr = _mm_getcsr();
  if (flush) _mm_setcsr(csr | 0x8040);
  int status = 0;
  try {
    SparseSoftmaxXentRun(x, t, b, c, is_grad, out);
  } catch (...) {
    status = 1;
  }
  _mm_setcsr(csr);
  return status;
}

#define MSJAX_BIND                        \
  ffi::Ffi::Bind()                        \
      .Ctx<ffi::ThreadPool>()             \
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
XLA_FFI_DEFINE_HANDLER_SYMBOL(MsjaxMatmul, Matmul,
                              ffi::Ffi::Bind()
                                  .Ctx<ffi::ThreadPool>()
                                  .Arg<ffi::Buffer<ffi::F32>>()
                                  .Arg<ffi::Buffer<ffi::F32>>()
                                  .Ret<ffi::Buffer<ffi::F32>>()
                                  .Attr<int64_t>("transpose_a")
                                  .Attr<int64_t>("transpose_b"));
XLA_FFI_DEFINE_HANDLER_SYMBOL(MsjaxSparseSoftmaxXent, SparseSoftmaxXent,
                              ffi::Ffi::Bind()
                                  .Arg<ffi::Buffer<ffi::F32>>()
                                  .Arg<ffi::Buffer<ffi::S32>>()
                                  .Ret<ffi::Buffer<ffi::F32>>()
                                  .Attr<int64_t>("is_grad"));
