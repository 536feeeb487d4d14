"""The conformance runner's preloaded mode (msjax/conformance/preloaded.py) reports what a
fresh ``python -m msjax run`` subprocess reports: verdict, stdout, exit status, exception."""
import sys

from msjax.conformance import discover, run_case
from msjax.conformance.preloaded import PreloadedRunner

CASES = {
    "01_prints": ("import mindspore as ms\nprint(ms.Tensor([1.5, 2.0]))\n", "[1.5 2. ]\n"),
    "02_wrong_output": ("print('two')\n", "one\n"),
    "03_raises": ("import mindspore as ms\nms.grad(lambda x: x, None, None)(ms.Tensor(1.0))\n",
                  "ValueError: `grad_position` and `weight` can not be None at the same time.\n"),
    "04_exit_code": ("import sys\nprint('bye')\nsys.exit(3)\n", "bye\n"),
    "05_cwd_and_atexit": ("import atexit, os\natexit.register(lambda: print('atexit ran'))\n"
                          "print(os.path.basename(os.getcwd()))\n", "seed900\natexit ran\n"),
}


def test_preloaded_runs_report_what_subprocesses_report(tmp_path):
    seed = tmp_path / "seed900"
    seed.mkdir()
    for name, (script, expected) in CASES.items():
        (seed / f"{name}.py").write_text(script)
        (seed / f"{name}.expected").write_text(expected)
    cases = discover(tmp_path)
    assert len(cases) == len(CASES)
    with PreloadedRunner() as runner:
        forked = {c.id.split("/")[-1]: run_case(c, "pynative", python=sys.executable, runner=runner) for c in cases}
    assert {k: r.passed for k, r in forked.items()} == {
        "01_prints": True, "02_wrong_output": False, "03_raises": True, "04_exit_code": False,
        "05_cwd_and_atexit": True}
    assert forked["04_exit_code"].returncode == 3 and forked["04_exit_code"].stdout == "bye\n"
    for case in cases:      # a fresh subprocess for the exception, exit-status and atexit paths
        name = case.id.split("/")[-1]
        if name in ("03_raises", "04_exit_code", "05_cwd_and_atexit"):
            fresh = run_case(case, "pynative", python=sys.executable)
            got = forked[name]
            assert (got.passed, got.returncode, got.stdout, got.reason) == (
                fresh.passed, fresh.returncode, fresh.stdout, fresh.reason), name


def test_a_lost_status_runs_the_example_as_a_subprocess(tmp_path):
    """Exit 255 is multiprocessing's report of a fork-server status it never got (with no output, or
    after part of it: both seen in full runs): the example runs again as a plain subprocess and gets
    its real verdict there."""
    seed = tmp_path / "seed901"
    seed.mkdir()
    script, expected = CASES["01_prints"]
    (seed / "01_prints.py").write_text(script)
    (seed / "01_prints.expected").write_text(expected)
    (case,) = discover(tmp_path)

    class Runner:
        def __init__(self, answer):
            self.answer, self.calls = answer, 0

        def run(self, argv, cwd, env, timeout):
            self.calls += 1
            return self.answer

    lost = Runner((255, b"", b""))
    got = run_case(case, "pynative", python=sys.executable, runner=lost)
    assert lost.calls == 1 and got.passed and got.returncode == 0 and got.stdout == expected
    partial = Runner((255, expected[:3].encode(), b""))
    got = run_case(case, "pynative", python=sys.executable, runner=partial)
    assert partial.calls == 1 and got.passed and got.returncode == 0 and got.stdout == expected
    other = Runner((3, b"", b""))          # any other status is the example's own: no second run
    got = run_case(case, "pynative", python=sys.executable, runner=other)
    assert other.calls == 1 and not got.passed and got.returncode == 3
