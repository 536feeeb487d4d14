"""Golden cases for MindSpore's static-graph Python: the constructs of the code blocks in
MindSpore's compile tutorials (docs repo ``tutorials/source_en/compile/``: ``static_graph``,
``statements``, ``python_builtin_functions``, ``static_graph_expert_programming``; the
``operators`` page has no code), one case per block or per group of like blocks, written
anew (other values, same constructs). Recorded in GRAPH_MODE only::

    /tmp/ms/bin/python tests/golden/record_mindspore.py --suite graph_syntax --mode graph

and replayed in GRAPH_MODE by ``tests/test_graph_syntax.py``. Each case names its page
and block (``pb`` = python_builtin_functions, ``st`` = statements, ``sg`` = static_graph,
``ex`` = static_graph_expert_programming; the number is the block's order on its page).
Values MindSpore returns as Python objects that the serializer does not know (classes)
are compared as ``str``.
"""
import numpy as np


def _err(fn):
    """``fn()``'s result, or ``'<ExceptionType>'`` when it raises."""
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 - the type is the result
        return type(e).__name__


# --- python_builtin_functions ------------------------------------------------------------
def case_pb00_int(ms):
    @ms.jit
    def f(x):
        return int(7), int(-2.7), int('1f', 16), int('0x1b', 16), int('17', 8), int(x)
    return f(ms.Tensor([-5.0], ms.float32))


def case_pb01_float(ms):
    @ms.jit
    def f(x):
        return float(2), float(37), float('-7'), float(x.asnumpy())
    return f(ms.Tensor([-3], ms.int32))


def case_pb01_float_constant_rounding(ms):
    """``float(-123.6)`` returned alone from a graph: MindSpore's scalar constants are float32."""
    @ms.jit
    def f():
        return float(-45.3), 2.2
    return f()


def case_pb01_scalar_float32_arithmetic(ms):
    """MindSpore's graph computes Python float arithmetic in float32 (compared exactly, as
    ``repr``): operators, unary minus, comparisons, ``/`` of ints, ``sum``, ``+=``; an argument,
    ``float(x)``, ``abs``, ``round``, ``math`` and ``divmod`` keep float64; ints stay exact; a
    zero divisor raises ValueError. (An output holding a dict has all its floats in float32:
    docs/differences.md.)"""
    import math

    @ms.jit
    def f(a, b):
        c = a
        c += 0.7
        return (a, -a, a * 3, b / 7, a - 0.2 > 2.1, 2.1 == a - 0.2, a ** 2, a // 0.7, -a % 0.7,
                sum([a, 0.3]), c, float(a), abs(a - 0.0), round(a + 0.0, 2), math.sqrt(a), divmod(a, 0.7),
                b * 5, b ** -2, 1e39 * a, [a + 0.1])

    @ms.jit
    def g(a, d):
        return a / d
    return repr(f(2.3, 4)), [_err(lambda d=d: g(2.3, d)) for d in (0.0, 0)]


def case_sg_called_functions_read_as_graph(ms):
    """The functions, methods and Cells a graph calls are read as the graph is: a ``try`` in a
    helper is refused, ``has_key`` and float32 arithmetic work there; NumPy's functions run as
    Python (JIT Fallback)."""
    def with_try(x):
        try:
            x = x + 1
        except ValueError:
            pass
        return x

    def scaled(a):
        return a * 0.3, {"k": a}.has_key("k")

    class Inner(ms.nn.Cell):
        def construct(self, a):
            return a - 0.4, {"k": a}.has_key("j")

    class InnerTry(ms.nn.Cell):
        def construct(self, x):
            try:
                x = x + 1
            except ValueError:
                pass
            return x

    class Wrap(ms.nn.Cell):
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        @ms.jit
        def construct(self, x):
            return self.inner(x) * 2

    class Net(ms.nn.Cell):
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def negate(self, a):
            return -a

        @ms.jit
        def construct(self, a):
            return self.negate(a), scaled(a), np.mean([a, 0.2]), self.inner(a)

    @ms.jit
    def refused(x):
        return with_try(x)
    return (repr(Net(Inner())(1.7)), _err(lambda: refused(ms.Tensor([1.0]))),
            _err(lambda: Wrap(InnerTry())(ms.Tensor([1.0]))))


def case_pb02_bool(ms):
    @ms.jit
    def f():
        return bool(), bool(1), bool(""), bool([0]), bool(ms.Tensor([0]).asnumpy())
    return f()


def case_pb03_str(ms):
    @ms.jit
    def f():
        return str(), str(7), str([3, 4]), str(np.array([5, 6]))
    return f()


def case_pb03_str_of_constant_tensor(ms):
    @ms.jit
    def f():
        return str(ms.Tensor([42]))
    return f()


def case_pb04_tuple(ms):
    @ms.jit
    def f():
        return tuple([4, 5]), tuple(np.array([7, 8, 9])), tuple({'p': 1, 'q': 2})
    return f()


def case_pb04_tuple_of_constant_tensor(ms):
    @ms.jit
    def f():
        return tuple(ms.Tensor([4, 5, 6]))
    return f()


def case_pb05_list(ms):
    @ms.jit
    def f():
        return list((4, 5)), list(np.array([7, 8])), list({'p': 1, 'q': 2}), list(ms.Tensor([3, 4]))
    return f()


def case_pb06_dict(ms):
    @ms.jit
    def f():
        return dict(), dict(u='x', v='y'), dict(zip(['k', 'l'], [5, 6])), dict([('m', 7), ('n', 8)])
    return f()


def case_pb07_getattr_hasattr(ms):
    @ms.jit_class
    class Holder:
        def __init__(self):
            self.val = 4
    h = Holder()

    @ms.jit
    def f(x):
        return (getattr(h, 'val'), getattr(h, 'missing', 9), getattr(x.asnumpy(), "shape", 0),
                hasattr(h, 'val'), hasattr(h, 'missing'), hasattr(x.asnumpy(), "__len__"))
    return f(ms.Tensor([1.0, 2.0], ms.float32))


def case_pb09_len_isinstance(ms):
    z = ms.Tensor(np.ones((5, 2)))

    @ms.jit
    def f(w):
        return (len((1, 2)), len([1, 2, 3, 4]), len({"a": 1}), len(z), len(np.array([1, 2, 3])), len(w.asnumpy()),
                isinstance((1,), tuple), isinstance([1], list), isinstance(z, ms.Tensor),
                isinstance(w.asnumpy(), np.ndarray))
    return f(ms.Tensor([4, 5, 6]))


def case_pb11_all_any(ms):
    @ms.jit
    def f():
        x = ms.Tensor(np.array([1, 0, 1]))
        return (all(['x', '']), all((1, 2)), all([]), all(x.asnumpy()),
                any(['', 0]), any((0, 3)), any(()), any(x.asnumpy()))
    return f()


def case_pb13_round(ms):
    @ms.jit
    def f():
        return round(7), round(7.49), round(7.51), round(8, 0), round(25.3, -1), round(3.14159, 2)
    return f()


def case_pb14_max_min(ms):
    @ms.jit
    def f():
        return (max([4, 9, 2]), max({5: 1, 7: 0}), ms.Tensor(max(np.array([3, 8]))), max(('x', 'z')),
                max((2, 5), (2, 9, 1)), max(ms.Tensor([6, 1, 3])),
                min([4, 9, 2]), min(('x', 'z')), min((2, 5), (2, 9, 1)), min(ms.Tensor([6, 1, 3])))
    return f()


def case_pb16_sum_abs(ms):
    @ms.jit
    def f():
        t = ms.Tensor([[2, 3], [4, 5]])
        return (sum([3, 4]), sum((1, 2), 20), ms.Tensor(sum(np.array([2, 3]))), sum(ms.Tensor([2, 3]), 5),
                sum(t), sum([2, t, t], ms.Tensor([[1, 0], [0, 1]])), abs(-7), abs(ms.Tensor([-3, 4]).asnumpy()))
    return f()


def _plus(a, b):
    return a + b


def case_pb18_map(ms):
    @ms.jit
    def f():
        return map(_plus, (2, 3), (10, 20)), map(_plus, [1, 1], [5, 6])
    return f()


def case_pb18_map_of_tensors(ms):
    @ms.jit
    def f(x):
        return map(lambda a: a * 3, (x, x + 1))
    return f(ms.Tensor([1.0, 2.0]))


def case_pb18_map_mixed_sequences(ms):
    """A ``map`` over a tuple and a list together: MindSpore refuses (RuntimeError)."""
    @ms.jit
    def f():
        return map(_plus, (2, 3), [10, 20])
    return f()


def case_pb19_zip(ms):
    @ms.jit
    def f(x):
        return zip((7, 8), (9, 10)), zip([1], ['a']), zip((x, x), (1, 2))
    return f(ms.Tensor([3.0]))


def case_pb20_range(ms):
    @ms.jit
    def f():
        return range(1, 9, 3), range(4), range(5, 2, -1)
    return f()


def case_pb21_enumerate(ms):
    y = ms.Tensor(np.array([[7, 8], [9, 10]]))

    @ms.jit
    def f():
        return enumerate((50, 60), 2), enumerate(y), enumerate(['u'])
    return f()


def case_pb22_super(ms):
    class Base(ms.nn.Cell):
        def __init__(self, k):
            super().__init__()
            self.k = k

        def construct(self, x, y):
            return self.k * x

        def extra(self, x):
            return self.k - x

    class Child(Base):
        @ms.jit
        def construct(self, x, y):
            return super().construct(x, y), super(Child, self).extra(y)
    return Child(4)(5, 2)


def case_pb23_pow(ms):
    @ms.jit
    def f(x, y):
        return pow(x, y), pow(3, 2)
    return f(ms.Tensor(np.array([2, 3])), ms.Tensor(np.array([3, 2])))


def _odd(v):
    return v % 2 == 1


def case_pb25_filter(ms):
    @ms.jit
    def f():
        return filter(_odd, (2, 3, 5, 8)), filter(_odd, [11, 12, 13])
    return f()


def case_pb26_type(ms):
    @ms.jit
    def f():
        return type(2), type(2.5), type([2]), type((2,)), type({'k': 2}), type(np.array([2]))
    return [str(t) for t in f()]


def case_pb26_type_of_tensor(ms):
    """``type(tensor)`` in a graph and outside, and the classes, print MindSpore's paths."""
    @ms.jit
    def f(x):
        return type(x), type(x * 2)
    return [str(t) for t in f(ms.Tensor(1.5))] + [str(type(ms.Tensor(2))), str(ms.Tensor), str(ms.Parameter)]


def case_pb_iter_generator(ms):
    """What MindSpore's graph returns for ``iter(...)`` objects and generator expressions."""
    @ms.jit
    def f():
        return iter((3, 4)), iter([5, 6]), (v + 1 for v in range(3))
    return f()


def case_pb_numpy_values(ms):
    """NumPy scalars come back as Python numbers, NumPy arrays as NumPy arrays."""
    @ms.jit
    def f():
        return np.int64(6), np.float32(1.5), np.array([4, 5])
    r = f()
    return r[0], r[1], type(r[2]).__name__, r[2]


# --- statements ----------------------------------------------------------------------------
def _raising_net(ms):
    class Net(ms.nn.Cell):
        @ms.jit
        def construct(self, x, y):
            if x <= y:
                raise ValueError("x must exceed y")
            return x + 1
    return Net()


def case_st00_raise(ms):
    return _raising_net(ms)(ms.Tensor(-4), ms.Tensor(-3))


def case_st00_raise_not_taken(ms):
    """(A fresh graph: after a raise, MindSpore's CPU build fails the next call of the same one.)"""
    return _raising_net(ms)(ms.Tensor(5), ms.Tensor(1))


def case_st01_assert(ms):
    class Net(ms.nn.Cell):
        @ms.jit
        def construct(self, x):
            assert x in [5, 6]
            return x
    return _err(lambda: Net()(ms.Tensor(-2)))


def case_st02_while_if_pass(ms):
    class Net(ms.nn.Cell):
        @ms.jit
        def construct(self, x):
            i = 0
            while i < 4:
                if i > 2:
                    pass
                else:
                    x = x * 2.5
                i += 1
            return x
    return Net()(4)


def case_st03_return_branches(ms):
    class Net(ms.nn.Cell):
        @ms.jit
        def construct(self, x):
            if x > 0:
                return x
            return 0
    return Net()(7), Net()(-7)


def case_st04_no_return(ms):
    @ms.jit
    def f():
        y = 5
        y = y + 1
    return f()


def case_st05_break_continue(ms):
    class Brk(ms.nn.Cell):
        @ms.jit
        def construct(self, x):
            for i in range(6):
                if i > 3:
                    x *= 5
                    break
                x = x * 2
            return x

    class Cont(ms.nn.Cell):
        @ms.jit
        def construct(self, x):
            for i in range(5):
                if i > 1:
                    x *= 2
                    continue
            return x
    return Brk()(3), Cont()(2)


def case_st07_if_tensor_condition(ms):
    x, y = ms.Tensor([2, 5], ms.int32), ms.Tensor([1, 6], ms.int32)
    m, n = 7, 8

    @ms.jit
    def ret_in_branches(x, y):
        if (x > y).any():
            return m
        return n

    @ms.jit
    def assign_in_branches(x, y):
        out = 0
        if (x > y).all():
            out = m
        else:
            out = n
        return out

    @ms.jit
    def assign_in_one_branch(x, y):
        out = 4
        if (x > y).any():
            out = m
        return out
    return ret_in_branches(x, y), assign_in_branches(x, y), assign_in_one_branch(x, y)


_GLOBAL_Z = None


def case_st10_augassign_global_in_loop(ms):
    """``z += i`` on a global Tensor inside a graph: MindSpore reads the global (Python: UnboundLocalError)."""
    global _GLOBAL_Z
    _GLOBAL_Z = ms.Tensor(np.ones((2, 2)))

    @ms.jit
    def f():
        for i in (2, 3):
            _GLOBAL_Z += i  # noqa: F823
        return _GLOBAL_Z
    return f()


def case_st11_while(ms):
    @ms.jit
    def ret_in_while(x, y):
        while x < y:
            x += 1
            return 3
        return 4

    def plus(a, b):
        return a + b

    @ms.jit
    def accumulate(x, y):
        out = 2
        while x < y:
            x += 1
            out = plus(out, x)
        return out
    return ret_in_while(2, 6), ret_in_while(6, 2), accumulate(2, 6)


def case_st13_function_lambda_partial(ms):
    def mul(a, b):
        return a * b

    @ms.jit
    def f(x, y):
        sub = lambda a, b: a - b  # noqa: E731
        part = ms.ops.partial(mul, a=3)
        return mul(x, y), sub(x, y), part(b=4), part(b=x)
    return f(6, 2)


def case_st16_comprehensions(ms):
    @ms.jit
    def f():
        sq = [v * v for v in range(1, 8) if v % 3 == 0]
        pairs = [('p', 4), ('q', 1), ('r', 6)]
        d = {k: v for (k, v) in pairs if v > 2}
        return sq, d
    return f()


def case_st17_nested_comprehension(ms):
    """Two ``for`` clauses in one comprehension: MindSpore's graph refuses (TypeError)."""
    @ms.jit
    def f():
        return [b for a in ((1, 2), (3, 4)) for b in a]
    return f()


def case_st21_with(ms):
    @ms.jit_class
    class Ctx:
        def __init__(self):
            self.num = ms.Tensor([3])

        def __enter__(self):
            return self.num * 5

        def __exit__(self, exc_type, exc_value, traceback):
            return self.num * 4

    class Net(ms.nn.Cell):
        @ms.jit
        def construct(self):
            res = 2
            obj = Ctx()
            with obj as val:
                res += val
            return res, obj.num
    return Net()()


# --- static_graph_expert_programming -------------------------------------------------------
def case_ex08_jit_class_attributes(ms):
    @ms.jit_class
    class Inner:
        value = ms.Tensor(np.array([4, 5]))

    @ms.jit_class
    class Scaled:
        def __init__(self, k):
            self.k = k + 1

        def act(self, x, y):
            return self.k * (x - y)

        def __call__(self, x, y):
            return self.k * (x + y)

    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.s = Scaled(2)

        def construct(self, x, y):
            local = Scaled(4)
            return Inner().value, self.s.k + self.s.act(x, y), local(x, y), local.k
    return Net()(ms.Tensor(7, ms.int32), ms.Tensor(2, ms.int32))


def case_ex09_jit_class_on_cell(ms):
    def make():
        @ms.jit_class
        class Net(ms.nn.Cell):
            def construct(self, x):
                return x
        return Net
    return _err(make)


def case_ex14_jit_class_object_not_callable(ms):
    @ms.jit_class
    class Plain:
        def __init__(self, k):
            self.k = k

    class Net(ms.nn.Cell):
        def construct(self, x, y):
            return Plain(2)(x, y)
    return Net()(ms.Tensor(1, ms.int32), ms.Tensor(2, ms.int32))


def case_ex15_if_vs_select(ms):
    @ms.jit
    def if_net(x, y):
        out = 0
        for _ in range(6):
            if x < y:
                x = x - y
            else:
                x = x + y
            out = out + x
        return out

    @ms.jit
    def select_net(x, y):
        out = x
        for _ in range(6):
            x = ms.ops.select(x < y, x - y, x + y)
            out = out + x
        return out
    return if_net(ms.Tensor([1]), ms.Tensor([2])), select_net(ms.Tensor([1]), ms.Tensor([2]))


def case_ex16_vmap_vs_loop(ms):
    def hswish(x):
        return ms.ops.HSwish()(x)

    @ms.jit
    def looped(xs):
        return ms.ops.stack([hswish(xs[i]) for i in range(xs.shape[0])])
    x = ms.Tensor(np.linspace(-4, 4, 12, dtype=np.float32).reshape(6, 2))
    return ms.vmap(hswish, in_axes=(0,))(x), looped(x)


def case_ex20_assign_in_while_grad(ms):
    class Fwd(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor(np.array(0), ms.int32), name="w")

        def construct(self, x):
            out = 0
            i = 0
            while i < 4:
                ms.ops.assign(self.w, i)
                out = x * self.w + out
                i = i + 1
            return out

    class Bwd(ms.nn.Cell):
        def __init__(self, net):
            super().__init__(auto_prefix=False)
            self.net = net
            self.grad = ms.ops.GradOperation(get_all=True)

        def construct(self, *inputs):
            return self.grad(self.net)(*inputs)
    return Bwd(Fwd())(ms.Tensor(np.array(2), ms.int32))


# --- static_graph --------------------------------------------------------------------------
def case_sg_dict_methods(ms):
    x = {"p": ms.Tensor(np.array([1, 2])), "q": ms.Tensor(np.array([3, 4]))}

    @ms.jit
    def f():
        keys = x.keys()
        values = x.values()
        items = x.items()
        got = x.get("p")
        y = x.copy()
        y.update({"p": 5})
        new = dict.fromkeys(["s", "t"], 7)
        return keys, values, items, got, y, new
    return f()


def case_sg_dict_output_floats(ms):
    """A tuple output holding a dict (at any depth) gives its own float items in float32, an
    argument returned as is too; floats inside the dict and nested tuples stay float64 (compared
    exactly, as ``repr``). Lists holding a dict are left out: MindSpore rounds some of their
    floats (an argument) and not others (a constant)."""
    @ms.jit
    def f(a, x):
        return 2.3, {"k": a}, (a, 2), x * 2, a

    @ms.jit
    def g(a):
        return ({"k": 1},), a + 0.4
    return repr(f(0.7, ms.Tensor(1.0))[:3] + f(0.7, ms.Tensor(1.0))[4:]), repr(g(0.9))


def case_sg_dict_has_key(ms):
    x = {"p": 1}

    @ms.jit
    def f():
        return x.has_key("p"), x.has_key("z")
    return f()


def case_sg_dict_views_then_update(ms):
    """A dict's ``keys()``/``values()``/``items()`` taken before ``update`` of the same dict."""
    x = {"p": ms.Tensor(np.array([1, 2])), "q": 3}

    @ms.jit
    def f():
        keys, values, items = x.keys(), x.values(), x.items()
        x.update({"p": ms.Tensor(np.array([0, 0])), "r": 4})
        return keys, values, items, x.has_key("r")
    return f()


def case_st10_augassign_global_in_cell(ms):
    """A global read and assigned in a Cell's ``construct`` that also calls ``super()`` and
    a function from its closure."""
    global _GLOBAL_Z
    _GLOBAL_Z = ms.Tensor(np.array([1.0, 2.0], np.float32))

    def twice(v):
        return v * 2

    class Base(ms.nn.Cell):
        def shift(self, v):
            return v + 10

    class Net(Base):
        @ms.jit
        def construct(self, x):
            _GLOBAL_Z = twice(_GLOBAL_Z) + x  # noqa: F823
            return super().shift(_GLOBAL_Z)
    return Net()(ms.Tensor(np.array([1.0, 1.0], np.float32))), _GLOBAL_Z


def case_sg_graph_mode_cell_syntax(ms):
    """The same reading of a GRAPH_MODE Cell's ``construct`` without ``ms.jit``: ``has_key``, a
    global read then assigned, and ``try`` refused."""
    global _GLOBAL_Z
    _GLOBAL_Z = ms.Tensor(np.array([2.0], np.float32))
    table = {"k": 1}

    class Reads(ms.nn.Cell):
        def construct(self, x):
            _GLOBAL_Z += x  # noqa: F823
            return table.has_key("k"), _GLOBAL_Z

    class Tries(ms.nn.Cell):
        def construct(self, x):
            try:
                return x / 0
            except ZeroDivisionError:
                return x
    return Reads()(ms.Tensor(np.array([3.0], np.float32))), _err(lambda: Tries()(ms.Tensor(np.array([1.0]))))


def case_sg27_set_parameter_attr(ms):
    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.weight = ms.Parameter(ms.Tensor(5, ms.float32), name="w")

        @ms.jit
        def construct(self, x, y):
            self.weight = x
            return x, self.weight
    net = Net()
    return net(4, 1), net.weight.asnumpy().tolist(), net(ms.Tensor(6.0), 1), net.weight.asnumpy().tolist()


def case_sg29_grad_in_jit_int_inputs(ms):
    class Net(ms.nn.Cell):
        def construct(self, x, y, z):
            return x * y + z

    class GradNet(ms.nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net = net

        @ms.jit
        def construct(self, x, y, z):
            return ms.grad(self.net, grad_position=(0, 1, 2))(x, y, z)
    return GradNet(Net())(ms.Tensor([2]), 3, ms.Tensor([4]))


def case_sg29_int_grads_cast_to_input_dtype(ms):
    """Gradients of Int/Bool inputs in a graph have the input's dtype, truncated (MindSpore's
    backward casts): through a float scalar, a Cast, a reduction and a float Tensor."""
    def through_float(x, y, b):
        return x * 2.5 + (y.astype(ms.float32) * 1.7).sum() + b * ms.Tensor([2.5, -0.5])

    @ms.jit
    def g(x, y, b):
        return ms.grad(through_float, grad_position=(0, 1, 2))(x, y, b)
    grads = ms.grad(through_float, grad_position=(0, 1, 2))
    args = ms.Tensor([3, -4], ms.int32), ms.Tensor([5, 7], ms.int64), ms.Tensor([True, False])
    return g(*args), grads(*args)


def case_sg51_outside_list_returned_as_itself(ms):
    """A list from outside the graph changed in place and returned is that very list."""
    lst = [4, 5, 6]

    @ms.jit
    def f(x):
        lst.reverse()
        lst.insert(0, 9)
        return lst, x * 2
    out = f(ms.Tensor(2))
    return out[0] is lst, out[0], lst


def case_sg32_inplace_add_grad(ms):
    class Net(ms.nn.Cell):
        def construct(self, x, y):
            x.add_(y)
            return x
    net = Net()
    net.construct = ms.jit(net.construct)
    x, y = ms.Tensor(4, dtype=ms.int32), ms.Tensor(6, dtype=ms.int32)
    return net(x, y), ms.grad(net)(x, y)


def case_sg34_view_then_assign(ms):
    class ViewAssign(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.transpose = ms.ops.operations.TransposeView()
            self.assign = ms.ops.operations.Assign()

        @ms.jit
        def construct(self, x):
            x = self.transpose(x, (1, 0))
            self.assign(x, x + 5)
            return x * 2
    return ViewAssign()(ms.Tensor(np.array([[1, 2, 3], [4, 5, 6]]), ms.int32))


def _view_write(ms, perm, prim, x):
    class ViewWrite(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.transpose = ms.ops.operations.TransposeView()
            self.write = getattr(ms.ops.operations, prim)()

        @ms.jit
        def construct(self, x):
            x = self.transpose(x, perm)
            self.write(x, x * 3)
            return x - 1
    return ViewWrite()(ms.Tensor(x, ms.int32))


def case_sg34_contiguous_views_written(ms):
    """The page's block: a view that keeps the memory order (the identity permutation, or one
    that only moves axes of size 1) is written by ``Assign``/``AssignAdd``; a permuted one is not."""
    x3 = np.arange(24).reshape(2, 3, 4) - 7
    return (_view_write(ms, (0, 1, 2), "Assign", x3), _view_write(ms, (1, 0, 2), "AssignAdd", x3[:1]),
            _err(lambda: _view_write(ms, (0, 2, 1), "AssignSub", x3)))


def case_sg_cast_dtype_argument(ms):
    """``ops.cast`` takes MindSpore dtypes only (TypeError for a name or a Python/NumPy type)."""
    @ms.jit
    def f(x, d):
        return ms.ops.cast(x, d)
    x = ms.Tensor([2.5])
    return [_err(lambda d=d: f(x, d)) for d in ("int", int, np.float32, ms.int32)]


def case_sg39_missing_attribute(ms):
    class Net(ms.nn.Cell):
        @ms.jit
        def construct(self, x):
            return x + self.nothing
    return Net()(3)


def case_sg40_classmethod_call(ms):
    class Net(ms.nn.Cell):
        @classmethod
        def func(cls, x, y):
            return x + y

        @ms.jit
        def construct(self, x, y):
            return self.func(x, y)
    return Net()(ms.Tensor(4), ms.Tensor(5))


def case_sg41_try(ms):
    @ms.jit
    def f(x, y):
        try:
            out = x / y
        except ZeroDivisionError:
            out = -1
        return out
    return f(6, 0)


def case_sg_refused_constructs(ms):
    """static_graph's list of unsupported keywords: each refused when the graph is compiled."""
    @ms.jit
    def deletes(x):
        y = x + 1
        del y
        return x

    @ms.jit
    def imports(x):
        import math
        return x * math.e

    @ms.jit
    def walrus(x):
        if (n := 3) > 2:
            return x + n
        return x

    @ms.jit
    def set_display(x):
        return x + len({1, 2, 2})

    @ms.jit
    def dict_two_fors(x):
        return x + len({a: b for a in (1, 2) for b in (3, 4)})
    return tuple(_err(lambda: f(ms.Tensor([1.0]))) for f in (deletes, imports, walrus, set_display, dict_two_fors))


def case_sg_fallback_numpy(ms):
    @ms.jit
    def f():
        a = np.array([2, 4, 6])
        b = np.array([1, 1, 1])
        return ms.Tensor(a - b)
    return f()


def case_sg_fallback_custom_class(ms):
    class Box:
        def __init__(self):
            self.v = 40

        def bump(self):
            return self.v + 2

    box = Box()

    @ms.jit
    def f():
        return box.v, box.bump()
    return f()


def case_sg_list_inplace_methods(ms):
    @ms.jit
    def f():
        a = [1, 2]
        a.extend([3, 4])
        a.insert(0, 9)
        a.reverse()
        p = a.pop()
        return a, p
    return f()


def case_sg_return_dict(ms):
    @ms.jit
    def f(x):
        return {"w": x * 2, "v": 3}
    return f(ms.Tensor([1.5]))


def case_sg_none_default_and_return(ms):
    @ms.jit
    def f(x, y=None):
        if y is None:
            return x, None
        return x + y, y
    return f(ms.Tensor([1])), f(ms.Tensor([1]), ms.Tensor([2]))


def case_sg67_cell_attr_set_in_jit(ms):
    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.attr = ms.Tensor([0, 0, 0], ms.int32)

        @ms.jit
        def construct(self, x):
            self.attr = x + 2
            return self.attr
    net = Net()
    ret = net(ms.Tensor([1, 3, 5], ms.int32))
    return ret, str(net.attr)


def case_sg_constant_numpy_ops(ms):
    @ms.jit
    def f():
        x = np.array([[1, 2], [3, 4]])
        return ms.Tensor(x.sum(axis=0)), x.shape, int(x.max())
    return f()


# --- MindSpore's own tests/st/compiler (graph_syntax, syntax, ...) ---------------------------
def case_stc_invert_is_logical_not(ms):
    """``~`` on a Tensor is LogicalNot on every dtype (Bool results), in a graph as outside it."""
    T = ms.Tensor

    @ms.jit
    def f(a, b, c, d):
        return ~a, ~b, ~c, ~d

    return f(T([1, 2, 0, -4]), T([1, 0, -3], ms.int32), T([1, 0], ms.uint8), T([1.5, 0.0], ms.float16)), ~T([3, 0])


def case_stc_builtin_round(ms):
    """``round(tensor)`` is ``ops.round`` (half to even); a graph also takes ``round(tensor, 0)`` and
    refuses other ``ndigits`` (RuntimeError); outside a graph any ``ndigits`` is a TypeError."""
    T = ms.Tensor

    @ms.jit
    def f(x, i):
        return round(x), round(x, 0), round(i)

    @ms.jit
    def g(x):
        return round(x, 1)

    x = T([0.5, 1.5, 2.5, -0.5, 4.51, -2.675], ms.float32)
    return (f(x, T([3, -4], ms.int32)), round(x), _err(lambda: g(x)), _err(lambda: round(x, 0)))


def case_stc_namedtuple_returned(ms):
    """A namedtuple a graph returns stays that namedtuple (made inside the graph or outside it,
    nested in a tuple or a list)."""
    from collections import namedtuple
    Point = namedtuple("Point", "x, y")

    @ms.jit
    def f(x, y):
        inner = namedtuple("Pair", "first, second")
        return Point(x + y, x - y), inner(1, 2.5), [Point(3, x)]

    class Params(ms.nn.Cell):     # another tuple subclass (ParameterTuple) comes back a tuple
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor([1.0]), name="w")
            self.pt = ms.ParameterTuple([self.w])

        def construct(self, x):
            return self.pt

    out = f(ms.Tensor([1, 2, 3]), ms.Tensor([1.0, 1.0, 1.0]))
    params = Params()(ms.Tensor([2.0]))
    return (out, [type(o).__name__ for o in (out[0], out[1], out[2][0], params)], out[0].y, out[1].second,
            [p.asnumpy() for p in params])


def case_stc_annotated_assignments(ms):
    """Annotated assignments, one without a value (``y: float``), in a Cell's construct."""
    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.m = 1

        def construct(self, z):
            x: int = 1
            y: float  # noqa: F842
            self.m: int = 2
            return self.m + x + z

    return Net()(ms.Tensor([4], ms.int32))


def _grad_net(ms, net, **kw):
    class Grad(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.net, self.grad = net, ms.ops.GradOperation(**kw)

        def construct(self, *a):
            return self.grad(self.net)(*a)
    return Grad()


def case_stc_mutable_inputs_gradients(ms):
    """``mutable`` marks its input (``__ms_mutable__``, ``__ms_origin_object__``); a gradient
    differentiates a marked tuple/list/dict of Tensors as one input (gradients nested alike) where a
    plain tuple gives ``()``; a marked number's gradient is a zero of its type."""
    T, mutable = ms.Tensor, ms.mutable

    class Mul(ms.nn.Cell):
        def construct(self, x, y):
            return x * y

    class Seq(ms.nn.Cell):
        def construct(self, t):
            return t[0] * t[1] + t[0]

    a, b = T([1.0, 2.0]), T([3.0, 4.0])
    marks = [(type(m).__name__, m.__ms_mutable__, m.__ms_origin_object__ is v)
             for v in ((a, b), [a], {"k": a}) for m in [mutable(v)]]
    return (marks, _grad_net(ms, Mul())(mutable(2), 3), _grad_net(ms, Mul(), get_all=True)(mutable(2), 3),
            _grad_net(ms, Mul(), get_all=True)(mutable(2.5), T([3.0])),
            _grad_net(ms, Seq())((a, b)), _grad_net(ms, Seq())(mutable((a, b))),
            _grad_net(ms, Seq())(mutable([a, b])), _grad_net(ms, Seq())(mutable({0: a, 1: b})),
            _grad_net(ms, Seq(), get_all=True)(mutable((a, b))), ms.grad(Seq())(mutable((a, b))))


def case_stc_tensor_truth_and_membership(ms):
    """A graph asks a Tensor's truth only of shape () or (1,) (MindSpore's ValueError names the shape);
    ``tensor in seq`` is a Bool Tensor: whether an item of its shape equals it everywhere."""
    T = ms.Tensor

    @ms.jit
    def truth(a):
        return not a

    @ms.jit
    def member(a, b):
        return a in b, a not in b

    x, y = T(np.ones([2, 2], np.int32)), T(np.zeros([2, 2], np.int32))
    z = T(np.array([[1, 0], [1, 1]], np.int32))
    errors = [_err(lambda v=v: truth(T(np.ones(v, np.float32)))) for v in ([2, 2], [3], [1, 1], [0])]
    return (errors, truth(T([0.0])), truth(T(2.0)), member(x, [x, y]), member(T(np.ones([2, 2], np.int32)), (y, x)),
            member(z, [x, y]), member(T(1), [T(1), T(2)]), member(x, [T([1, 1]), y]))


def case_stc_inplace_add_sub_ext(ms):
    """``gen_ops_prim.InplaceAddExt``/``InplaceSubExt`` in a graph: the input written (``alpha`` too) and
    read after, on a local Tensor and on an input."""
    from importlib import import_module
    prims = import_module(ms.__name__ + ".ops.auto_generate.gen_ops_prim")
    add, sub = prims.InplaceAddExt(), prims.InplaceSubExt()

    @ms.jit
    def f(x, y):
        z = ms.ops.zeros_like(x)
        add(z, y + 2)
        sub(x, y, 3)
        return z + 1, x * 2, add(y, x, 2)

    return f(ms.Tensor([1.0, 2.0, 3.0]), ms.Tensor([0.5, -1.0, 2.0]))


def _range_sum(ms, *args):
    @ms.jit
    def f():
        out = 0
        for i in range(*args):
            out += i
        return out
    return _err(f)


def case_stc_range_checks(ms):
    """``range`` in a graph: MindSpore's ``make_range`` refusals (argument count, a float or bool, a zero
    step: error types), an overflow of Int64 on the next step; ordinary ranges as Python's."""
    big = 2 ** 63 - 1
    return [_range_sum(ms, *a) for a in ((), (1, 2, 0), (0, 0.02), (0, 1, 3.0), (3.0,), (1, 2, 3, 4), (True, 3),
                                         (big - 1, big, 3), (big - 5, big, 2), (1, 8, 3), (5, -1, -2), (0, big, big),
                                         (4,), (3, 1))]


def case_stc_map_checks(ms):
    """``map`` in a graph: MindSpore's ``Map`` refusals (one argument, a number or Tensor, a list with a
    tuple or a Tensor, lengths that differ: error types); with a NumPy array, Python's map (JIT Fallback)."""
    def mul(a, b=4):
        return a * b

    x, y = ms.Tensor([1.0]), ms.Tensor([2.0])

    @ms.jit
    def one(x, y):
        return map(mul)

    @ms.jit
    def scalars(x, y):
        return map(mul, 3, 4)

    @ms.jit
    def tensors(x, y):
        return map(mul, x, y)

    @ms.jit
    def mixed(x, y):
        return map(mul, [x], y)

    @ms.jit
    def lengths(x, y):
        return map(mul, [x, x], [y])

    @ms.jit
    def tuple_lengths(x, y):
        return map(mul, (x, x), (y,))

    @ms.jit
    def fine(x, y):
        return map(mul, (x, x), (y, y)), map(mul, [1, 2], [3, 4]), tuple(map(mul, np.array([1, 2]), np.array([3, 4])))

    return [_err(lambda f=f: f(x, y)) for f in (one, scalars, tensors, mixed, lengths, tuple_lengths, fine)]


def case_stc_hypermap_lengths_and_scalar_iteration(ms):
    """In a graph ``HyperMap``/``Map`` refuse sequences of different lengths (RuntimeError; PyNative stops at
    the shortest) and ``sum``/``zip`` refuse a 0-D Tensor (TypeError)."""
    from importlib import import_module
    C = import_module(ms.__name__ + ".ops.composite")
    add, hyper, mapped = ms.ops.Add(), C.HyperMap(), C.Map()
    t = ms.Tensor([1.0])

    @ms.jit
    def h(x, y):
        return hyper(add, x, y)

    @ms.jit
    def m(x, y):
        return mapped(add, x, y)

    @ms.jit
    def total(x):
        return sum(x)

    @ms.jit
    def zipped(x):
        return tuple(zip(x, x))

    return ([_err(lambda f=f, a=a, b=b: f(a, b)) for f in (h, m) for a, b in (((t,), (t, t)), ([t], [t, t]))],
            h((t, t), (t, t)), hyper(add, (t,), (t, t)), _err(lambda: total(ms.Tensor(1))),
            _err(lambda: zipped(ms.Tensor(1))))


def case_stc_morph(ms):
    """``ops.Morph(fn, infer_shape, infer_dtype, bprop_fn=None)`` in a graph: ``fn``'s values and gradients,
    or ``bprop_fn``'s; a ``fn`` with a default refused with a ``bprop_fn`` (ValueError); in PyNative its
    RuntimeError."""
    def fn(a, b):
        return a * b * 3

    def fn_default(a, b=2):
        return a * b

    def bprop(a, b, out, dout):
        return dout * 10, dout * 20

    def same(*args):
        return args[0]

    class Net(ms.nn.Cell):
        def __init__(self, morph):
            super().__init__()
            self.morph, self.w = morph, ms.Parameter(ms.Tensor([1.0, 2.0]), name="w")

        def construct(self, x):
            return self.morph(x * self.w, x) + 1

    x = ms.Tensor([3.0, 4.0])
    out = []
    for morph in (ms.ops.Morph(fn, same, same), ms.ops.Morph(fn, same, same, bprop)):
        net = Net(morph)
        out.append((net(x), ms.ops.GradOperation(get_all=True, get_by_list=True)(net, net.trainable_params())(x)))
    out.append(_err(lambda: ms.ops.Morph(fn_default, same, same, bprop)))
    ms.set_context(mode=ms.PYNATIVE_MODE)
    try:
        out.append(_err(lambda: Net(ms.ops.Morph(fn, same, same))(x)))
    finally:
        ms.set_context(mode=ms.GRAPH_MODE)
    return out


def case_stc_sequence_slice_checks(ms):
    """A tuple sliced in a graph: ints, bools and one-element integer Tensors as bounds; a str or float bound
    MindSpore's TypeError, a zero step its ValueError; a constant 0-D Tensor's ``sum`` its TypeError."""
    T = ms.Tensor
    t = (T([1]), T([2]), T([3]), T([4]))

    @ms.jit
    def ok(x):
        return x[T(1):T(3)], x[True:3], x[::-2], x[1:]

    @ms.jit
    def str_bound(x):
        return x[T(3):"str"]

    @ms.jit
    def float_bound(x):
        return x[1.5:3]

    @ms.jit
    def zero_step(x):
        return x[0:3:0]

    @ms.jit
    def tensor_zero_step(x):
        return x[0:3:T(0)]

    class SumScalar(ms.nn.Cell):
        def construct(self):
            return sum(T(1))

    return (ok(t), [_err(lambda f=f: f(t)) for f in (str_bound, float_bound, zero_step, tensor_zero_step)],
            _err(SumScalar()))


def case_stc_top_typeof(ms):
    """``_inner_ops.TopTypeof`` (its use in MindSpore's tests: whether an index is a Tensor): a Tensor's type is
    a ``TensorType``; Python ints, bools, floats, tuples, lists, None and strs give their MindSpore types."""
    from importlib import import_module
    top = import_module(ms.__name__ + ".ops.operations._inner_ops").TopTypeof()
    values = (ms.Tensor([True]), ms.Tensor([1.0]), 1, True, 1.5, (1,), [1], None, "a")
    return ([isinstance(top(v), ms.dtype.TensorType) for v in values], [str(top(v)) for v in values[2:]])


def case_stc_jit_cond_comments(ms):
    """``# @jit.cond: True``/``False`` after an ``if``: MindSpore's parser takes the comment's value as the
    condition; other comments change nothing."""
    @ms.jit
    def f(x):
        if x == 2:  # @jit.cond: False
            return 1
        if x == 5:  # @jit.cond: True
            return 2
        return 0

    @ms.jit
    def g(x):
        if x == 2:  # a comment
            return x + 1
        return x - 1

    return f(ms.Tensor(2)), f(ms.Tensor(7)), g(ms.Tensor(2)), g(ms.Tensor(3))


def all_cases():
    return {name[len("case_"):]: fn for name, fn in globals().items() if name.startswith("case_")}


graph_cases = all_cases
