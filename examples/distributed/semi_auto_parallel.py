"""Semi-auto parallel in MindSpore's style, the way its distributed samples write it.

    XLA_FLAGS=--xla_force_host_platform_device_count=8 python -m msjax run \
        examples/distributed/semi_auto_parallel.py --case op --steps 4 --out result.json
    python -m msjax launch --worker_num=4 --local_worker_num=4 --join=True \
        examples/distributed/semi_auto_parallel.py --case op --steps 4 --out result.json

Cases: ``op`` (``ops.MatMul().shard`` / ``ReLU().shard`` with ``AutoParallel(train_step)``),
``layout`` (``Layout`` with aliases, combined axes and ``"None"``), ``mint`` (``ms.parallel.shard`` on
``mint`` functions, forward only), ``optimizer`` (``enable_parallel_optimizer`` with Momentum under
``ms.jit``), ``hsdp`` (``AutoParallel.hsdp()``), ``cell`` (``Cell.shard`` with a ``parameter_plan``),
``dense`` (``nn.Dense``'s ``matmul``/``bias_add`` strategies in ``nn.TrainOneStepCell``); ``--outside``
with ``op``: only ``grad_fn`` in ``AutoParallel``, the optimizer called after it (MindSpore's
``dataset_slice`` sample), which on several processes updates each rank's slices.
The printed losses must not depend on the number of devices; ``--out`` (rank 0) writes the losses
and, for every Parameter and optimizer state, its bytes on the first device.
"""
import argparse
import json

import numpy as np

import mindspore as ms
from mindspore import mint, nn, ops
from mindspore.communication import get_group_size, get_rank, init
from mindspore.common.initializer import initializer
from mindspore.parallel import Layout
from mindspore.parallel.auto_parallel import AutoParallel

parser = argparse.ArgumentParser()
parser.add_argument("--case", default="op")
parser.add_argument("--steps", type=int, default=4)
parser.add_argument("--out", default="")
parser.add_argument("--ckpt_dir", default="", help="op case: strategy file and checkpoints of every rank")
parser.add_argument("--outside", action="store_true",
                    help="op case: AutoParallel(grad_fn) and the optimizer called after it (docs sample dataset_slice)")
args = parser.parse_args()

ms.set_context(mode=ms.GRAPH_MODE)
init()
ms.set_seed(1)
N = 8 if get_group_size() == 1 else get_group_size()   # strategies for the job's devices
try:
    import jax
    N = jax.device_count()
except ImportError:
    pass
N = N if N > 1 else 8     # stand-alone: the 8-device strategies, which one device ignores


def strategies():
    half = max(N // 2, 1)
    if args.case == "layout":
        if N >= 8:
            layout = Layout((2, 2, N // 4), ("dp", "sp", "mp"))
            return (layout("mp", ("sp", "dp")), layout(("sp", "dp"), "None")), ((N, 1),)
        layout = Layout((2, N // 2), ("dp", "mp"))
        return (layout("dp", "mp"), layout("mp", "None")), ((N, 1),)
    return ((2, half), (half, 1)), ((N, 1),)


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flatten = ops.Flatten()
        self.fc1_weight = ms.Parameter(initializer("normal", [64, 32], ms.float32))
        self.fc2_weight = ms.Parameter(initializer("normal", [32, 16], ms.float32))
        mm1, relu1 = strategies()
        self.matmul1 = ops.MatMul().shard(mm1)
        self.relu1 = ops.ReLU().shard(relu1)
        self.matmul2 = ops.MatMul().shard(((1, N), (N, 1)))
        self.relu2 = ops.ReLU()

    def construct(self, x):
        x = self.flatten(x)
        x = self.relu1(self.matmul1(x, self.fc1_weight))
        return self.matmul2(x, self.fc2_weight)


class MintNetwork(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1_weight = ms.Parameter(initializer("normal", [64, 32], ms.float32))
        self.fc2_weight = ms.Parameter(initializer("normal", [32, 16], ms.float32))
        half = max(N // 2, 1)
        self.matmul1 = ms.parallel.shard(mint.matmul, in_strategy=((2, half), (half, 1)))
        self.relu1 = ms.parallel.shard(mint.nn.functional.relu, in_strategy=((N, 1),))
        self.matmul2 = mint.matmul

    def construct(self, x):
        x = mint.flatten(x, start_dim=1)
        return self.matmul2(self.relu1(self.matmul1(x, self.fc1_weight)), self.fc2_weight)


class DenseNetwork(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.layer1 = nn.Dense(64, 32)
        self.layer2 = nn.Dense(32, 16)
        self.relu = nn.ReLU()
        self.layer1.matmul.shard(((2, 1), (N // 2, 1)))
        self.layer1.bias_add.shard(((2, N // 2), (N // 2,)))

    def construct(self, x):
        return self.layer2(self.relu(self.layer1(self.flatten(x))))


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.weight = ms.Parameter(initializer("normal", [64, 32], ms.float32), name="weight")

    def construct(self, x):
        return ops.matmul(ops.flatten(x), self.weight)


def data(step):
    rs = np.random.RandomState(step)
    x = rs.randn(16, 1, 8, 8).astype(np.float32)
    y = rs.randint(0, 16, (16,)).astype(np.int32)
    return ms.Tensor(x), ms.Tensor(y)


def train(net, run_step):
    losses = []
    for step in range(args.steps):
        out = run_step(*data(step))
        losses.append(float(out.asnumpy() if args.case != "mint" else mint.sum(out).asnumpy()))
        print(f"step: {step}, {'forward_sum' if args.case == 'mint' else 'loss'} is {losses[-1]}", flush=True)
    return losses


def functional_step(net, optimizer, wrap):
    loss_fn = nn.CrossEntropyLoss()

    def forward_fn(data_, target):
        logits = net(data_)
        return loss_fn(logits, target), logits

    grad_fn = ms.value_and_grad(forward_fn, None, net.trainable_params(), has_aux=True)

    def train_step(inputs, targets):
        (loss_value, _), grads = grad_fn(inputs, targets)
        optimizer(grads)
        return loss_value
    return wrap(train_step)


if args.case in ("op", "layout", "hsdp"):
    net = Network()
    optimizer = nn.Momentum(net.trainable_params(), 1e-2, 0.9)

    def auto(fn):
        p = AutoParallel(fn, parallel_mode="semi_auto")
        if args.case == "hsdp":
            p.hsdp(threshold=1)
        if args.ckpt_dir:
            p.save_param_strategy_file(f"{args.ckpt_dir}/strategy.ckpt")
        return p
    if args.outside:     # the optimizer runs on each rank's slices of the Parameters the step placed
        def outside_step(x, y):
            (loss_value, _), grads = grad_fn(x, y)
            optimizer(grads)
            return loss_value
        loss_fn = nn.CrossEntropyLoss()
        grad_fn = auto(ms.value_and_grad(lambda x, y: (lambda lg: (loss_fn(lg, y), lg))(net(x)), None,
                                         net.trainable_params(), has_aux=True))
        losses = train(net, outside_step)
    else:
        losses = train(net, functional_step(net, optimizer, auto))
elif args.case == "mint":
    net = MintNetwork()
    parallel_net = AutoParallel(net, parallel_mode="semi_auto")
    losses = train(net, lambda x, y: parallel_net(x))
elif args.case == "optimizer":
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL, enable_parallel_optimizer=True,
                                 parallel_optimizer_config={"parallel_optimizer_threshold": 1})
    net = nn.SequentialCell([nn.Flatten(), nn.Dense(64, 32), nn.ReLU(), nn.Dense(32, 16)])
    optimizer = nn.Momentum(net.trainable_params(), 1e-2, 0.9)
    losses = train(net, functional_step(net, optimizer, ms.jit))
elif args.case == "cell":
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL)
    block = Block()
    ms.shard(block, in_strategy=((N, 1, 1, 1),), parameter_plan={"weight": (1, N)})
    optimizer = nn.SGD(block.trainable_params(), 1e-2)
    net = block
    losses = train(net, functional_step(net, optimizer, ms.jit))
elif args.case == "dense":
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL)
    net = DenseNetwork()
    optimizer = nn.Momentum(net.trainable_params(), 1e-2, 0.9)
    step_cell = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()), optimizer)
    losses = train(net, step_cell)
else:
    raise SystemExit(f"unknown case {args.case}")


if args.ckpt_dir:
    # every rank: its slices (integrated_save=False) and the whole Parameters (gathered)
    ms.save_checkpoint(net, f"{args.ckpt_dir}/rank_{get_rank()}.ckpt", integrated_save=False)
    ms.save_checkpoint(net, f"{args.ckpt_dir}/full_{get_rank()}.ckpt")


def bytes_on_first_device(p):
    arr = p._data
    dev = min(arr.sharding.device_set, key=lambda d: (d.process_index, d.id))
    if not arr.is_fully_addressable and dev.process_index != jax.process_index():
        dev = arr.addressable_shards[0].device
    return int(sum(s.data.nbytes for s in arr.addressable_shards if s.device == dev))


if args.out and get_rank() == 0:
    params = list(net.get_parameters()) + ([p for p in optimizer.get_parameters()
                                            if p.name.startswith(("moments", "accum"))]
                                           if args.case not in ("mint",) else [])
    with open(args.out, "w") as f:
        json.dump({"losses": losses, "bytes": {p.name: bytes_on_first_device(p) for p in params},
                   "full_bytes": {p.name: int(np.prod(p.shape)) * 4 for p in params}}, f)
