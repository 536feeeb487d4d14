"""Messages a user sees as MindSpore prints them (issue 36). A user's mistake inside a transform
(grad, GRAPH_MODE, ms.jit) ends its traceback with msjax's error, not with JAX's note "For
simplicity, JAX has removed its internal frames...": msjax's ``sys.excepthook`` (and ``msjax
run``'s worker path) drop that note. set_context warns of MindSpore's deprecated keys."""
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
