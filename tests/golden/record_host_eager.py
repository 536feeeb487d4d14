"""Record XLA CPU's results of the host-path cases (host_eager_cases.py) as digests.

    PYTHONPATH=. python tests/golden/record_host_eager.py     # writes host_eager_xla.json

Every case is compiled by XLA (the host path turned off); each result's dtype, shape,
weak type and the SHA-256 of its bytes (NaNs made one NaN) are kept."""
import json
import os
import sys

import jax

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import msjax  # noqa: E402,F401
from msjax.runtime import _host_eager  # noqa: E402
from golden import host_eager_cases as C  # noqa: E402


def main():
    _host_eager.enabled(False)
    out = {}
    for dt in C.DTYPES:
        x, y = (jax.numpy.asarray(v) for v in C.pairs(dt))
        cases = C.elementwise(dt)
        ref = jax.jit(lambda a, b: [f(a) if n == 1 else f(a, b) for _, f, n in cases])(x, y)
        out.update({f"{dt}:{name}": C.digest(r) for (name, _, _), r in zip(cases, ref)})
        red = C.reductions(dt)
        if red:
            ref = jax.jit(lambda a: [f(a) for _, f in red])(jax.numpy.asarray(C.table(dt)))
            out.update({f"{dt}:{name}": C.digest(r) for (name, _), r in zip(red, ref)})
        targets = C.convert_targets(dt)
        ref = jax.jit(lambda a: [jax.lax.convert_element_type(a, t) for t in targets])(jax.numpy.asarray(C.pool(dt)))
        out.update({f"{dt}->{t}": C.digest(r) for t, r in zip(targets, ref)})
    cases = C.layout()
    ref = jax.jit(lambda a, k: [f(a, k) for _, f, _ in cases])(*C.layout_inputs())
    out.update({f"layout:{name}": C.digest(r) for (name, _, _), r in zip(cases, ref)})
    meta = {"jax": jax.__version__, "jaxlib": jax.lib.__version__, "backend": jax.default_backend()}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "host_eager_xla.json")
    with open(path, "w") as f:
        json.dump({"meta": meta, "digests": out}, f, indent=0, sort_keys=True)
    print(f"{len(out)} digests -> {path}")


if __name__ == "__main__":
    main()
