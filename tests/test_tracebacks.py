"""Messages a user sees as MindSpore prints them (issue 36). A user's mistake inside a transform
(grad, GRAPH_MODE, ms.jit) ends its traceback with msjax's error, not with JAX's note "For
simplicity, JAX has removed its internal frames...": msjax's ``sys.excepthook`` (and ``msjax
run``'s worker path) drop that note. set_context warns of MindSpore's deprecated keys."""
import re
import sys
import traceback

import numpy as np
import pytest

import msjax as ms

_NOTE = "JAX has removed its internal frames"


def _mistake():
    net = ms.nn.Dense(3, 4)
    return ms.grad(net)(ms.Tensor(np.ones((2, 5), np.float32)))


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
def test_note_stripped(mode):
    ms.set_context(mode=mode)
    try:
        with pytest.raises(ValueError, match="For 'MatMul' the input dimensions") as info:
            _mistake()
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    e = info.value
    assert _NOTE in "".join(getattr(e, "__notes__", []))     # JAX added it on the way out
    ms._strip_jax_notes(e)
    text = "".join(traceback.format_exception(type(e), e, e.__traceback__))
    assert _NOTE not in text and "For 'MatMul' the input dimensions" in text
    assert sys.excepthook is ms._excepthook


def test_excepthook_prints_without_note(capsys):
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        _mistake()
    except ValueError as err:
        e = err
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert _NOTE in "".join(getattr(e, "__notes__", []))     # JAX added it on the way out
    ms._excepthook(type(e), e, e.__traceback__)
    err_text = capsys.readouterr().err
    assert "ValueError: For 'MatMul' the input dimensions must be equal" in err_text
    assert _NOTE not in err_text and "JAX_TRACEBACK_FILTERING" not in err_text


def test_set_context_deprecation_warnings(monkeypatch):
    """MindSpore 2.10's warnings for set_context keys it will remove (texts as its CPU build prints
    them, 2026-11-29); ``mode`` is silent, and ``runtime.launch_blocking`` does not warn."""
    from msjax import log
    seen = []
    monkeypatch.setattr(log, "warning", lambda msg, *a, **k: seen.append(msg))
    ms.set_context(device_target="CPU")
    ms.set_context(mode=ms.PYNATIVE_MODE)
    ms.set_context(max_call_depth=1000)
    ms.runtime.launch_blocking()
    ms.set_context(pynative_synchronize=False)
    assert seen == [
        "For 'context.set_context', the parameter 'device_target' will be deprecated and removed in a future "
        "version. Please use the api mindspore.set_device() instead.",
        "For 'context.set_context', the parameter 'max_call_depth' will be deprecated and removed in a future "
        "version. Please use the api mindspore.set_recursion_limit() instead.",
        "For 'context.set_context', the parameter 'pynative_synchronize' will be deprecated and removed in a "
        "future version. Please use the api mindspore.runtime.launch_blocking() instead."]


_JAX_WORD = re.compile(r"(?i)(?<![a-z])jax")    # "jax", "JAX", "/jax/", not msjax's own name


def _dense_wrong_width():
    return ms.nn.Dense(3, 4)(ms.Tensor(np.ones((2, 5), np.float32)))


def _matmul_shapes():
    return ms.ops.matmul(ms.Tensor(np.ones((2, 3), np.float32)), ms.Tensor(np.ones((4, 5), np.float32)))


def _add_shapes():
    return ms.Tensor(np.ones((2, 3), np.float32)) + ms.Tensor(np.ones((4, 5), np.float32))


def _dense_int_input():
    return ms.nn.Dense(3, 4)(ms.Tensor(np.ones((2, 3), np.int32)))


def _index_out_of_range():
    return ms.Tensor(np.ones((2, 3), np.float32))[5]


def _cell_arg_count():
    x = ms.Tensor(np.ones((2, 3), np.float32))
    return ms.nn.Dense(3, 4)(x, x)


def _train_step_wrong_width():
    net = ms.nn.Dense(3, 4)
    step = ms.nn.TrainOneStepCell(ms.nn.WithLossCell(net, ms.nn.MSELoss()), ms.nn.SGD(net.trainable_params()))
    return step(ms.Tensor(np.ones((2, 5), np.float32)), ms.Tensor(np.ones((2, 4), np.float32)))


def _conv_channels():
    return ms.nn.Conv2d(3, 4, 3)(ms.Tensor(np.ones((1, 5, 8, 8), np.float32)))


def _reshape_size():
    return ms.Tensor(np.ones((2, 3), np.float32)).reshape(4, 2)


def _batch_norm_channels():
    return ms.nn.BatchNorm2d(4)(ms.Tensor(np.ones((2, 3, 4, 4), np.float32)))


def _jit_matmul_shapes():
    return ms.jit(lambda x, y: ms.ops.matmul(x, y))(ms.Tensor(np.ones((2, 3), np.float32)),
                                                    ms.Tensor(np.ones((4, 5), np.float32)))


def _grad_index_out_of_range():
    return ms.grad(lambda x: x[9].sum())(ms.Tensor(np.ones((2, 3), np.float32)))


class _Calls(ms.nn.Cell):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def construct(self, x):
        return self.fn()


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
@pytest.mark.parametrize("mistake, exc_type", [
    (_dense_wrong_width, ValueError), (_matmul_shapes, RuntimeError), (_add_shapes, ValueError),
    (_dense_int_input, TypeError), (_index_out_of_range, IndexError), (_cell_arg_count, TypeError),
    (_train_step_wrong_width, ValueError), (_mistake, ValueError), (_conv_channels, RuntimeError),
    (_reshape_size, ValueError), (_batch_norm_channels, ValueError), (_jit_matmul_shapes, RuntimeError),
    (_grad_index_out_of_range, IndexError)])
def test_user_mistake_traceback_reads_as_mindspore(mode, mistake, exc_type, capsys):
    """The traceback ``sys.excepthook`` prints for a user's mistake, inside a GRAPH_MODE Cell call or
    directly: no JAX note, no frame of JAX or of msjax's transform core (whose source reads
    ``jax.vjp(...)``), the user's frame and msjax's error at the end."""
    ms.set_context(mode=mode)
    try:
        with pytest.raises(exc_type) as info:
            _Calls(mistake)(ms.Tensor(np.ones(1, np.float32))) if mode == ms.GRAPH_MODE else mistake()
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    e = info.value
    ms._excepthook(type(e), e, e.__traceback__)
    text = capsys.readouterr().err
    assert not [line for line in text.splitlines() if _JAX_WORD.search(line)], text
    assert f"in {mistake.__name__}\n" in text and text.rstrip().splitlines()[-1].startswith(exc_type.__name__)
    assert not [f for f in traceback.extract_tb(e.__traceback__)[:-1] if "msjax/_core/" in f.filename]


def test_core_frames_kept_on_request(monkeypatch):
    monkeypatch.setenv("MSJAX_TRACEBACK_FILTERING", "off")
    with pytest.raises(ValueError) as info:
        _mistake()
    e = info.value
    ms._drop_core_frames(e)
    assert "msjax/_core/" in "".join(traceback.format_tb(e.__traceback__))
