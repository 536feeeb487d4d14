"""The zoo's Wide&Deep auto-parallel branch in small (``official/recommend/Wide_and_Deep``,
``train_and_eval_auto_parallel.py --sparse=True``), the way its ``src/wide_and_deep.py`` writes it.

    python -m msjax run examples/distributed/wide_deep_parallel.py --out one.json     # stand-alone
    XLA_FLAGS=--xla_force_host_platform_device_count=4 python -m msjax run \
        examples/distributed/wide_deep_parallel.py --parallel --out four.json
    python -m msjax launch --worker_num=2 --local_worker_num=2 --join=True \
        examples/distributed/wide_deep_parallel.py --parallel --out two.json

With ``--parallel``: ``init()``, SEMI_AUTO_PARALLEL; a wide ``nn.EmbeddingLookup`` with
``TABLE_ROW_SLICE`` and a deep one with ``TABLE_COLUMN_SLICE`` (``target='DEVICE'``), the weights
reshaped to ``batch_size * get_group_size()`` rows (the step sees the global batch, as MindSpore's),
``add_prim_attr("cross_batch", True)`` on the reductions, the first dense layer's ``matmul`` and the
deep ``Mul`` cut as the zoo's (its ``use_sp=False`` branch); ``Model.train`` without sink saves ``strategy_ckpt_save_file``, then, as the zoo's
``EvalCallBack``, ``Model.eval`` runs with that file as ``strategy_ckpt_load_file``. Each process
feeds its rows of every global batch (rank ``r``: rows ``r*b .. (r+1)*b``). The losses and the
evaluation must equal the stand-alone run's on the global batch (launched, each rank evaluates its
rows: the ranks' mean); ``--out`` writes them and each Parameter's bytes on the first device
(launched: ``<out>-<rank>.json``).
"""
import argparse
import json
import os

import numpy as np

import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn, ops
from mindspore.common.initializer import Normal, initializer
from mindspore.communication import get_group_size, get_rank, init

parser = argparse.ArgumentParser()
parser.add_argument("--parallel", action="store_true")
parser.add_argument("--out", default="")
parser.add_argument("--strategy_dir", default=".")
parser.add_argument("--steps", type=int, default=3)
args = parser.parse_args()

VOCAB, EMB, FIELDS, BATCH = 64, 8, 6, 8          # BATCH: the global batch
ms.set_context(mode=ms.GRAPH_MODE)
ms.set_seed(1)
GROUP, RANK = 1, 0
if args.parallel:
    init()
    GROUP, RANK = get_group_size(), get_rank()
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL, gradients_mean=True)


class WideDeep(nn.Cell):
    def __init__(self, batch_size):
        super().__init__()
        self.batch_size = batch_size * GROUP if args.parallel else batch_size
        self.wide = nn.EmbeddingLookup(VOCAB, 1, target="DEVICE", slice_mode=nn.EmbeddingLookup.TABLE_ROW_SLICE)
        self.deep = nn.EmbeddingLookup(VOCAB, EMB, target="DEVICE",
                                       slice_mode=nn.EmbeddingLookup.TABLE_COLUMN_SLICE)
        self.w1 = ms.Parameter(initializer(Normal(0.1), [FIELDS * EMB, 16]), name="w1")
        self.w2 = ms.Parameter(initializer(Normal(0.1), [16, 1]), name="w2")
        self.wide_b = ms.Parameter(initializer("zeros", [1]), name="wide_b")
        self.matmul = ops.MatMul()
        self.matmul2 = ops.MatMul()
        self.relu = ops.ReLU()
        self.reshape = ops.Reshape()
        self.reduce_sum = ops.ReduceSum(keep_dims=False)
        self.deep_mul = ops.Mul()
        self.unique = ops.Unique().shard(((1,),))
        if args.parallel:
            self.matmul.shard(((1, GROUP), (GROUP, 1)))
            self.deep_mul.shard(((1, 1, GROUP), (1, 1, 1)))
            self.reduce_sum.add_prim_attr("cross_batch", True)
        self.embedding_table = self.deep.embedding_table

    def construct(self, ids, wts):
        mask = self.reshape(wts, (self.batch_size, FIELDS, 1))
        wide = self.reshape(self.reduce_sum(self.wide(ids) * mask, 1) + self.wide_b, (-1, 1))
        deep_in = self.reshape(self.deep_mul(self.deep(ids), mask), (-1, FIELDS * EMB))
        deep = self.matmul2(self.relu(self.matmul(deep_in, self.w1)), self.w2)
        return wide + deep, self.embedding_table


class WithLoss(nn.Cell):
    def __init__(self, net):
        super().__init__(auto_prefix=False)
        self.net = net
        self.loss = ops.SigmoidCrossEntropyWithLogits()
        self.mean = ops.ReduceMean(keep_dims=False)
        if args.parallel:
            self.mean.add_prim_attr("cross_batch", True)

    def construct(self, ids, wts, label):
        logits, _ = self.net(ids, wts)
        return self.mean(self.loss(logits, label))


class Predict(nn.Cell):
    def __init__(self, net):
        super().__init__()
        self.net = net
        self.sigmoid = ops.Sigmoid()

    def construct(self, ids, wts, label):
        logits, _ = self.net(ids, wts)
        return self.sigmoid(logits), label


class Rows(nn.Metric):
    """The rows of predictions and labels the metric sees (the zoo's AUCMetric needs them equal)."""

    def clear(self):
        self.rows = [0, 0]

    def update(self, *inputs):
        self.rows = [self.rows[0] + inputs[0].shape[0], self.rows[1] + inputs[1].shape[0]]

    def eval(self):
        return self.rows


rs = np.random.RandomState(0)
n_rows = BATCH * args.steps
ids = rs.randint(0, VOCAB, (n_rows, FIELDS)).astype(np.int32)
wts = rs.rand(n_rows, FIELDS).astype(np.float32)
label = ((ids[:, :2] % 2).sum(1, keepdims=True) >= 1).astype(np.float32)
local = BATCH // GROUP
mine = np.concatenate([np.arange(s + RANK * local, s + (RANK + 1) * local) for s in range(0, n_rows, BATCH)])


def dataset():
    return ds.NumpySlicesDataset((ids[mine], wts[mine], label[mine]), ["ids", "wts", "label"],
                                 shuffle=False).batch(local)


class LossLog(ms.Callback):
    def __init__(self):
        self.losses = []

    def on_train_step_end(self, run_context):
        self.losses.append(float(run_context.original_args().net_outputs.asnumpy()))


net = WideDeep(local)
train = nn.TrainOneStepCell(WithLoss(net), nn.Adam(net.trainable_params(), learning_rate=0.05))
stra = os.path.join(args.strategy_dir, f"strategy-{RANK}.ckpt")
if args.parallel:
    ms.set_auto_parallel_context(strategy_ckpt_save_file=stra)
model = ms.Model(train, eval_network=Predict(net), metrics={"mae": nn.MAE(), "rows": Rows()})
log = LossLog()
model.train(1, dataset(), callbacks=[log], dataset_sink_mode=False)
if args.parallel:     # the zoo's EvalCallBack
    ms.set_auto_parallel_context(strategy_ckpt_save_file="", strategy_ckpt_load_file=stra)
result = model.eval(dataset(), dataset_sink_mode=False)
print("losses", log.losses, "eval", result)


def first_device_bytes(p):
    raw = p._data if hasattr(p, "_data") else None
    shards = getattr(raw, "addressable_shards", None)
    return int(shards[0].data.nbytes) if shards else int(p.asnumpy().nbytes)


if args.out:
    with open(args.out if GROUP == 1 else args.out.replace(".json", f"-{RANK}.json"), "w") as f:
        json.dump({"losses": log.losses, "eval": result, "group": GROUP,
                   "bytes": {p.name: first_device_bytes(p) for p in net.trainable_params()},
                   "strategy_saved": os.path.exists(stra) if args.parallel else None}, f)
