// Running an FFI handler's work as a task on XLA's intra-op thread pool (msjax's native kernels).
//
// XLA:CPU's thunk executor hands a ready thunk to another thread only when more than 8 are ready (its
// ExecuteSession split threshold, fixed in XLA), so synchronous custom calls kept a training step's
// independent passes (a convolution's input and weight gradients, GroupConv's branches, BatchNorm's
// channels) one after another on one thread while the second core idled. A handler that returns a
// pending future lets the executor go on with the next ready thunk while the pool runs this one, as
// MindSpore's CPU runtime runs independent kernels at once and splits a kernel over its threads. The
// tasks run under the MXCSR (FTZ/DAZ, rounding) of the thread that called the handler, so their
// arithmetic is the synchronous call's, bit for bit. Without a pool, Schedule runs a task in the caller.
#ifndef MSJAX_OPS_NATIVE_OFFLOAD_H_
#define MSJAX_OPS_NATIVE_OFFLOAD_H_

#include <xmmintrin.h>

#include <algorithm>
#include <cstdint>
#include <utility>

#include "xla/ffi/api/ffi.h"

namespace msjax_native {

namespace ffi = xla::ffi;

// `body(i)` (returning ffi::Error) for i in [0, parts) as pool tasks; the future completes when all ran
// (with the first error, if any).
template <typename Body>
ffi::Future OffloadParts(ffi::ThreadPool pool, int64_t parts, Body body) {
  ffi::CountDownPromise done(parts);
  ffi::Future future(done);
  const unsigned int csr = _mm_getcsr();
  for (int64_t i = 0; i < parts; ++i) {
    pool.Schedule([done, csr, body, i]() mutable {
      const unsigned int saved = _mm_getcsr();
      _mm_setcsr(csr);
      ffi::Error err = body(i);
      _mm_setcsr(saved);
      done.CountDown(std::move(err));
    });
  }
  return future;
}

// `body()` as one pool task
template <typename Body>
ffi::Future Offload(ffi::ThreadPool pool, Body body) {
  return OffloadParts(pool, 1, [body](int64_t) { return body(); });
}

inline ffi::Future Failed(ffi::Error err) {
  ffi::Promise promise;
  ffi::Future future(promise);
  promise.SetError(std::move(err));
  return future;
}

// how many parts to split `units` independent units of `work` elements in all over the pool's
// threads: one per thread, none smaller than `min_work` elements
inline int64_t Parts(const ffi::ThreadPool& pool, int64_t units, int64_t work, int64_t min_work) {
  const int64_t threads = std::max<int64_t>(1, pool.num_threads());
  return std::max<int64_t>(1, std::min({threads, units, work / std::max<int64_t>(1, min_work)}));
}

}  // namespace msjax_native

#endif  // MSJAX_OPS_NATIVE_OFFLOAD_H_
