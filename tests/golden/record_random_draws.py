"""Record issue 24's random-draw golden cases with MindSpore 2.10 (never a test dependency):

    /tmp/ms/bin/python tests/golden/record_random_draws.py          # writes random_draws_mindspore.json
    /tmp/ms/bin/python tests/golden/record_random_draws.py --print  # look, don't write

MindSpore refuses more map workers than CPUs; the 3- and 8-worker draw cases were recorded on a
2-core machine with the CPU count faked (``fake_cpu_count.c``, an LD_PRELOAD library answering
8 to get_nprocs, sysconf(_SC_NPROCESSORS_*) and sched_getaffinity; see its header): they are
skipped when fewer CPUs are seen.
"""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mindspore  # noqa: E402

from random_draws_pipelines import cases, draw_cases  # noqa: E402

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "random_draws_mindspore.json")


def write(doc, path):
    """Write ``doc`` to ``path`` as indented JSON, or print it with ``--print``."""
    if "--print" in sys.argv:
        print(json.dumps(doc, indent=1))
    else:
        with open(path, "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
        print("wrote", path)

if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        res = cases(mindspore, tmp)
    import mindspore.dataset.core.validator_helpers as vh
    vh.cpu_count = os.cpu_count          # the C++ side checks the (possibly faked) count too
    workers = tuple(w for w in (1, 2, 3, 8) if w <= os.cpu_count())
    meta = {"mindspore": mindspore.__version__, "cpu_count": os.cpu_count()}
    if os.environ.get("LD_PRELOAD"):
        meta["ld_preload"] = os.path.basename(os.environ["LD_PRELOAD"])    # the faked CPU count
    doc = {"meta": meta, "cases": res,
           "draws": draw_cases(mindspore, workers)}
    write(doc, FIXTURE)
