"""One O3 (float16, loss scale 1024) forward + backward of the zoo's ShuffleNetV1 2.0x on given
weights and a fixed batch, under msjax or MindSpore 2.10, as the zoo's ``Model(amp_level='O3')``
train step computes it (``to_float(float16)``, output cast to float32, the zoo's
``CrossEntropySmooth``, sens 1024); writes every parameter's gradient to an ``.npz``.

    python -m msjax run bench/zoo/shufflenet/o3_grads.py ZOO CKPT OUT.npz   # msjax
    /tmp/ms/bin/python bench/zoo/shufflenet/o3_grads.py ZOO CKPT OUT.npz    # MindSpore
    python bench/zoo/shufflenet/o3_grads.py --compare A.npz B.npz

``ZOO`` is ``official/cv/ShuffleNet/shufflenetv1`` of a checkout of mindspore-ai/models, ``CKPT``
a checkpoint of its ``train.py`` (4 classes); the batch is 8 normalised 224x224 images drawn
from a fixed seed (``--batch B.npz`` to give one).
"""
import sys

import numpy as np


def grads(zoo, ckpt, out, batch=None):
    import mindspore as ms
    from mindspore import nn, ops
    sys.path.insert(0, zoo)
    sys.argv = sys.argv[:1]
    from src.shufflenetv1 import ShuffleNetV1
    from src.crossentropysmooth import CrossEntropySmooth
    ms.set_context(mode=ms.GRAPH_MODE)
    if batch:
        data = np.load(batch)
        x, y = data["x"], data["y"]
    else:
        rng = np.random.default_rng(0)
        x = rng.standard_normal((8, 3, 224, 224)).astype(np.float32)
        y = (np.arange(8) % 4).astype(np.int32)
    net = ShuffleNetV1(model_size="2.0x", n_class=4)
    if ckpt != "-":
        ms.load_param_into_net(net, ms.load_checkpoint(ckpt))
    net.to_float(ms.float16)

    class To32(nn.Cell):
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def construct(self, x):
            return ops.cast(self.inner(x), ms.float32)

    loss_net = nn.WithLossCell(To32(net), CrossEntropySmooth(sparse=True, reduction="mean", smooth_factor=0.1,
                                                             num_classes=4))
    weights = ms.ParameterTuple(net.trainable_params())
    grad = ops.GradOperation(get_by_list=True, sens_param=True)(loss_net, weights)
    loss = loss_net(ms.Tensor(x), ms.Tensor(y))
    g = grad(ms.Tensor(x), ms.Tensor(y), ms.Tensor(np.float32(1024.0)))
    arrays = {p.name: gi.asnumpy() for p, gi in zip(weights, g)}
    np.savez(out, __loss__=np.float32(loss.asnumpy()), **arrays)
    bad = [k for k, v in arrays.items() if not np.isfinite(v).all()]
    print(f"loss {float(loss.asnumpy()):.6f}; {len(bad)} of {len(arrays)} gradients not finite: {bad}")


def compare(a, b):
    a, b = np.load(a), np.load(b)
    print("loss", float(a["__loss__"]), float(b["__loss__"]))
    for k in a.files:
        if k == "__loss__":
            continue
        u, v = a[k].astype(np.float64), b[k].astype(np.float64)
        fu, fv = np.isfinite(u), np.isfinite(v)
        both = fu & fv
        rel = np.abs(u - v)[both].max() / max(np.abs(v[both]).max(), 1e-30) if both.any() else 0.0
        if (~fu).any() or (~fv).any() or rel > 1e-2:
            print(f"{k}: not finite {int((~fu).sum())} / {int((~fv).sum())}; rel diff {rel:.2e}; "
                  f"max |g| {np.abs(u[fu]).max() if fu.any() else 0:.4g} / {np.abs(v[fv]).max() if fv.any() else 0:.4g}")


if __name__ == "__main__":
    if sys.argv[1] == "--compare":
        compare(sys.argv[2], sys.argv[3])
    else:
        args = [a for a in sys.argv[1:] if not a.startswith("--batch=")]
        batch = next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--batch=")), None)
        grads(*args[:3], batch=batch)
