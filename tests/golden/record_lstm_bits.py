"""Record MindSpore 2.10's float32 CPU LSTM (``nn.LSTM`` in PyNative and GRAPH_MODE, ``ops.LSTM``) on the
cases of ``lstm_bits.py`` (never a test dependency):

    /tmp/ms/bin/python tests/golden/record_lstm_bits.py                           # this CPU's set
    ONEDNN_MAX_CPU_ISA=AVX2 /tmp/ms/bin/python tests/golden/record_lstm_bits.py   # AVX2 on an AVX-512 CPU

writes ``tests/fixtures/lstm_bits_mindspore.npz`` for AVX2 and its twin ``lstm_bits_mindspore_avx512.npz``
for AVX-512 (``lenet_step.record_path``): MindSpore's CPU LSTM kernel is oneDNN's, whose sums differ by
instruction set on wider layers. Each array is stored under ``<case>/<y|hn|cn>``; ``meta_isa`` names the
set. ``meta_graph_is_pynative``: whether GRAPH_MODE gave PyNative's bits on ``GRAPH_CASES`` (it does:
the same ``LSTM`` kernel; msjax's ``jit`` is compared with the PyNative record)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

import mindspore  # noqa: E402

from lenet_step import record_path  # noqa: E402
from lstm_bits import CASES, GRAPH_CASES, OPS_CASES, nn_case, oneDNN_isa, ops_case  # noqa: E402

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "lstm_bits_mindspore.npz")


def main():
    isa = oneDNN_isa()
    out = {"meta_isa": np.array(isa), "meta_mindspore": np.array(mindspore.__version__)}
    mindspore.set_context(device_target="CPU", mode=mindspore.PYNATIVE_MODE)
    for name in CASES:
        for k, v in zip(("y", "hn", "cn"), nn_case(mindspore, name)):
            out[f"{name}/{k}"] = v
    for name in OPS_CASES:
        for k, v in zip(("y", "hn", "cn"), ops_case(mindspore, name)):
            out[f"{name}/{k}"] = v
    mindspore.set_context(mode=mindspore.GRAPH_MODE)
    same = all(np.array_equal(v, out[f"{name}/{k}"]) for name in GRAPH_CASES
               for k, v in zip(("y", "hn", "cn"), nn_case(mindspore, name)))
    print(f"GRAPH_MODE == PyNative bit for bit on {GRAPH_CASES}: {same}")
    out["meta_graph_is_pynative"] = np.array(same)
    path = record_path(FIXTURE, isa)
    np.savez_compressed(path, **out)
    print("wrote", os.path.relpath(path), file=sys.stderr)


if __name__ == "__main__":
    main()
