"""XLA flags for test subprocesses that only compare runs of one configuration with each other.

Some multi-process tests check that two things computed under the same flags agree (the ranks
of a launched job with each other, a resumed job with an uninterrupted one, a sharded step with
the stand-alone step of the same process). Their assertions hold for any correct compile, so
their subprocesses compile with XLA's backend optimizations off (LLVM at -O0): about a third
less CPU for a zoo ResNet18 run (16.9 -> 11.6 CPU-s, 2026-11-29). The results are not bit for
bit those of the default flags (the last bits of a ResNet18 step change), so tests that compare
with MindSpore's recorded numbers keep the default flags.
"""
import os

SELF_CONSISTENT = "--xla_backend_optimization_level=0"


def self_consistent(*flags, env=None):
    """``env`` (default ``os.environ``) with ``XLA_FLAGS`` = ``flags`` + the backend
    optimizations off; the caller's own ``XLA_FLAGS`` are replaced, as these tests did."""
    return dict(os.environ if env is None else env, XLA_FLAGS=" ".join((*flags, SELF_CONSISTENT)))
