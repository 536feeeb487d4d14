"""Array ops that real MindSpore cannot record on CPU (kernels missing there: roll,
Tensor.repeat, Tensor.unique, nonzero(as_tuple=True), the float-status and
collective Primitives), checked against their documented semantics; and index
checks MindSpore makes at run time (a recorder process aborts on them)."""
import numpy as np
import pytest

import msjax as ms
from msjax import ops
from msjax.ops._impl.indexing import check_index

T = ms.Tensor


def test_roll():
    x = np.arange(12).reshape(3, 4)
    t = T(x)
    assert (ops.roll(t, 1).asnumpy() == np.roll(x, 1)).all()
    assert (ops.roll(t, 1, 0).asnumpy() == np.roll(x, 1, 0)).all()
    assert (ops.roll(t, (1, -1), (0, 1)).asnumpy() == np.roll(x, (1, -1), (0, 1))).all()
    assert (ops.Roll(2, 1)(t).asnumpy() == np.roll(x, 2, 1)).all()
    assert (t.roll(-1, 0).asnumpy() == np.roll(x, -1, 0)).all()
    g = ms.grad(lambda a: (ops.roll(a, 1, 1) * T(np.arange(12.0).reshape(3, 4).astype(np.float32))).sum())(
        T(np.ones((3, 4), np.float32)))
    assert (g.asnumpy() == np.roll(np.arange(12.0).reshape(3, 4), -1, 1)).all()
    with pytest.raises(ValueError):
        ops.roll(t, (1, 2), (0,))


def test_tensor_repeat_is_tile():
    x = T([[1, 2], [3, 4]])
    assert x.repeat(2, 1).asnumpy().tolist() == np.tile(x.asnumpy(), (2, 1)).tolist()
    assert x.repeat((1, 2)).shape == (2, 4)
    assert T([1, 2]).repeat(2, 2).shape == (2, 4)
    with pytest.raises(ValueError):
        x.repeat(2)


def test_tensor_unique_and_nonzero_tuple():
    x = T([3, 1, 3, 2])
    assert x.unique().asnumpy().tolist() == [1, 2, 3]
    out, inv, cnt = x.unique(return_inverse=True, return_counts=True)
    assert inv.dtype == ms.int64 and inv.asnumpy().tolist() == [2, 0, 2, 1]
    assert cnt.asnumpy().tolist() == [1, 1, 2]
    rows = T([[3, 1], [3, 1], [0, 2]]).unique(dim=0)
    assert rows.asnumpy().tolist() == [[0, 2], [3, 1]]
    r, c = ops.nonzero(T([[0, 1], [2, 0]]), as_tuple=True)
    assert r.dtype == ms.int64 and r.asnumpy().tolist() == [0, 1] and c.asnumpy().tolist() == [1, 0]


def test_float_status_and_npu_status():
    st = ops.NPUAllocFloatStatus()()
    assert st.dtype == ms.float32 and st.asnumpy().tolist() == [0.0] * 8
    assert ops.NPUGetFloatStatus()(st).asnumpy().tolist() == [0.0] * 8
    assert ops.NPUClearFloatStatus()(st).asnumpy().tolist() == [0.0] * 8
    fs = ops.FloatStatus()
    assert fs(T([1.0, np.inf])).asnumpy().tolist() == [1.0]
    assert fs(T([1.0, 2.0])).asnumpy().tolist() == [0.0]
    assert fs(T([1.0, np.nan], ms.float16)).dtype == ms.float32
    with pytest.raises(TypeError):
        fs(T([1, 2]))

    @ms.jit
    def overflow(x):
        return ops.FloatStatus()(x * 1e38)

    assert overflow(T([10.0])).asnumpy().tolist() == [1.0]
    assert ops.operations.FloatStatus is ops.FloatStatus


def test_allreduce_and_reduce_op():
    x = T([1.0, 2.0])
    assert ops.AllReduce()(x).asnumpy().tolist() == [1.0, 2.0]
    assert ops.AllReduce(ops.ReduceOp.MAX)(x).asnumpy().tolist() == [1.0, 2.0]
    assert (ops.ReduceOp.SUM, ops.ReduceOp.MAX, ops.ReduceOp.MIN, ops.ReduceOp.PROD) == ("sum", "max", "min", "prod")
    with pytest.raises(ValueError):
        ops.AllReduce("mean")
    g = ms.grad(lambda a: ops.AllReduce()(a * a).sum())(x)
    assert g.asnumpy().tolist() == [2.0, 4.0]


def test_custom_and_get_next_errors():
    with pytest.raises(NotImplementedError, match="func_type='aot'"):
        ops.Custom("./kernel.so:add", out_shape=[2], out_dtype=ms.float32, func_type="aot")
    with pytest.raises(RuntimeError, match="dataset sink mode"):
        ops.GetNext([ms.float32], [[2]], 1, "q")()


def test_custom_pyfunc_with_bprop_inside_grad():
    def bprop(x, out, dout):
        return (dout * 3,)

    triple = ops.Custom(lambda a: a * 3, out_shape=lambda s: s, out_dtype=lambda d: d, func_type="pyfunc",
                        bprop=bprop)
    g = ms.grad(lambda a: triple(a).sum())(T([1.0, 2.0]))
    assert g.asnumpy().tolist() == [3.0, 3.0]


def test_runtime_index_checks():
    a = T(np.arange(6.0).reshape(2, 3).astype(np.float32))
    with pytest.raises(RuntimeError):
        ops.gather(a, T([3, 0]), 1)
    with pytest.raises(RuntimeError):
        ops.index_select(a, 0, T([2]))
    with pytest.raises(RuntimeError):
        a[T([5])]
    # setting: MindSpore's errors (wired into Tensor.__setitem__ by the core)
    with pytest.raises(IndexError):
        check_index((3, 4), 5, setting=True)
    with pytest.raises(IndexError):
        check_index((3, 4), [0, 3], setting=True)
    with pytest.raises(ValueError):
        check_index((3, 4), T([0, 3]), setting=True)
    check_index((3, 4), (Ellipsis, 3), setting=True)
    with pytest.raises(IndexError):
        check_index((3, 4), (Ellipsis, 4))


def test_dynamic_shape_ops_inside_graph_cell(mode):
    class Net(ms.nn.Cell):
        def construct(self, x):
            return ops.masked_select(x, x > 1), ops.unique(x)[0]

    sel, uni = Net()(T([1.0, 2.0, 3.0, 2.0]))
    assert sel.asnumpy().tolist() == [2.0, 3.0, 2.0] and uni.asnumpy().tolist() == [1.0, 2.0, 3.0]


def test_vmap_of_random_and_parameters():
    net = ms.nn.Dense(3, 2)
    x = T(np.ones((5, 3), np.float32))
    out = ops.vmap(lambda v: net(ops.expand_dims(v, 0))[0])(x)
    assert np.allclose(out.asnumpy(), net(x).asnumpy(), atol=1e-6)


def test_scalar_to_array():
    # MindSpore 2.10's CPU build cannot infer ScalarToArray; the documented result is a 0-D Tensor
    assert ops.scalar_to_array(0.5).dtype == ms.float32 and ops.scalar_to_array(0.5).shape == ()
    assert ops.scalar_to_array(3).dtype == ms.int64
    with pytest.raises(TypeError):
        ops.scalar_to_array(T(1.0))


def test_tuple_to_array_takes_a_range():
    # MindSpore 2.10 (both modes): tuple_to_array(range(3)) is [0 1 2], Int32 (YOLOv3's grid)
    out = ops.tuple_to_array(range(2, 5))
    assert out.dtype == ms.int32 and out.asnumpy().tolist() == list(range(2, 5))


def test_tensor_clone_is_an_independent_copy():
    x = T(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))
    y = x.clone()
    assert y is not x and y.dtype == x.dtype and y.asnumpy().tolist() == x.asnumpy().tolist()
    y[0, 0] = 9.0
    assert x.asnumpy()[0, 0] == 1.0 and y.asnumpy()[0, 0] == 9.0
    g = ms.grad(lambda a: (a.clone() * a).sum())(x)
    np.testing.assert_array_equal(g.asnumpy(), 2 * x.asnumpy())


def test_asnumpy_of_64_bit_integers_is_long_long_as_in_mindspore():
    # MindSpore hands Int64/UInt64 data to NumPy as C long long ('q'/'Q'), which NumPy prints
    # with its dtype on Linux (``array([1, 2], dtype=int64)``); a C long ('l') prints bare.
    for dt, char in ((np.int64, "q"), (np.uint64, "Q")):
        t = T(np.array([1, 2], dt))
        for a in (t.asnumpy(), t.numpy(), np.asarray(t), np.array(t)):
            assert a.dtype.char == char and a.dtype == dt
        assert repr(t.asnumpy()) == f"array([1, 2], dtype={np.dtype(dt).name})"
    assert repr(T([1, 2]).asnumpy()) == "array([1, 2], dtype=int64)"
    assert repr(T(3, ms.int64).asnumpy()) == "array(3, dtype=int64)"
    assert T(np.array([1, 2], np.int32)).asnumpy().dtype.char == "i"
    again = T(T([1, 2]).asnumpy())                 # a longlong array goes back in as Int64
    assert again.dtype == ms.int64 and again.asnumpy().tolist() == [1, 2]


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_setitem_sequence_holding_traced_tensors(mode):
    """``x[i] = (1.0, t, 8.0)`` with ``t`` a Tensor traced by a gradient (tests/st/ops/dynamic_shape/
    test_dynamic_setitem.py's sequence values): one array of the items, its gradient by hand-written JAX.
    MindSpore's CPU build raises a RuntimeError on these nets ("Can not modify tensor id of input
    tensor"), so there is nothing to record."""
    import jax
    import jax.numpy as jnp

    class Net(ms.nn.Cell):
        def construct(self, x, t):
            x[2] = (1.0, t * 2, 8.0)
            x[0, 1:] = [t, t + 1]
            return x * x

    x0, t0 = np.arange(15, dtype=np.float32).reshape(5, 3), np.float32(5.0)

    def ref(x, t):
        x = x.at[2].set(jnp.stack([1.0, t * 2, 8.0])).at[0, 1:].set(jnp.stack([t, t + 1]))
        return (x * x).sum()

    old = ms.get_context("mode")
    ms.set_context(mode=mode)
    try:
        out = Net()(T(x0), T(t0))
        gx, gt = ops.GradOperation(get_all=True)(Net())(T(x0), T(t0))
    finally:
        ms.set_context(mode=old)
    x_ref = np.array(x0)
    x_ref[2] = (1.0, 10.0, 8.0)
    x_ref[0, 1:] = (5.0, 6.0)
    assert (out.asnumpy() == x_ref * x_ref).all()
    rx, rt = jax.grad(ref, (0, 1))(jnp.asarray(x0), jnp.asarray(t0))
    assert np.allclose(gx.asnumpy(), rx) and np.allclose(gt.asnumpy(), rt)


def test_embedding_lookup_gradient_sums_into_rows():
    """``EmbeddingLookup``'s gradient: the sensitivities summed into the rows read (rows outside the table
    get nothing), against hand-written JAX. MindSpore 2.10's PyNative returns the sensitivities unsummed,
    so it is not recorded."""
    import jax
    import jax.numpy as jnp
    p = np.arange(8, dtype=np.float32).reshape(4, 2)
    w = np.random.RandomState(0).rand(5, 2).astype(np.float32)
    idx = np.array([1, 1, 3, 5, 0], np.int32)
    got = ms.grad(lambda a: (ops.EmbeddingLookup()(a, T(idx), 1) * T(w)).sum())(T(p))

    def ref(a):
        rows = idx - 1
        inside = (rows >= 0) & (rows < 4)
        return (jnp.where(inside[:, None], a[jnp.where(inside, rows, 0)], 0) * w).sum()
    assert np.allclose(got.asnumpy(), jax.grad(ref)(jnp.asarray(p)))
    assert got.asnumpy()[0].tolist() == pytest.approx((w[0] + w[1]).tolist())
