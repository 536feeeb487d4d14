"""Record the float32 ``Sigmoid`` cases (``sigmoid_bits.py``) with MindSpore 2.10, never a test
dependency; the fixture notes the machine (instruction set, threads):

    /tmp/ms/bin/python tests/golden/record_sigmoid_bits.py      # writes sigmoid_bits_mindspore.json
    /tmp/ms/bin/python tests/golden/record_sigmoid_bits.py --print"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

if __name__ == "__main__":
    import mindspore
    from lenet_step import machine
    from record_random_draws import write
    from sigmoid_bits import sigmoid_cases

    mindspore.set_context(device_target="CPU", mode=mindspore.PYNATIVE_MODE)
    doc = {"meta": {"mindspore": mindspore.__version__, **machine()}, "cases": sigmoid_cases(mindspore)}
    write(doc, os.path.join(HERE, "sigmoid_bits_mindspore.json"))
