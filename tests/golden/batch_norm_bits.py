"""Issue 33's training-mode BatchNorm cases, run the same way under MindSpore 2.10
(``record_batch_norm_bits.py``) and msjax (``tests/test_batch_norm_bits.py``).

``batch_norm_cases(ms)`` (``ms`` is ``mindspore`` or ``msjax``): ``nn.BatchNorm2d`` / ``nn.BatchNorm1d``
in training mode with seeded gamma, beta, running statistics, input and output gradient, forward (with
the running statistics it updates) and backward under GRAPH_MODE (``GradOperation`` w.r.t. the input and
the parameters), and the ``ops.BatchNorm``
primitive's batch mean and variance in PyNative mode. Spatial sizes 16, 15 and 1 cover MindSpore's
kernel's four-lane sums with 0 and 3 left-over elements and the single-element case. Each record
holds the array's SHA-256 (float32 bytes), first values and sum of absolute values. Only numpy and
hashlib here.
"""
import numpy as np

try:
    from .lenet_step import _summary
except ImportError:          # run as a script from tests/golden (the recorder)
    from lenet_step import _summary

# (name, input shape, eps)
SHAPES = (("2d_4x8x4x4", (4, 8, 4, 4), 1e-4), ("2d_8x16x3x5", (8, 16, 3, 5), 1e-5),
          ("2d_6x5x1x1", (6, 5, 1, 1), 1e-4), ("1d_32x24", (32, 24), 1e-5))


def _data(shape, seed):
    rs = np.random.RandomState(seed)
    c = shape[1]
    x = (rs.randn(*shape) * 2 + 1).astype(np.float32)
    dy = rs.randn(*shape).astype(np.float32)
    gamma = rs.uniform(0.5, 1.5, c).astype(np.float32)
    beta = rs.randn(c).astype(np.float32)
    running = rs.randn(c).astype(np.float32), rs.uniform(0.5, 1.5, c).astype(np.float32)
    return x, dy, gamma, beta, running


def batch_norm_cases(ms):
    """name -> summary of each output and gradient."""
    out = {}
    ms.set_context(mode=ms.GRAPH_MODE)
    for i, (name, shape, eps) in enumerate(SHAPES):
        x, dy, gamma, beta, (mean0, var0) = _data(shape, i)
        layer = ms.nn.BatchNorm2d if len(shape) == 4 else ms.nn.BatchNorm1d
        bn = layer(shape[1], eps=eps, momentum=0.9, gamma_init=ms.Tensor(gamma), beta_init=ms.Tensor(beta),
                   moving_mean_init=ms.Tensor(mean0), moving_var_init=ms.Tensor(var0))
        bn.set_train(True)
        grad = ms.ops.GradOperation(get_all=True, get_by_list=True, sens_param=True)
        y = bn(ms.Tensor(x))
        moving = {"moving_mean": _summary(bn.moving_mean.asnumpy()),
                  "moving_variance": _summary(bn.moving_variance.asnumpy())}
        gx, (dgamma, dbeta) = grad(bn, bn.trainable_params())(ms.Tensor(x), ms.Tensor(dy))
        out[name] = {"y": _summary(y.asnumpy()), "dx": _summary(gx[0].asnumpy()),
                     "dgamma": _summary(dgamma.asnumpy()), "dbeta": _summary(dbeta.asnumpy()), **moving}
    ms.set_context(mode=ms.PYNATIVE_MODE)
    for i, (name, shape, eps) in enumerate(SHAPES[:2]):
        x, _, gamma, beta, _ = _data(shape, i)
        c = shape[1]
        mean, var = (ms.Parameter(ms.Tensor(np.full(c, v, np.float32)), name=n) for v, n in ((0, "m"), (1, "v")))
        res = ms.ops.BatchNorm(is_training=True, epsilon=eps)(ms.Tensor(x), ms.Tensor(gamma), ms.Tensor(beta),
                                                             mean, var)
        out[name + "/primitive"] = {"y": _summary(res[0].asnumpy()), "batch_mean": _summary(res[3].asnumpy()),
                                    "batch_variance": _summary(res[4].asnumpy())}
    return out
