"""Record how MindSpore 2.10 ends ``sigint_train.py`` (Ctrl-C during ``Model.train``) and
``sigint_dataset.py`` (Ctrl-C in a dataset-only loop):

    /tmp/ms/bin/python tests/golden/record_sigint.py          # writes sigint_mindspore.json
    /tmp/ms/bin/python tests/golden/record_sigint.py --print  # look, don't write

The fixture keeps the return code (``-15``: killed by SIGTERM), stdout, and whether stderr holds a
Python traceback; ``outcome()`` is shared with ``tests/test_sigint.py``.
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "sigint_train.py")
DATASET_SCRIPT = os.path.join(HERE, "sigint_dataset.py")
FIXTURE = os.path.join(HERE, "sigint_mindspore.json")


def outcome(argv, timeout=300):
    """Run ``argv`` (ending with the script), return what the fixture compares."""
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    return {"returncode": proc.returncode, "stdout": proc.stdout,
            "traceback": "Traceback (most recent call last)" in proc.stderr,
            "keyboard_interrupt": "KeyboardInterrupt" in proc.stderr}


if __name__ == "__main__":
    import mindspore
    sys.path.insert(0, HERE)
    from record_random_draws import write
    write({"meta": {"mindspore": mindspore.__version__}, "train_pynative": outcome([sys.executable, SCRIPT]),
           "dataset_loop": outcome([sys.executable, DATASET_SCRIPT])}, FIXTURE)
