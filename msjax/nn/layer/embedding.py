"""Embedding layers: ``Embedding`` and ``EmbeddingLookup``.

``Embedding`` keeps its table as the Parameter ``embedding_table`` (vocab_size,
embedding_size), initialised with 'normal' (N(0, 0.01)) by default; ``padding_idx`` zeroes that
row at construction (as in MindSpore, its gradient is not masked). Its lookup is MindSpore's Gather:
an id out of ``[-vocab_size, vocab_size)`` raises its RuntimeError (in compiled code when the program
has run), a negative id counts from the end and gets no gradient. ``EmbeddingLookup`` is a
gather; under semi-auto/auto parallel its ``slice_mode`` sets MindSpore's strategies on its
``gatherv2``/``embeddinglookup`` Primitives, so the table is cut by rows (``table_row_slice``),
columns (``table_column_slice``) or kept whole with the ids cut by batch (``batch_slice``)."""
from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from ..._core import dtype as mstype
from ..._core.parameter import Parameter
from ..._core.tensor import Tensor, wrap
from ...common.initializer import Normal, initializer
from ...ops import operations as _ops
from ...ops._impl import conv as F
from ...ops._impl.indexing import check_gather_range, take_wrapped
from ...parallel import _apply
from ...parallel import _context as _parallel
from ..cell import Cell

__all__ = ["Embedding", "EmbeddingLookup", "EmbeddingExt", "MultiFieldEmbeddingLookup"]


def _check_int_ids(ids, cls_name):
    if not isinstance(ids, Tensor):
        raise TypeError(f"For '{cls_name}', the 'input' must be a Tensor, but got {type(ids).__name__}.")
    if ids.dtype not in (mstype.int32, mstype.int64, mstype.int16, mstype.int8, mstype.uint8):
        raise TypeError(f"For 'Gather', the 'input_indices' must be a Tensor of int32 or int64, "
                        f"but got {ids.dtype}.")


class Embedding(Cell):
    """``nn.Embedding(vocab_size, embedding_size, use_one_hot=False, embedding_table='normal',
    dtype=mstype.float32, padding_idx=None)``."""

    def __init__(self, vocab_size, embedding_size, use_one_hot=False, embedding_table="normal", dtype=mstype.float32,
                 padding_idx=None):
        super().__init__()
        cls_name = type(self).__name__
        for n, v in (("vocab_size", vocab_size), ("embedding_size", embedding_size)):
            if not isinstance(v, int) or isinstance(v, bool):
                raise TypeError(f"For '{cls_name}', the type of '{n}' must be int, but got {type(v).__name__}.")
        if not isinstance(use_one_hot, bool):
            raise TypeError(f"For '{cls_name}', the type of 'use_one_hot' must be bool, "
                            f"but got {type(use_one_hot).__name__}.")
        if not isinstance(dtype, mstype.Type) or dtype.kind not in ("float", "int", "uint"):
            raise TypeError(f"For '{cls_name}', the 'dtype' must be a number type, but got {dtype}.")
        self.vocab_size = vocab_size
        self.embedding_size = embedding_size
        self.use_one_hot = use_one_hot
        self.dtype = dtype
        init_tensor = initializer(embedding_table, [vocab_size, embedding_size])
        self.padding_idx = padding_idx
        if padding_idx is not None:
            if not isinstance(padding_idx, int) or isinstance(padding_idx, bool):
                raise TypeError(f"For '{cls_name}', the type of 'padding_idx' must be int, "
                                f"but got {type(padding_idx).__name__}.")
            if not 0 <= padding_idx < vocab_size:
                raise ValueError(f"For '{cls_name}', the 'padding_idx' must be in range [0, {vocab_size}), "
                                 f"but got {padding_idx}.")
            a = init_tensor.asnumpy().copy()
            a[padding_idx] = 0
            init_tensor = Tensor(a, init_tensor.dtype)
        self.embedding_table = Parameter(init_tensor, name="embedding_table")

    def construct(self, ids):
        _check_int_ids(ids, type(self).__name__)
        idx = ids._data
        table = self.embedding_table._data
        flat = jnp.reshape(idx, (-1,))
        if self.use_one_hot:
            npd = mstype.to_np(self.dtype)
            hot = (flat[:, None] == jnp.arange(self.vocab_size, dtype=flat.dtype)[None, :]).astype(npd)
            if hot.dtype != table.dtype:
                raise TypeError(f"For 'MatMul', the type of 'x2' should be same as 'x1', but got 'x1' with type "
                                f"Tensor[{mstype.from_np(hot.dtype)}] and 'x2' with type "
                                f"Tensor[{mstype.from_np(table.dtype)}].")
            out = jnp.matmul(hot, table)
        else:
            check_gather_range(flat, self.vocab_size)   # MindSpore's Gather: an id out of range raises
            out = take_wrapped(table, flat, 0)
        return wrap(jnp.reshape(out, tuple(idx.shape) + (self.embedding_size,)))

    def extend_repr(self):
        return (f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, use_one_hot={self.use_one_hot}, "
                f"embedding_table={self.embedding_table}, dtype={self.dtype}, padding_idx={self.padding_idx}")


def _job_size():
    from ...parallel import _strategy
    return len(_strategy.mesh_devices())


def _slice_strategies(cls_name, slice_mode, target, manual_shapes, gather, lookup):
    """MindSpore's strategies for ``slice_mode`` under semi-auto/auto parallel on ``gather``/``lookup``
    (its ``gatherv2``/``embeddinglookup`` Primitives); returns ``forward_unique``. ``n`` is the job's
    device number (MindSpore's ``get_group_size()``: one device per rank)."""
    if slice_mode == "field_slice":
        if not manual_shapes:
            raise ValueError(f"For '{cls_name}', the 'manual_shapes' should not be none when the 'slice_mode' is "
                             f"\"filed_slice\", but got {manual_shapes}.")
        if not isinstance(manual_shapes, tuple):
            raise TypeError(f"For '{cls_name}', the type of 'manual_shapes' must be tuple(int), but got "
                            f"{type(manual_shapes).__name__}!")
        for dim in manual_shapes:
            if isinstance(dim, bool) or not isinstance(dim, int) or dim <= 0:
                raise ValueError(f"For '{cls_name}', the 'manual shape dim' must be int and must > 0, but got "
                                 f"'{dim}' with type '{type(dim).__name__}'.")
        gather.add_prim_attr("manual_split", manual_shapes)
        lookup.add_prim_attr("manual_split", manual_shapes)
        return False     # no strategy: the table stays whole (XLA has no uneven split)
    supported = ["field_slice", "table_row_slice", "table_column_slice", "batch_slice"]
    if slice_mode not in supported:
        raise ValueError(f"For '{cls_name}', the 'slice_mode' must be in {supported}, but got \"{slice_mode}\".")
    n = _job_size()
    unique = False
    ids = (1, 1)
    if slice_mode == "table_row_slice":
        if target == "DEVICE" and not _parallel.get_auto_parallel_context("full_batch"):
            ids, unique = (1,), True
        table = (n, 1)
    elif slice_mode == "table_column_slice":
        if target == "DEVICE":
            ids, unique = (1,), True
        table = (1, n)
    else:
        table, ids = (1, 1), (n, 1)
    gather.shard((table, ids))
    lookup.shard((table, ids))
    return unique


class EmbeddingLookup(Cell):
    """``nn.EmbeddingLookup(vocab_size, embedding_size, param_init='normal', target='CPU',
    slice_mode='batch_slice', manual_shapes=None, max_norm=None, sparse=True, dtype=mstype.float32)``:
    ``embedding_table[indices]`` (out-of-range ids give zero rows, as MindSpore's CPU lookup);
    ``max_norm`` clips each looked-up vector's L2 norm.

    Built under semi-auto/auto parallel, ``slice_mode`` gives ``gatherv2`` and ``embeddinglookup``
    MindSpore's strategies (the table cut by rows or columns over the job's devices, or the ids by
    batch) and the step places the table so. Differences from MindSpore: both Primitives are
    ``ops.Gather`` (MindSpore's are ``SparseGatherV2`` when ``sparse`` and ``EmbeddingLookup`` on the
    CPU; the looked-up values are the same), and where MindSpore looks up the unique ids and gathers
    back (``forward_unique``, a ``DEVICE`` table cut by rows or columns) msjax gathers the flattened
    ids directly (the same result; XLA needs static shapes). ``field_slice`` (MindSpore cuts the
    table's rows unevenly by ``manual_shapes``) is checked as MindSpore checks it, and the table
    stays whole on every device (XLA has no uneven split; the numbers are the same)."""
    BATCH_SLICE = "batch_slice"
    FIELD_SLICE = "field_slice"
    TABLE_ROW_SLICE = "table_row_slice"
    TABLE_COLUMN_SLICE = "table_column_slice"

    def __init__(self, vocab_size, embedding_size, param_init="normal", target="CPU", slice_mode="batch_slice",
                 manual_shapes=None, max_norm=None, sparse=True, dtype=mstype.float32):
        super().__init__()
        cls_name = type(self).__name__
        if not isinstance(sparse, bool):
            raise TypeError(f"For '{cls_name}', the type of 'sparse' must be bool, but got {type(sparse).__name__}.")
        for n, v in (("vocab_size", vocab_size), ("embedding_size", embedding_size)):
            if not isinstance(v, int) or isinstance(v, bool):
                raise TypeError(f"For '{cls_name}', the type of '{n}' must be int, but got {type(v).__name__}.")
            if v <= 0:
                raise ValueError(f"For '{cls_name}', the '{n}' must be a positive int, but got {v}.")
        if target not in ("CPU", "DEVICE"):
            raise ValueError(f"For '{cls_name}', the 'target' must be str and the value of 'target' should be in "
                             f"['CPU', 'DEVICE'], but got {target}.")
        if not sparse and target == "CPU":
            raise ValueError(f"For '{cls_name}', 'sparse' must be True when 'target' is \"CPU\", but got 'sparse': "
                             f"{sparse} and 'target': {target}")
        self.vocab_size = vocab_size
        self.embedding_size = embedding_size
        self.target = target
        self.sparse = sparse
        self.forward_unique = False
        self.embedding_table = Parameter(initializer(param_init, [vocab_size, embedding_size], dtype=dtype),
                                         name="embedding_table")
        self.gatherv2 = _ops.Gather()
        self.embeddinglookup = _ops.Gather()
        if _parallel.get_parallel_mode() in (_parallel.ParallelMode.SEMI_AUTO_PARALLEL,
                                             _parallel.ParallelMode.AUTO_PARALLEL):
            self.forward_unique = _slice_strategies(cls_name, slice_mode, target, manual_shapes, self.gatherv2,
                                                    self.embeddinglookup)
        self.embedding_table.unique = self.forward_unique
        self.max_norm = max_norm
        if max_norm is not None:
            if isinstance(max_norm, bool) or not isinstance(max_norm, (int, float)) or max_norm <= 0:
                raise ValueError(f"For '{cls_name}', the 'max_norm' must be a positive float, but got {max_norm}.")
            self.max_norm = float(max_norm)

    def construct(self, indices):
        _check_int_ids(indices, type(self).__name__)
        idx = indices._data
        table = self.embedding_table._data
        if _apply.active() is not None:     # a semi-auto/auto-parallel step: slice_mode's strategies
            flat = jnp.reshape(idx, (-1,)) if self.forward_unique else idx
            prim = self.embeddinglookup if self.target == "CPU" else self.gatherv2
            table, flat = (v._data if isinstance(v, Tensor) else v
                           for v in _apply.constrain_prim(prim, [self.embedding_table, flat]))
            idx = jnp.reshape(flat, idx.shape)
        out = jnp.take(table, idx, axis=0, mode="fill", fill_value=0)
        if self.max_norm is not None:
            axes = tuple(range(idx.ndim, out.ndim))
            norm = jnp.sqrt(jnp.sum(jnp.square(out), axis=axes, keepdims=True))
            mx = jnp.asarray(self.max_norm, out.dtype)
            out = out * jnp.where(norm > mx, mx / jnp.where(norm > 0, norm, 1), 1).astype(out.dtype)
        return wrap(out)



class EmbeddingExt(Cell):
    """``nn.EmbeddingExt(num_embeddings, embedding_dim, padding_idx=None, max_norm=None, norm_type=2.0,
    scale_grad_by_freq=False, sparse=False, _weight=None, _freeze=False, dtype=None)``: a Parameter ``weight``
    (N(0, 1) by default, the ``padding_idx`` row zeroed) looked up with ``ops.embedding``."""

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, max_norm=None, norm_type=2.0,
                 scale_grad_by_freq=False, sparse=False, _weight=None, _freeze=False, dtype=None):
        super().__init__()
        cls_name = type(self).__name__
        if not isinstance(sparse, bool):
            raise TypeError(f"For '{cls_name}', the type of 'sparse' must be bool, but got {type(sparse).__name__}.")
        if sparse:
            raise ValueError("For Embedding, the scenerio, where `sparse` is True, has not be supported.")
        for n, v in (("num_embeddings", num_embeddings), ("embedding_dim", embedding_dim)):
            if not isinstance(v, int) or isinstance(v, bool):
                raise TypeError(f"For '{cls_name}', the type of '{n}' must be int, but got {type(v).__name__}.")
        self.sparse = sparse
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.dtype = mstype.float32 if dtype is None else dtype
        self.padding_idx = padding_idx
        if _weight is None:
            t = initializer(Normal(1, 0), (num_embeddings, embedding_dim), self.dtype)
            if padding_idx is not None:
                if not -num_embeddings <= padding_idx < num_embeddings:
                    raise ValueError(f"For '{cls_name}', the 'padding_idx' must be in range [{-num_embeddings}, "
                                     f"{num_embeddings}), but got {padding_idx}.")
                a = t.asnumpy().copy()
                a[padding_idx] = 0
                t = Tensor(a, self.dtype)
            self.weight = Parameter(t, name="weight", requires_grad=not _freeze)
        else:
            if tuple(_weight.shape) != (num_embeddings, embedding_dim):
                raise ValueError(f"For Embedding, shape of weight should be match with num_embeddings and "
                                 f"embedding_dim, but got weight.shape: {_weight.shape}, and (num_embeddings, "
                                 f"embedding_dim): ({num_embeddings}, {embedding_dim})")
            self.weight = Parameter(_weight, name="weight", requires_grad=not _freeze)
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq

    def construct(self, input):
        return F.embedding(input, self.weight, self.padding_idx, self.max_norm, self.norm_type,
                           self.scale_grad_by_freq)

    def extend_repr(self):
        return (f"num_embeddings={self.num_embeddings}, embedding_dim={self.embedding_dim}, "
                f"padding_idx={self.padding_idx}, max_norm={self.max_norm}, norm_type={self.norm_type}, "
                f"scale_grad_by_freq={self.scale_grad_by_freq}, dtype={self.dtype}")


class MultiFieldEmbeddingLookup(EmbeddingLookup):
    """``nn.MultiFieldEmbeddingLookup(vocab_size, embedding_size, field_size, param_init='normal',
    target='CPU', slice_mode='batch_slice', feature_num_list=None, max_norm=None, sparse=True,
    operator='SUM', dtype=mstype.float32)``: ``construct(input_indices, input_values, field_ids)`` ->
    (batch, field_size, embedding_size), the looked-up vectors weighted by ``input_values`` and merged per
    field with SUM, MEAN (divided by the summed |values|) or MAX."""
    OPERATOR_SUM = "SUM"
    OPERATOR_MEAN = "MEAN"
    OPERATOR_MAX = "MAX"

    def __init__(self, vocab_size, embedding_size, field_size, param_init="normal", target="CPU",
                 slice_mode="batch_slice", feature_num_list=None, max_norm=None, sparse=True, operator="SUM",
                 dtype=mstype.float32):
        super().__init__(vocab_size, embedding_size, param_init, target, slice_mode, feature_num_list, max_norm,
                         sparse, dtype=dtype)
        cls_name = type(self).__name__
        if not isinstance(field_size, int) or isinstance(field_size, bool) or field_size <= 0:
            raise ValueError(f"For '{cls_name}', the 'field_size' must be a positive int, but got {field_size}.")
        if operator not in ("SUM", "MAX", "MEAN"):
            raise ValueError(f"For '{cls_name}', the 'operator' must be str and the value of 'operator' should be in "
                             f"['SUM', 'MAX', 'MEAN'], but got {operator}.")
        self.field_size = field_size
        self.operator = operator

    def construct(self, input_indices, input_values, field_ids):
        cls_name = type(self).__name__
        for n, t in (("input_indices", input_indices), ("input_values", input_values), ("field_ids", field_ids)):
            if len(t.shape) != 2:
                raise ValueError(f"For '{cls_name}', the dimension of '{n}' must be 2d, but got {len(t.shape)}")
        if input_indices.dtype not in (mstype.int32, mstype.int64):
            raise TypeError(f"For '{cls_name}', the 'input_indices' should be one of [Int32, Int64], "
                            f"but got {input_indices.dtype}.")
        if input_values.dtype != mstype.float32:
            raise TypeError(f"For '{cls_name}', the 'input_values' should be Float32, but got {input_values.dtype}.")
        if field_ids.dtype != mstype.int32:
            raise TypeError(f"For '{cls_name}', the 'field_ids' should be Int32, but got {field_ids.dtype}.")
        import jax
        batch = input_indices.shape[0]
        num = batch * self.field_size
        fid = (field_ids._data + jnp.arange(0, num, self.field_size, dtype=jnp.int32)[:, None]).reshape(-1)
        out = EmbeddingLookup.construct(self, input_indices)._data           # batch, n, E
        vals = input_values._data
        emb = (vals[..., None] * out).reshape(-1, self.embedding_size)
        if self.operator == "MAX":
            emb = emb + (vals.reshape(-1, 1) == 0).astype(jnp.float32) * -3.402823466e+38
            merged = jax.ops.segment_max(emb, fid, num)
            count = jax.ops.segment_sum(jnp.abs(vals.reshape(-1)), fid, num)
            merged = jnp.where(count[:, None] != 0, merged, jnp.zeros((), merged.dtype))
        else:
            merged = jax.ops.segment_sum(emb, fid, num)
            if self.operator == "MEAN":
                count = jax.ops.segment_sum(jnp.abs(vals.reshape(-1)), fid, num)[:, None]
                merged = jnp.where(count != 0, merged / jnp.where(count != 0, count, 1), jnp.zeros((), merged.dtype))
        return wrap(merged.reshape(batch, self.field_size, -1))
