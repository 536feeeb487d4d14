"""MindSpore 2.10 reads msjax's per-rank Wide&Deep checkpoints (``train_and_eval_auto_parallel.py``
saves them with ``integrated_save=False``: each rank its slices) with the strategy file msjax's
train step saved: each cut Parameter merged with ``merge_sliced_parameter``, the rest taken from
rank 0, then ``load_param_into_net(strict_load=True)`` into the zoo's train network
(``TrainStepWrap``) built on one device in its auto-parallel branch, with its eval network
``PredictWithSigmoid`` as the script's ``get_WideDeep_net`` builds them (the last wrapper names the
Parameters ``network.*``).

    cd <zoo>/official/recommend/Wide_and_Deep
    /tmp/ms/bin/python <msjax>/bench/zoo/wide_deep/ms_load.py <run output>/ckpt_0/widedeep_train-1_8.ckpt

The run's output folder holds ``ckpt_<rank>/`` and ``checkpoints-<rank>/strategy.ckpt`` (the
harness passes ``--ckpt_path`` and ``--stra_ckpt`` there), or give the strategy file as a second
argument. Prints ``not loaded [...]``.
"""
import os
import sys

import numpy as np

import mindspore as ms
from mindspore import context
from mindspore.context import ParallelMode

out = os.path.dirname(os.path.dirname(os.path.abspath(sys.argv[1])))
stra = sys.argv[2] if len(sys.argv) > 2 else os.path.join(out, "checkpoints-0", "strategy.ckpt")
sys.argv = sys.argv[:1] + ["--device_target=CPU", "--sparse=True", "--batch_size=1000"]
sys.path.insert(0, os.getcwd())
from src.model_utils.config import config as cfg  # noqa: E402
from src.wide_and_deep import NetWithLossClass, PredictWithSigmoid, TrainStepWrap, WideDeepModel  # noqa: E402

context.set_auto_parallel_context(parallel_mode=ParallelMode.SEMI_AUTO_PARALLEL, gradients_mean=True)
net = WideDeepModel(cfg)
train = TrainStepWrap(NetWithLossClass(net, cfg), sparse=True)
PredictWithSigmoid(net)
ranks = sorted((d for d in os.listdir(out) if d.startswith("ckpt_")), key=lambda d: int(d[5:]))
files = [os.path.join(out, d, sorted(f for f in os.listdir(os.path.join(out, d)) if f.endswith(".ckpt"))[-1])
         for d in ranks]
ckpts = [ms.load_checkpoint(f) for f in files]
strategy = ms.build_searched_strategy(stra)
merged, cut = {}, []
for name, p in ckpts[0].items():
    lay = strategy.get(name)
    if lay is not None and any(d >= 0 for m in lay.tensor_map for d in m.dim):
        merged[name] = ms.merge_sliced_parameter([c[name] for c in ckpts], strategy)
        cut.append((name, tuple(p.shape), tuple(merged[name].shape)))
    else:
        merged[name] = p
left, _ = ms.load_param_into_net(train, merged, strict_load=True)
print("ranks", len(files), "params", len(merged), "merged from slices", len(cut))
for c in cut:
    print("cut", c)
t = merged["network.embedding_table"].asnumpy()
print("deep table = the rank slices side by side:",
      bool(np.array_equal(t, np.concatenate([c["network.embedding_table"].asnumpy() for c in ckpts], 1))))
print("not loaded", left)
