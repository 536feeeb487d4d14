"""Record libstdc++'s float gamma and normal draws (``stdgamma_draws.cc``, built with g++)
into ``stdgamma_libstdcxx.json``: for each (seed, alpha) the first draws of each sequence and
a SHA-256 of all of them (their float32 bit patterns). Never a test dependency:

    g++ -O2 -o /tmp/stdgamma_draws tests/golden/stdgamma_draws.cc
    python tests/golden/record_stdgamma.py /tmp/stdgamma_draws
"""
import hashlib
import json
import os
import subprocess
import sys

CASES = [(1, 1.0), (5, 0.7), (7, 0.4), (3, 0.05), (11, 1.5), (2, 2.0), (9, 7.5), (4, 0.999)]
COUNT = 300
FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "stdgamma_libstdcxx.json")


def digest(bits):
    return hashlib.sha256(" ".join(bits).encode()).hexdigest()[:16]


def record(exe):
    rows = []
    for seed, alpha in CASES:
        out = subprocess.run([exe, str(seed), repr(alpha), str(COUNT)], check=True, capture_output=True,
                             text=True).stdout.split()
        kept, fresh, normal = out[:COUNT], out[COUNT:2 * COUNT], out[2 * COUNT:]
        rows.append({"seed": seed, "alpha": alpha, "count": COUNT,
                     "kept_head": kept[:6], "kept": digest(kept), "fresh_head": fresh[:6], "fresh": digest(fresh),
                     "normal_head": normal[:6], "normal": digest(normal)})
    return {"meta": {"source": "tests/golden/stdgamma_draws.cc", "compiler": subprocess.run(
        ["g++", "--version"], capture_output=True, text=True).stdout.splitlines()[0]}, "cases": rows}


if __name__ == "__main__":
    doc = record(sys.argv[1])
    with open(FIXTURE, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
