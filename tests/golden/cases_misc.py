"""Golden cases for top-level names outside the op surface: sparse tensor
containers, communication queries on one process, jit/context helpers."""
import numpy as np


def case_coo_to_dense(ms):
    c = ms.COOTensor(ms.Tensor([[0, 1], [1, 2]], ms.int32), ms.Tensor([1.0, 2.0], ms.float32), (3, 4))
    return [c.to_dense(), c.indices, c.values, tuple(c.shape), str(c.dtype), c.ndim]


def case_coo_astype_abs(ms):
    c = ms.COOTensor(ms.Tensor([[0, 0], [2, 3]], ms.int32), ms.Tensor([-1.5, 2.0], ms.float32), (3, 4))
    return [c.abs().to_dense(), c.astype(ms.float64).to_dense()]


def case_row_tensor(ms):
    r = ms.RowTensor(ms.Tensor([0, 2], ms.int32), ms.Tensor([[1.0, 2.0], [3.0, 4.0]], ms.float32), (3, 2))
    return [r.indices, r.values, tuple(r.dense_shape)]


def case_communication_single_process(ms):
    from importlib import import_module
    comm = import_module(ms.__name__ + ".communication")
    return [comm.get_rank(), comm.get_group_size(), comm.get_local_rank(), comm.get_local_rank_size(),
            comm.HCCL_WORLD_COMM_GROUP, comm.NCCL_WORLD_COMM_GROUP]


def case_jit_config(ms):
    cfg = ms.JitConfig(jit_level="O1")
    return [cfg.jit_config_dict["jit_level"], ms.STRICT, ms.COMPATIBLE, ms.LAX]


def case_jit_config_bad_level(ms):
    return ms.JitConfig(jit_level="O7")


def case_jit_class(ms):
    @ms.jit_class
    class Helper:
        def __init__(self, k):
            self.k = k

        def scale(self, x):
            return x * self.k

    h = Helper(3.0)

    @ms.jit
    def f(x):
        return h.scale(x)
    return f(ms.Tensor([1.0, 2.0], ms.float32))


def case_jit_class_not_class(ms):
    return ms.jit_class(lambda x: x)


def case_lazy_inline(ms):
    class Block(ms.nn.Cell):
        @ms.lazy_inline
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor([2.0], ms.float32), name="w")

        def construct(self, x):
            return x * self.w

    return Block()(ms.Tensor([1.5], ms.float32))


def case_get_context_mode(ms):
    return [ms.get_context("mode") in (ms.GRAPH_MODE, ms.PYNATIVE_MODE), ms.GRAPH_MODE, ms.PYNATIVE_MODE]


def case_set_context_bad_mode(ms):
    return ms.set_context(mode=5)


def case_grad_int_ids_embedding(ms):
    """Integer ids at a differentiated position: no gradient path (zeros)."""
    ms.set_seed(1)
    net = ms.nn.Embedding(5, 3, embedding_table="ones")
    ids = ms.Tensor([[0, 2], [4, 2]], ms.int32)
    g_ids, (g_table,) = ms.grad(net, grad_position=0, weights=net.trainable_params())(ids)
    return [g_ids, g_table]


def case_grad_int_index_gather_times_scale(ms):
    """Gather indices and a real scale both at differentiated positions."""
    def f(x, idx, s):
        return ms.ops.gather(x, idx, 0) * s
    x = ms.Tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], ms.float32)
    idx = ms.Tensor([2, 0, 2], ms.int32)
    return ms.grad(f, grad_position=(0, 1, 2))(x, idx, ms.Tensor(2.0, ms.float32))


def case_parameter_names_attribute_paths(ms):
    """Parameter names follow attribute paths, custom names included; update_parameters_name prefixes them."""
    nn = ms.nn

    class Inner(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor([1.0]))
            self.c = ms.Parameter(ms.Tensor([1.0]), name="custom")
            self.d = nn.Dense(2, 2)
            self.bn = nn.BatchNorm1d(2)

    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = Inner()
            self.seq = nn.SequentialCell([nn.Dense(2, 2), nn.ReLU()])
            self.lst = nn.CellList([nn.Dense(1, 1)])

    alone = Inner()
    net = Outer()
    before = [p.name for p in net.get_parameters()]
    net.update_parameters_name("pre.")
    return [[p.name for p in alone.get_parameters()], before, [p.name for p in net.get_parameters()]]


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}
