"""Mutation fuzzing of msjax's file parsers (used by tests/test_fuzz_parsers.py and
tests/fixtures/record_fuzz_errors.py; run directly for the outcome table).

Each format builds its valid seed files with msjax's own writers, then each case
mutates one of them (bit flips, truncation, byte insertion/deletion, garbage headers,
overwritten ranges, "interesting" integers such as huge length fields) with a fixed
seed and loads the result. An outcome is a successful load or an exception; the test
accepts only the exception types MindSpore 2.10 raises for corrupt files of that kind
(``ALLOWED``, recorded by ``tests/fixtures/record_fuzz_errors.py`` into
``fuzz_errors_mindspore.json``), each with a message, and a time limit per case.

    python tests/fuzzing.py [N] [format ...]     # N mutations per format, a markdown table
"""
from __future__ import annotations

import os
import random
import shutil
import signal
import struct
import sys
import time
import traceback

import numpy as np

CASE_SECONDS = 10.0           # the per-case time limit

# what MindSpore 2.10 raises for a corrupt file of each kind (tests/fixtures/fuzz_errors_mindspore.json)
ALLOWED = {
    "ckpt": (ValueError,),
    "ckpt_crc": (ValueError,),
    "safetensors": (ValueError,),
    "mindrecord": (RuntimeError,),
    "mindrecord_index": (RuntimeError,),
    "strategy_pb": (TypeError, ValueError),
    "strategy_json": (ValueError,),
    "distributed_ckpt": (TypeError, ValueError),
}
FORMATS = tuple(ALLOWED)


# ---------------------------------------------------------------------------
# mutations
# ---------------------------------------------------------------------------
_INTERESTING = [0, 1, 0x7F, 0x80, 0xFF, 0x7FFF, 0xFFFF, 0x7FFFFFFF, 0xFFFFFFFF, 2 ** 63 - 1, 2 ** 64 - 1, 2 ** 40]


def _pos(rng, n, hot):
    """A byte position: half of the time inside the file's first ``hot`` bytes."""
    if n == 0:
        return 0
    return rng.randrange(min(n, hot)) if rng.random() < 0.5 else rng.randrange(n)


def mutate(data, rng, hot=512):
    """``(mutated bytes, description)`` of one random mutation of ``data``."""
    n = len(data)
    kind = rng.choice(("bitflip", "bitflips", "truncate", "insert", "delete", "garbage_header", "overwrite",
                       "int", "duplicate", "empty"))
    b = bytearray(data)
    if kind == "empty" or n == 0:
        return b"", "empty"
    if kind == "bitflip":
        p = _pos(rng, n, hot)
        bit = rng.randrange(8)
        b[p] ^= 1 << bit
        return bytes(b), f"bitflip@{p}.{bit}"
    if kind == "bitflips":
        k = rng.randint(2, 16)
        for _ in range(k):
            b[_pos(rng, n, hot)] ^= 1 << rng.randrange(8)
        return bytes(b), f"bitflips x{k}"
    if kind == "truncate":
        p = _pos(rng, n, n if rng.random() < 0.5 else hot)
        return bytes(b[:p]), f"truncate@{p}"
    if kind == "insert":
        p = _pos(rng, n, hot)
        k = rng.choice((1, 2, 4, 8, rng.randint(1, 256)))
        return bytes(b[:p]) + rng.randbytes(k) + bytes(b[p:]), f"insert {k}@{p}"
    if kind == "delete":
        p = _pos(rng, n, hot)
        k = rng.choice((1, 2, 4, 8, rng.randint(1, 256)))
        return bytes(b[:p]) + bytes(b[p + k:]), f"delete {k}@{p}"
    if kind == "garbage_header":
        k = rng.randint(1, min(n, 64))
        return rng.randbytes(k) + bytes(b[k:]), f"garbage_header {k}"
    if kind == "overwrite":
        p = _pos(rng, n, hot)
        k = rng.randint(1, 64)
        b[p:p + k] = rng.randbytes(len(b[p:p + k]))
        return bytes(b), f"overwrite {k}@{p}"
    if kind == "int":
        p = _pos(rng, n, hot)
        size = rng.choice((1, 2, 4, 8))
        v = rng.choice(_INTERESTING) & ((1 << (8 * size)) - 1)
        b[p:p + size] = v.to_bytes(size, rng.choice(("little", "big")))[:len(b[p:p + size])]
        return bytes(b), f"int{size * 8}={v:#x}@{p}"
    p = _pos(rng, n, hot)                                  # duplicate a chunk
    k = rng.randint(1, 128)
    return bytes(b[:p]) + bytes(b[p:p + k]) + bytes(b[p:]), f"duplicate {k}@{p}"


# ---------------------------------------------------------------------------
# seeds (written by msjax) and loaders
# ---------------------------------------------------------------------------
def _ms():
    import msjax
    return msjax


def _items():
    ms = _ms()
    rng = np.random.RandomState(0)
    return [{"name": "conv.weight", "data": ms.Tensor(rng.randn(2, 3, 2, 2).astype(np.float32))},
            {"name": "fc.bias", "data": ms.Tensor(rng.randn(5).astype(np.float16))},
            {"name": "step", "data": ms.Tensor(np.array([7], np.int32))},
            {"name": "mask", "data": ms.Tensor(np.array([True, False]))}]


def _seed_ckpt(d, crc=False):
    path = os.path.join(d, "net.ckpt")
    _ms().save_checkpoint(_items(), path, crc_check=crc, append_dict={"epoch_num": 3, "note": "abc"})
    return [path]


def _seed_safetensors(d):
    path = os.path.join(d, "net.safetensors")
    _ms().save_checkpoint(_items(), path, format="safetensors")
    return [path]


def _seed_mindrecord(d):
    from msjax.mindrecord import FileWriter
    path = os.path.join(d, "data.mindrecord")
    w = FileWriter(path, shard_num=1, overwrite=True)
    w.set_header_size(1 << 14)
    w.set_page_size(1 << 15)
    w.add_schema({"label": {"type": "int32"}, "name": {"type": "string"}, "score": {"type": "float64"},
                  "img": {"type": "bytes"}, "ids": {"type": "int64", "shape": [-1]},
                  "vec": {"type": "float32", "shape": [2, 2]}}, "fuzz")
    w.add_index(["label"])
    rows = [{"label": i, "name": f"row{i}", "score": i * 0.5, "img": bytes(range(i, i + 12)),
             "ids": np.array([i, 300, -70000, 2 ** 40][:1 + i % 4], np.int64),
             "vec": np.full((2, 2), i, np.float32)} for i in range(6)]
    w.write_raw_data(rows)
    w.commit()
    return [path, path + ".db"]


def _layouts():
    return {"w": ((2,), (0, -1)), "b": ((2,), (0,))}


def _seed_strategy(d, ext):
    from msjax.parallel._strategy_file import save_strategy_file
    return [save_strategy_file(os.path.join(d, "strategy" + ext), _layouts())]


def _seed_distributed(d):
    ms = _ms()
    from msjax.parallel._layout import slice_for_rank
    from msjax.parallel._strategy_file import save_strategy_file
    rng = np.random.RandomState(1)
    full = {"w": rng.randn(4, 6).astype(np.float32), "b": rng.randn(4).astype(np.float32)}
    strategy = save_strategy_file(os.path.join(d, "train_strategy.ckpt"), _layouts())
    files = [strategy]
    for r in range(2):
        items = [{"name": k, "data": ms.Tensor(slice_for_rank(full[k], *_layouts()[k], r))} for k in full]
        items.append({"name": "global_step", "data": ms.Tensor(np.array([7], np.int32))})
        path = os.path.join(d, f"rank_{r}.ckpt")
        ms.save_checkpoint(items, path)
        files.append(path)
    return files


SEEDS = {
    "ckpt": _seed_ckpt,
    "ckpt_crc": lambda d: _seed_ckpt(d, crc=True),
    "safetensors": _seed_safetensors,
    "mindrecord": lambda d: _seed_mindrecord(d)[:1],
    "mindrecord_index": lambda d: _seed_mindrecord(d)[1:],
    "strategy_pb": lambda d: _seed_strategy(d, ".ckpt"),
    "strategy_json": lambda d: _seed_strategy(d, ".json"),
    "distributed_ckpt": _seed_distributed,
}


def load(fmt, d, ms=None):
    """Load the (possibly mutated) files of ``fmt`` in ``d`` with ``ms`` (msjax by default;
    the recording script passes MindSpore): the whole content is read and checked."""
    ms = ms or _ms()
    if fmt in ("ckpt", "ckpt_crc"):
        out = ms.load_checkpoint(os.path.join(d, "net.ckpt"), crc_check=fmt == "ckpt_crc")
        return [v.asnumpy() if hasattr(v, "asnumpy") else v for v in out.values()]
    if fmt == "safetensors":
        out = ms.load_checkpoint(os.path.join(d, "net.safetensors"), format="safetensors")
        return [v.asnumpy() for v in out.values()]
    if fmt in ("mindrecord", "mindrecord_index"):
        from importlib import import_module
        reader = import_module(ms.__name__ + ".mindrecord").FileReader(os.path.join(d, "data.mindrecord"))
        try:
            return list(reader.get_next())
        finally:
            reader.close()
    if fmt in ("strategy_pb", "strategy_json"):
        path = os.path.join(d, "strategy" + (".ckpt" if fmt == "strategy_pb" else ".json"))
        ms.build_searched_strategy(path)
        return ms.rank_list_for_transform(1, path, path)
    if fmt == "distributed_ckpt":
        out = os.path.join(d, "out", "rank0.ckpt")
        os.makedirs(os.path.dirname(out), exist_ok=True)
        ms.transform_checkpoint_by_rank(0, {0: os.path.join(d, "rank_0.ckpt"), 1: os.path.join(d, "rank_1.ckpt")},
                                        out, os.path.join(d, "train_strategy.ckpt"), None)
        return ms.load_checkpoint(out)
    raise ValueError(fmt)


# ---------------------------------------------------------------------------
# cases
# ---------------------------------------------------------------------------
def cases(fmt, root, n, seed=0):
    """Yield ``(case directory, description)`` for ``n`` mutations of ``fmt``'s seed files:
    ``root/seed`` holds the valid files, each case rewrites one file in ``root/case``."""
    seed_dir = os.path.join(root, "seed")
    os.makedirs(seed_dir, exist_ok=True)
    files = [os.path.basename(p) for p in SEEDS[fmt](seed_dir)]
    originals = {}
    for name in os.listdir(seed_dir):
        p = os.path.join(seed_dir, name)
        if os.path.isfile(p):
            with open(p, "rb") as f:
                originals[name] = f.read()
    rng = random.Random(f"{fmt}-{seed}")
    case_dir = os.path.join(root, "case")
    for i in range(n):
        shutil.rmtree(case_dir, ignore_errors=True)
        os.makedirs(case_dir)
        target = rng.choice(files)
        for name, content in originals.items():
            data = content
            if name == target:
                hot = 4096 if fmt == "mindrecord" else 512
                data, how = mutate(content, rng, hot)
            with open(os.path.join(case_dir, name), "wb") as f:
                f.write(data)
        yield case_dir, f"#{i} {target}: {how}"


def materialize(fmt, root, n, seed=0):
    """Write ``n`` cases of ``fmt`` as ``root/<i>/`` (with ``root/<i>/CASE``, the mutation)."""
    work = os.path.join(root, "_work")
    for i, (case_dir, how) in enumerate(cases(fmt, work, n, seed)):
        dst = os.path.join(root, str(i))
        shutil.copytree(case_dir, dst)
        with open(os.path.join(dst, "CASE"), "w") as f:
            f.write(how)
    shutil.rmtree(work)


class _Timeout(BaseException):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def run(fmt, root, n, seed=0, ms=None, limit=CASE_SECONDS):
    """Fuzz ``fmt`` ``n`` times; ``(counts {outcome: count}, failures [(case, detail)], seconds)``.
    An outcome is ``"load"`` or the exception's type name; a failure is an exception
    outside ``ALLOWED[fmt]``, one without a message, or a case over ``limit`` seconds."""
    allowed = ALLOWED[fmt]
    counts, failures = {}, []
    use_alarm = hasattr(signal, "setitimer") and _main_thread()
    old = signal.signal(signal.SIGALRM, _alarm) if use_alarm else None
    start = time.perf_counter()
    try:
        for case_dir, how in cases(fmt, root, n, seed):
            t0 = time.perf_counter()
            if use_alarm:
                signal.setitimer(signal.ITIMER_REAL, limit)
            try:
                load(fmt, case_dir, ms)
                outcome = "load"
            except _Timeout:
                outcome = "timeout"
                failures.append((how, f"over the {limit} s limit"))
            except Exception as e:  # noqa: BLE001  the outcome under test
                outcome = type(e).__name__
                if not isinstance(e, allowed):
                    failures.append((how, "".join(traceback.format_exception(type(e), e, e.__traceback__))[-3000:]))
                elif not str(e).strip():
                    failures.append((how, f"{type(e).__name__} without a message"))
            finally:
                if use_alarm:
                    signal.setitimer(signal.ITIMER_REAL, 0)
            if outcome != "timeout" and time.perf_counter() - t0 > limit:
                failures.append((how, f"took {time.perf_counter() - t0:.1f} s"))
            counts[outcome] = counts.get(outcome, 0) + 1
    finally:
        if use_alarm:
            signal.signal(signal.SIGALRM, old)
    return counts, failures, time.perf_counter() - start


def _main_thread():
    import threading
    return threading.current_thread() is threading.main_thread()


def main(argv):
    import tempfile
    n = int(argv[0]) if argv else 1000
    formats = argv[1:] or FORMATS
    print("| format | mutations | loads | exceptions | failures | time (s) |")
    print("|---|---:|---:|---|---:|---:|")
    bad = 0
    for fmt in formats:
        with tempfile.TemporaryDirectory() as root:
            counts, failures, secs = run(fmt, root, n)
        exc = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()) if k != "load")
        print(f"| {fmt} | {n} | {counts.get('load', 0)} | {exc} | {len(failures)} | {secs:.1f} |", flush=True)
        for how, detail in failures[:5]:
            print(f"    {how}\n{detail}", file=sys.stderr)
        bad += len(failures)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
