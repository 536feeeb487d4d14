"""Golden cases for what running MindSpore's model zoo (``mindspore-ai/models``)
unmodified turned up, each a small piece in the zoo's style:

* the sensitivity a training cell hands ``GradOperation(sens_param=True)``: the zoo's
  loss-scale cells pass a ``(1,)`` sens (``cast(tuple_to_array((self.sens,)))``) for a 0-d
  loss, or a 0-d loss-scale Parameter for a ``(1,)`` loss (official/nlp/Transformer,
  GRAPH_MODE). MindSpore's compiled graphs (GRAPH_MODE, ``ms.jit``) accept any
  one-element sens for a one-element output; PyNative accepts only ``(1,)`` for 0-d.

* ``mindspore.ops.composite``'s ``clip_by_value``, ``clip_by_global_norm`` and ``matmul``
  (official/cv/WGAN clips the critic's weights with ``C.clip_by_value`` in its train cell).
* ``mindspore.dataset.vision.ToPIL`` (official/cv/Efficientnet's RandAugment batch map turns
  each decoded image into a PIL image for its Pillow augmentations, then ``ToTensor``).
* ``Cell.set_jit_config`` (official/nlp/LSTM sets ``JitConfig(jit_level="O2")`` on its network
  before ``Model``): kept in ``jit_config_dict``, set once.
* ``mindspore.dataset.transforms.validators.check_random_transform_ops`` (research/cv/trn
  decorates its own transforms with it; it also guards Compose/RandomApply/RandomChoice/
  RandomOrder).
* ``mindspore.dataset.vision.py_transforms_util``'s PIL helpers (research/cv/autoaugment
  calls them directly); ``random_crop`` draws from Python's ``random``, seeded here.

Each case sets the mode it is about (the replay sets one first; the case's wins).
"""
import numpy as np


def _net(ms, out_shape):
    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor(np.array([2.0, 3.0], np.float32)), name="w")

        def construct(self, x):
            return ms.ops.reshape((self.w * x).sum(), out_shape)
    return Net()


def _grad_cell(ms, net):
    class GradNet(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.net = net
            self.weights = ms.ParameterTuple(net.trainable_params())
            self.grad = ms.ops.GradOperation(get_by_list=True, sens_param=True)

        def construct(self, x, sens):
            return self.grad(self.net, self.weights)(x, sens)
    return GradNet()


_X = np.array([1.0, 5.0], np.float32)
_SENS = {"scalar": np.float32(3.0), "one": np.array([3.0], np.float32), "one_one": np.array([[3.0]], np.float32),
         "two": np.array([3.0, 1.0], np.float32)}
_OUT = {"scalar": (), "one": (1,), "one_one": (1, 1), "three": (3,)}


def _sens_case(mode, out, sens):
    def case(ms):
        ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
        if out == "three":
            net = _net(ms, (1,))
            net.construct = lambda x: ms.ops.broadcast_to((net.w * x).sum(), (3,))
        else:
            net = _net(ms, _OUT[out])
        return _grad_cell(ms, net)(ms.Tensor(_X), ms.Tensor(_SENS[sens]))
    return case


def _jit_case(out, sens):
    def case(ms):
        ms.set_context(mode=ms.PYNATIVE_MODE)
        net = _net(ms, _OUT[out])
        g = ms.ops.GradOperation(get_by_list=True, sens_param=True)(net, ms.ParameterTuple(net.trainable_params()))

        @ms.jit
        def f(x, s):
            return g(x, s)
        return f(ms.Tensor(_X), ms.Tensor(_SENS[sens]))
    return case


def case_transformer_style_loss_scale_step(ms):
    """A (1,) loss, a 0-d loss-scale Parameter as the sens, SGD: two steps in GRAPH_MODE
    (official/nlp/Transformer's TransformerTrainOneStepWithLossScaleCell, cut down)."""
    ms.set_context(mode=ms.GRAPH_MODE)

    class Loss(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = ms.nn.Dense(3, 1, weight_init="ones", bias_init="zeros")

        def construct(self, x, y):
            d = self.dense(x) - y
            return ms.ops.reshape((d * d).mean(), (1,))

    class Step(ms.nn.Cell):
        def __init__(self, network, optimizer):
            super().__init__()
            self.network = network
            self.weights = optimizer.parameters
            self.optimizer = optimizer
            self.grad = ms.ops.GradOperation(get_by_list=True, sens_param=True)
            self.loss_scale = ms.Parameter(ms.Tensor(8.0, ms.float32), name="loss_scale")

        def construct(self, x, y):
            loss = self.network(x, y)
            scaling_sens = self.loss_scale
            grads = self.grad(self.network, self.weights)(x, y, ms.ops.cast(scaling_sens, ms.float32))
            grads = tuple(g / scaling_sens for g in grads)
            self.optimizer(grads)
            return loss

    net = Loss()
    step = Step(net, ms.nn.SGD(net.trainable_params(), learning_rate=0.1))
    x = ms.Tensor(np.array([[1.0, 2.0, 0.5], [0.0, -1.0, 2.0]], np.float32))
    y = ms.Tensor(np.array([[1.0], [0.5]], np.float32))
    losses = [step(x, y) for _ in range(2)]
    return losses, net.dense.weight.asnumpy(), net.dense.bias.asnumpy()


def case_wgan_style_clip_step(ms):
    """official/cv/WGAN's DisTrainOneStepCell, cut down: a Fill-made sens, RMSProp, then the
    weights clipped with ``ops.composite.clip_by_value`` and assigned through a HyperMap of a
    MultitypeFuncGraph; two steps in GRAPH_MODE."""
    import importlib
    C = importlib.import_module(ms.__name__ + ".ops.composite")
    P = importlib.import_module(ms.__name__ + ".ops.operations")
    F = importlib.import_module(ms.__name__ + ".ops.functional")
    ms.set_context(mode=ms.GRAPH_MODE)
    assign_clipped = C.MultitypeFuncGraph("assign_clipped")

    @assign_clipped.register("Tensor", "Tensor")
    def _(param, clipped):
        return F.depend(clipped, F.assign(param, clipped))

    class Clip(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.cast, self.dtype = P.Cast(), P.DType()

        def construct(self, params, lower, upper):
            out = ()
            for p in params:
                dt = self.dtype(p)
                out = out + (C.clip_by_value(p, self.cast(F.tuple_to_array((lower,)), dt),
                                             self.cast(F.tuple_to_array((upper,)), dt)),)
            return out

    class Critic(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = ms.nn.Dense(3, 1, weight_init="ones", bias_init="zeros")

        def construct(self, x):
            return self.dense(x).mean(0).view(1)

    class Step(ms.nn.Cell):
        def __init__(self, net, opt):
            super().__init__()
            self.net, self.opt, self.weights = net, opt, opt.parameters
            self.grad = C.GradOperation(get_by_list=True, sens_param=True)
            self.clip, self.hyper_map = Clip(), C.HyperMap()

        def construct(self, x):
            loss = self.net(x)
            sens = P.Fill()(P.DType()(loss), P.Shape()(loss), 1.0)
            grads = self.grad(self.net, self.weights)(x, sens)
            upd = self.opt(grads)
            res = self.hyper_map(F.partial(assign_clipped), self.weights, self.clip(self.weights, -0.5, 0.5))
            return F.depend(loss, F.depend(upd, res))

    net = Critic()
    step = Step(net, ms.nn.RMSProp(net.trainable_params(), learning_rate=0.05, decay=0.99))
    x = ms.Tensor(np.array([[1.0, 2.0, 0.5], [0.0, -1.0, 2.0]], np.float32))
    losses = [step(x) for _ in range(2)]
    a = ms.Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))
    return (losses, net.dense.weight.asnumpy(), net.dense.bias.asnumpy(), C.matmul(a, a),
            C.clip_by_global_norm((a, a * 2), 1.0))


def case_cell_set_jit_config(ms):
    """A JitConfig set on a network before it is trained in GRAPH_MODE; a second one is ignored."""
    ms.set_context(mode=ms.GRAPH_MODE)
    net = ms.nn.Dense(3, 1, weight_init="ones", bias_init="zeros")
    before = dict(net.jit_config_dict)
    net.set_jit_config(ms.JitConfig(jit_level="O2"))
    first = dict(net.jit_config_dict)
    net.set_jit_config(ms.JitConfig(jit_level="O0", exc_mode="no_sink"))
    step = ms.nn.TrainOneStepCell(ms.nn.WithLossCell(net, ms.nn.MSELoss()), ms.nn.SGD(net.trainable_params(), 0.1))
    x = ms.Tensor(np.array([[1.0, 2.0, 0.5]], np.float32))
    loss = step(x, ms.Tensor(np.array([[1.0]], np.float32)))
    return before, first["jit_level"], net.jit_config_dict["jit_level"], net.jit_config_dict == first, loss


def _validator_case(make):
    def case(ms):
        import importlib
        T, V = ms.dataset.transforms, ms.dataset.vision
        check_random_transform_ops = importlib.import_module(
            ms.__name__ + ".dataset.transforms.validators").check_random_transform_ops

        class MyRandomApply:
            @check_random_transform_ops
            def __init__(self, transforms, prob=0.5):
                self.transforms, self.prob = transforms, prob

            def __call__(self, img):
                return self.transforms[0](img) if self.prob >= 0.5 else img

        return make(T, V, MyRandomApply)
    return case


_VALIDATOR_CASES = {
    "compose_empty": lambda T, V, My: T.Compose([]),
    "compose_tuple": lambda T, V, My: T.Compose((T.TypeCast("float32"),)),
    "compose_class": lambda T, V, My: T.Compose([T.TypeCast]),
    "random_apply_prob_range": lambda T, V, My: T.RandomApply([T.TypeCast("float32")], prob=1.5),
    "random_apply_prob_bool": lambda T, V, My: T.RandomApply([T.TypeCast("float32")], prob=True),
    "random_choice_not_callable": lambda T, V, My: T.RandomChoice([1]),
    "random_order_ok": lambda T, V, My: T.RandomOrder([V.HWC2CHW()])(np.zeros((2, 3, 1), np.uint8)).shape,
    "user_transform_ok": lambda T, V, My: My([V.HWC2CHW()], 0.75)(np.zeros((2, 3, 1), np.uint8)).shape,
    "user_transform_str": lambda T, V, My: My("HWC2CHW"),
    "user_transform_prob": lambda T, V, My: My([V.HWC2CHW()], 2),
}


def _ptu_case(fn):
    def case(ms):
        import importlib
        import random
        from PIL import Image
        u = importlib.import_module(ms.__name__ + ".dataset.vision.py_transforms_util")
        img = Image.fromarray(np.random.default_rng(0).integers(0, 255, (20, 24, 3), dtype=np.uint8))
        random.seed(5)
        return fn(u, img)
    return case


def _arr(x):
    return np.asarray(x).astype(np.int64)


_PTU_CASES = {
    "random_crops": lambda u, img: [_arr(u.random_crop(img, (8, 10), None, False, 0, "constant")),
                                    _arr(u.random_crop(img, 16, 4, False, (1, 2, 3), "constant")),
                                    _arr(u.random_crop(img, (30, 30), None, True, 7, "edge")),
                                    _arr(u.random_crop(img, (12, 12), (2, 3), False, 0, "reflect"))],
    "adjust": lambda u, img: [_arr(u.adjust_brightness(img, 0.5)), _arr(u.adjust_contrast(img, 1.5)),
                              _arr(u.adjust_saturation(img, 0.2))],
    "rotate": lambda u, img: [_arr(u.rotate(img, 30, 2, False, None, 9)),
                              _arr(u.rotate(img, 400, 0, True, None, (1, 2, 3)))],
    "is_pil": lambda u, img: [u.is_pil(img), u.is_pil(np.zeros(3)), u.augment_error_message],
    "not_pil": lambda u, img: u.random_crop(np.zeros((4, 4, 3)), 2, None, False, 0, "constant"),
    "crop_too_large": lambda u, img: u.random_crop(img, (40, 40), None, False, 0, "constant"),
    "bad_padding": lambda u, img: u.pad(img, (1, 2, 3), 0, "constant"),
    "bad_padding_mode": lambda u, img: u.pad(img, 1, 0, "wrap"),
}


def _topil_case(make):
    def case(ms):
        from PIL import Image
        V = ms.dataset.vision
        out = make(ms, V, np.random.default_rng(0).integers(0, 255, (4, 5, 3), dtype=np.uint8))
        if isinstance(out, Image.Image):
            return [type(out).__name__, out.mode, list(out.size), np.asarray(out).astype(np.int64)]
        return out
    return case


def _topil_pipeline(ms, V, img):
    T = ms.dataset.transforms
    data = np.stack([img, img[::-1]])
    d = ms.dataset.NumpySlicesDataset(data, ["image"], shuffle=False)
    d = d.map(operations=T.Compose([V.ToPIL(), V.RandomHorizontalFlip(1.0), V.ToTensor()]), input_columns="image")
    return [x["image"] for x in d.create_dict_iterator(num_epochs=1, output_numpy=True)]


_TOPIL_CASES = {
    "hwc_uint8": lambda ms, V, img: V.ToPIL()(img),
    "hw_float": lambda ms, V, img: V.ToPIL()(img[..., 0].astype(np.float32) / 255),
    "hw1_int32": lambda ms, V, img: V.ToPIL()(img[..., :1].astype(np.int32)),
    "pil_passes": lambda ms, V, img: V.ToPIL()(V.ToPIL()(img)),
    "then_pil_ops": lambda ms, V, img: V.Resize((2, 3))(V.ToPIL()(img)),
    "pipeline": _topil_pipeline,
    "pipeline_alone": lambda ms, V, img: [x["image"] for x in ms.dataset.NumpySlicesDataset(
        img[None], ["image"], shuffle=False).map(operations=[V.ToPIL()], input_columns="image")
        .create_dict_iterator(num_epochs=1, output_numpy=True)],
    "not_array": lambda ms, V, img: V.ToPIL()(img.tolist()),
    "rank_four": lambda ms, V, img: V.ToPIL()(img[None]),
    "five_channels": lambda ms, V, img: V.ToPIL()(np.zeros((2, 2, 5), np.uint8)),
    "float_rgb": lambda ms, V, img: V.ToPIL()(img.astype(np.float32)),
    "int64_gray": lambda ms, V, img: V.ToPIL()(img[..., 0].astype(np.int64)),
}


def all_cases():
    cases = {f"validators_{k}": _validator_case(v) for k, v in _VALIDATOR_CASES.items()}
    cases.update({f"py_transforms_util_{k}": _ptu_case(v) for k, v in _PTU_CASES.items()})
    cases.update({f"topil_{k}": _topil_case(v) for k, v in _TOPIL_CASES.items()})
    for mode in ("graph", "pynative"):
        for out, sens in (("scalar", "one"), ("one", "scalar"), ("one_one", "one"), ("one_one", "scalar"),
                          ("one", "one")):
            cases[f"sens_{mode}_out_{out}_sens_{sens}"] = _sens_case(mode, out, sens)
    # other shapes: PyNative's error (MindSpore's graphs pass them into the backward
    # unchecked, with rule-dependent results; msjax raises that error in every mode)
    cases["sens_pynative_out_three_sens_two"] = _sens_case("pynative", "three", "two")
    cases["sens_jit_out_one_sens_scalar"] = _jit_case("one", "scalar")
    cases["sens_jit_out_one_one_sens_one"] = _jit_case("one_one", "one")
    cases["transformer_style_loss_scale_step"] = case_transformer_style_loss_scale_step
    cases["wgan_style_clip_step"] = case_wgan_style_clip_step
    cases["cell_set_jit_config"] = case_cell_set_jit_config
    return cases
