"""PIJit's code records as msjax keeps them (``msjax/common/_pijit_records.py``; MindSpore's counts for a
function compiled whole are the golden case ``st_ops:pijit_code_records``): a bytecode-mode function msjax
ran uncompiled has no record (MindSpore would report its graph breaks), and a call traced inline into an
enclosing gradient is not a call of the function's own program."""
import numpy as np

import msjax as ms
from msjax._c_expression import get_code_extra


def test_function_run_uncompiled_has_no_record():
    def f(x):
        if x.sum() > 0:      # Python control flow on a Tensor value: msjax runs it uncompiled
            return x + 1
        return x - 1
    g = ms.jit(f, capture_mode="bytecode")
    np.testing.assert_array_equal(g(ms.Tensor([1.0, 2.0])).asnumpy(), [2.0, 3.0])
    np.testing.assert_array_equal(g(ms.Tensor([-1.0, -2.0])).asnumpy(), [-2.0, -3.0])
    assert get_code_extra(f) is None
    assert get_code_extra(g) is None     # a jit wrapper has its own code, as in MindSpore


def test_calls_inside_a_gradient_are_not_counted():
    def f(x):
        return x * x
    g = ms.jit(f, capture_mode="bytecode")
    x = ms.Tensor(np.array([1.0, 3.0], np.float32))
    g(x)
    g(x)
    np.testing.assert_allclose(ms.grad(g)(x).asnumpy(), [2.0, 6.0])
    record = get_code_extra(f)
    assert (record["stat"], record["break_count_"], record["compile_count_"]) == ("GRAPH_CALLABLE", 0, 1)
    assert record["code"]["call_count_"] == 2
