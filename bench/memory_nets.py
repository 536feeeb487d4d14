"""RSS while building and dropping many small nets in one process (issue 26).

    python bench/memory_nets.py [N=300] [mlp|lenet]

Each net is used as ``tests/test_memory.py``'s ``use_and_drop`` uses it (one
``TrainOneStepCell`` step, ``GradOperation``, ``value_and_grad``, an ``ms.jit`` function,
``ops.vjp``/``ops.jvp``), then dropped. Prints RSS every 25 nets as it goes (so a run cut
short still says something) and the growth from net 25 to the last; the issue's bound is
50 MB for 300 nets. Results: docs/reliability.md.
"""
import gc
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
import msjax as ms  # noqa: E402
from test_memory import rss_mb, use_and_drop  # noqa: E402


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    kind = sys.argv[2] if len(sys.argv) > 2 else "mlp"
    ms.set_context(mode=ms.GRAPH_MODE)
    t0 = time.perf_counter()
    at25 = None
    for i in range(1, count + 1):
        use_and_drop(kind)
        gc.collect()
        if i == 1 or i % 25 == 0 or i == count:
            rss = rss_mb()
            at25 = rss if i == 25 else at25
            grown = f", {rss - at25:+.1f} MB since net 25" if at25 is not None else ""
            print(f"net {i:4d} ({kind}): RSS {rss:.1f} MB{grown}, {time.perf_counter() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
