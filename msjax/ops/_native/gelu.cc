// msjax's tanh-form GeLU kernel: MindSpore 2.10's CPU ``GeLU`` arithmetic as an XLA FFI custom-call target.
//
// MindSpore's CPU kernel (its element-wise "arithmetic self" kernels) computes, for float32 x,
//   t = tanhf(a * (x + ((b * x) * x) * x)),  y = (x * (1 + t)) / 2,  a = 0.7978845608f, b = 0.044715f,
// each step rounded to float (no fused multiply-adds: built with -ffp-contract=off), tanhf being the C
// library's (this process's libm, as MindSpore's). A float16 input is computed so in float32 and rounded
// once (the caller casts). Found by matching MindSpore 2.10's outputs bit for bit (every float16 value,
// 100,003 normal float32 draws; tests/test_gelu_bits.py).
//
// MsjaxGeluTanh (x) -> y, float32 of any shape.
#include <cmath>
#include <cstdint>

#include "xla/ffi/api/ffi.h"

namespace ffi = xla::ffi;

namespace {

ffi::Error GeluTanh(ffi::Buffer<ffi::F32> x, ffi::ResultBuffer<ffi::F32> y) {
  const float a = 0.7978845608f;
  const float b = 0.044715f;
  const float* in = x.typed_data();
  float* out = y->typed_data();
  const size_t n = x.element_count();
  for (size_t i = 0; i < n; ++i) {
    const float v = in[i];
    const float t = std::tanh(a * (v + b * v * v * v));
    out[i] = v * (1.0f + t) / 2.0f;
  }
  return ffi::Error::Success();
}

}  // namespace

XLA_FFI_DEFINE_HANDLER_SYMBOL(MsjaxGeluTanh, GeluTanh,
                              ffi::Ffi::Bind().Arg<ffi::Buffer<ffi::F32>>().Ret<ffi::Buffer<ffi::F32>>());
