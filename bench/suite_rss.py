"""Peak RSS of the test suite's xdist workers.

    python bench/suite_rss.py [pytest arguments, default: tests -n 2]

Runs pytest and samples, every 0.5 s, the RSS of every process below it (the xdist workers
and what they start); prints each worker's peak and the largest sum seen at one moment.
Results: docs/testing.md.
"""
import subprocess
import sys
import time


def _children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            kids = [int(k) for k in f.read().split()]
    except OSError:
        return []
    out = list(kids)
    for k in kids:
        out += _children(k)
    return out


def _rss_mb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _cmd(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")[:80]
    except OSError:
        return ""


def main():
    args = sys.argv[1:] or ["tests", "-n", "2"]
    t0 = time.time()
    p = subprocess.Popen([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args])
    peak, total_peak, names = {}, 0.0, {}
    while p.poll() is None:
        pids = _children(p.pid)
        total = 0.0
        for pid in pids:
            rss = _rss_mb(pid)
            total += rss
            if rss > peak.get(pid, 0):
                peak[pid] = rss
                names.setdefault(pid, _cmd(pid))
        total_peak = max(total_peak, total + _rss_mb(p.pid))
        time.sleep(0.5)
    print(f"pytest {' '.join(args)}: exit {p.returncode}, {time.time() - t0:.0f} s")
    for pid, rss in sorted(peak.items(), key=lambda kv: -kv[1])[:6]:
        print(f"  peak RSS {rss:7.1f} MB  pid {pid}  {names[pid]}")
    print(f"  largest total RSS at one moment (pytest and all its processes): {total_peak:.1f} MB")


if __name__ == "__main__":
    main()
