"""``msrun`` for msjax: ``python -m msjax launch [msrun flags] train.py [args]``.

Same flags, defaults and worker environment as MindSpore 2.10's ``msrun``
(``mindspore.parallel.cluster.run``): ``--local_worker_num`` processes are started on
this node, each running the script under ``python -m msjax run`` with ``MS_ROLE=MS_WORKER``,
``MS_WORKER_NUM``, ``MS_SCHED_HOST``/``MS_SCHED_PORT`` (the coordinator of
``jax.distributed``, hosted by rank 0), ``MS_TOPO_TIMEOUT`` (``--cluster_time_out``),
``MS_NODE_ID``/``RANK_ID``, ``RANK_SIZE``, ``DEVICE_ID`` (the local index), plus
``MS_LOCAL_WORKER`` and ``MS_NODE_RANK`` (msjax's additions); its output goes to
``<log_dir>/worker_<rank>.log`` (``--worker_log_name`` as msrun).

Differences from msrun: no scheduler process (JAX's coordination service runs inside
rank 0, so there is no ``scheduler.log``); ranks are never assigned automatically, so a
job spanning several nodes needs ``--node_rank``; ``--bind_core``/``--bind_numa`` and the
dry-run flags (``--sim_level``/``--sim_rank_id``) are rejected. With ``--join=True`` the
launcher follows the workers: their logs are copied to the console
(``--tail_worker_log``), and when one exits non-zero the others are killed, the tail of
its log is shown (a worker killed by a signal, e.g. ``kill -9``, is named as the cause
rather than the peers that failed because it vanished), and the launcher exits with
status 1. With the default ``--join=False`` it returns once the workers are started, as
msrun does; a surviving worker then fails in its next collective (gloo: "Connection
closed by peer"). No relaunch: msrun has no restart flag either (MindSpore restarts
workers through MindX on Ascend); resume by launching again from the checkpoints
(docs/reliability.md).
"""
from __future__ import annotations

import ast
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from argparse import REMAINDER, ArgumentParser, ArgumentTypeError

__all__ = ["get_args", "run", "main"]


def _bool_or_dict(value):
    try:
        v = ast.literal_eval(value)
    except (ValueError, SyntaxError):
        raise ArgumentTypeError(f"expected True, False or a dict, got {value!r}") from None
    if not isinstance(v, (bool, dict)):
        raise ArgumentTypeError(f"expected True, False or a dict, got {value!r}")
    return v


def get_args(argv=None):
    """msrun's command line (same flags and defaults)."""
    parser = ArgumentParser(prog="python -m msjax launch", allow_abbrev=False,
                            description="Start a distributed msjax job as MindSpore's msrun does.")
    parser.add_argument("--worker_num", type=int, default=8,
                        help="the total number of processes in the job (default 8)")
    parser.add_argument("--local_worker_num", type=int, default=8,
                        help="the number of processes started on this node (default 8)")
    parser.add_argument("--master_addr", default="127.0.0.1", type=str,
                        help="address of the coordinator (rank 0's node)")
    parser.add_argument("--master_port", default=8118, type=int, help="port of the coordinator")
    parser.add_argument("--node_rank", default=-1, type=int, help="index of this node")
    parser.add_argument("--log_dir", default="", type=str, help="directory of the worker logs")
    parser.add_argument("--join", default=False, type=ast.literal_eval, choices=[True, False],
                        help="wait for the workers and return the job's result")
    parser.add_argument("--cluster_time_out", default=600, type=int,
                        help="seconds a worker waits for the others to join (negative: forever)")
    parser.add_argument("--bind_core", default=False, type=_bool_or_dict, help="not supported by msjax")
    parser.add_argument("--bind_numa", default=False, type=_bool_or_dict, help="not supported by msjax")
    parser.add_argument("--sim_level", default=-1, type=int, choices=[0, 1, 2, 3], help="not supported by msjax")
    parser.add_argument("--sim_rank_id", default=-1, type=int, help="not supported by msjax")
    parser.add_argument("--rank_table_file", default="", type=str, help="exported as RANK_TABLE_FILE")
    parser.add_argument("--worker_log_name", default="", type=str,
                        help="worker log name (default worker_[rankid]); {ip} and {hostname} are replaced")
    parser.add_argument("--tail_worker_log", default="-1", type=str,
                        help="with --join=True, the local ranks whose logs go to the console (default all)")
    parser.add_argument("task_script", type=str, help="the script (or python/pytest) to run")
    parser.add_argument("task_script_args", nargs=REMAINDER, help="arguments of the script")
    return parser.parse_args(argv)


def _worker_cmd(script, args):
    if script in ("python", "python3"):
        return [sys.executable, "-m", "msjax", "run"] + list(args)
    if script == "pytest":     # msrun ... pytest -s -v test.py::case: pytest on msjax
        return [sys.executable, "-m", "msjax", "run", "pytest"] + list(args)
    return [sys.executable, "-m", "msjax", "run", script] + list(args)


def _tail_text(path, lines=20):
    try:
        with open(path, errors="replace") as f:
            text = f.read()
    except OSError:
        return "(no log)"
    return "\n".join(text.splitlines()[-lines:])


def _signal_name(num):
    try:
        return signal.Signals(num).name
    except ValueError:
        return "unknown signal"


class _Follower(threading.Thread):
    """Copies new lines of a worker log to the console (msrun runs ``tail -f``)."""

    def __init__(self, path):
        super().__init__(daemon=True)
        self.path, self.stop, self.pos = path, threading.Event(), 0

    def _copy(self):
        try:
            with open(self.path, errors="replace") as f:
                f.seek(self.pos)
                chunk = f.read()
                self.pos = f.tell()
        except OSError:
            return
        if chunk:
            sys.stdout.write(chunk)
            sys.stdout.flush()

    def run(self):
        while not self.stop.is_set():
            self._copy()
            self.stop.wait(0.2)
        self._copy()


class _ProcessManager:
    def __init__(self, args):
        self.args = args
        if args.worker_num <= 0:
            raise ValueError(f"worker_num must be greater than 0, but got {args.worker_num}.")
        if args.local_worker_num > args.worker_num:
            raise ValueError(f"Total worker number is {args.worker_num}, "
                             f"but got exceeded local worker number: {args.local_worker_num}.")
        if args.local_worker_num <= 0:
            raise ValueError(f"local_worker_num must be greater than 0, but got {args.local_worker_num}.")
        for flag in ("bind_core", "bind_numa"):
            if getattr(args, flag) not in (False,):
                raise ValueError(f"msjax launch does not support --{flag}: XLA places its own threads.")
        if args.sim_level != -1 or args.sim_rank_id != -1 or os.getenv("MS_SIMULATION_LEVEL"):
            raise ValueError("msjax launch does not support dry runs (--sim_level/--sim_rank_id, "
                             "MS_SIMULATION_LEVEL).")
        if args.local_worker_num < args.worker_num and args.node_rank < 0:
            raise ValueError("msjax launch needs --node_rank when the job spans several nodes "
                             f"(local_worker_num={args.local_worker_num} < worker_num={args.worker_num}): "
                             "it does not assign rank ids automatically.")
        if not 1024 <= args.master_port <= 65535:
            raise ValueError(f"master_port must be in [1024, 65535], but got {args.master_port}.")
        self.node_rank = 0 if args.local_worker_num == args.worker_num else args.node_rank
        self.procs = []          # (rank, Popen, log path)
        self.followers = []
        if args.log_dir:
            os.makedirs(args.log_dir, mode=0o700, exist_ok=True)

    def _log_name(self):
        name = self.args.worker_log_name
        if not name:
            return "worker"
        try:
            ip = socket.gethostbyname(socket.gethostname())
        except OSError:
            ip = "127.0.0.1"
        name = re.sub(r"\{ip\}", ip, name)
        return re.sub(r"\{hostname\}", socket.gethostname(), name)

    def _tailed(self, local_rank):
        sel = self.args.tail_worker_log
        if sel == "-1":
            return True
        return local_rank in [int(x) for x in sel.split(",") if x.strip()]

    def start(self):
        a = self.args
        base = dict(os.environ)
        base.update(MS_WORKER_NUM=str(a.worker_num), MS_SCHED_HOST=a.master_addr, MS_SCHED_PORT=str(a.master_port),
                    MS_TOPO_TIMEOUT=str(a.cluster_time_out), MS_ROLE="MS_WORKER", RANK_SIZE=str(a.worker_num),
                    MS_LOCAL_WORKER=str(a.local_worker_num), MS_NODE_RANK=str(self.node_rank))
        if a.rank_table_file:
            base["RANK_TABLE_FILE"] = a.rank_table_file
        name = self._log_name()
        for i in range(a.local_worker_num):
            rank = self.node_rank * a.local_worker_num + i
            log = os.path.join(a.log_dir, f"{name}_{rank}.log")
            env = dict(base, RANK_ID=str(rank), MS_NODE_ID=str(rank), DEVICE_ID=str(i))
            cmd = _worker_cmd(a.task_script, a.task_script_args)
            print(f"Start worker process with rank id:{rank}, log file:{log}. Environment variable "
                  f"[RANK_ID={rank}] is exported. Execute command: {' '.join(cmd)}", flush=True)
            with open(log, "w") as fh:
                p = subprocess.Popen(cmd, stdout=fh, stderr=subprocess.STDOUT, env=env, start_new_session=True)
            self.procs.append((rank, p, log))
            if a.join and self._tailed(i):
                f = _Follower(log)
                f.start()
                self.followers.append(f)

    def kill_workers(self):
        for _, p, _ in self.procs:
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
        for _, p, _ in self.procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass

    def _stop_followers(self):
        for f in self.followers:
            f.stop.set()
        for f in self.followers:
            f.join(timeout=2)

    def _report(self, failed):
        """Name the worker that failed first, with its log tail. A worker killed by a signal is
        the cause when others failed in the same moment: they fail because a peer vanished
        (gloo's "Connection closed by peer")."""
        failed = sorted(failed, key=lambda f: f[3] >= 0)     # killed by a signal first, then rank order
        rank, p, log, rc = failed[0]
        how = f" (killed by signal {-rc}: {_signal_name(-rc)})" if rc < 0 else ""
        others = "".join(f"Worker process {q.pid} (rank {r}) also exited, error code: {c}.\n"
                         for r, q, _, c in failed[1:])
        print(f"[ERROR] Worker process {p.pid} (rank {rank}) exit with exception. Error code: {rc}{how}.\n"
              f"Last lines of {log}:\n{_tail_text(log)}\n{others}"
              f"There's worker exits with exception, kill all other workers.\n"
              f"Distributed job exited with exception. Please check logs in directory: "
              f"{self.args.log_dir or os.getcwd()}.", file=sys.stderr, flush=True)

    def join(self):
        """Wait for the workers; 0 when all succeed, else 1 (the first failure's log tail shown)."""
        def on_sigint(sig, frame):
            print(f"msjax launch received signal {sig}, terminating all workers.", file=sys.stderr, flush=True)
            self.kill_workers()
            self._stop_followers()
            sys.exit(130)

        main = threading.current_thread() is threading.main_thread()
        old = signal.signal(signal.SIGINT, on_sigint) if main else None
        old_term = signal.signal(signal.SIGTERM, on_sigint) if main else None
        try:
            while True:
                codes = [p.poll() for _, p, _ in self.procs]
                if any(rc not in (None, 0) for rc in codes) or all(rc == 0 for rc in codes):
                    break
                time.sleep(0.1)
            failed = [(rank, p, log, rc) for (rank, p, log), rc in zip(self.procs, codes) if rc not in (None, 0)]
            if failed:
                self.kill_workers()
            self._stop_followers()
            if failed:
                self._report(failed)
                return 1
            return 0
        finally:
            if old is not None:
                signal.signal(signal.SIGINT, old)
                signal.signal(signal.SIGTERM, old_term)


def run(args):
    """Start the job described by ``args`` (``get_args()``); returns the exit status."""
    mgr = _ProcessManager(args)
    mgr.start()
    if args.join:
        return mgr.join()
    return 0


def main(argv=None):
    args = get_args(argv)
    try:
        return run(args)
    except ValueError as e:
        print(f"msjax launch: {e}", file=sys.stderr)
        return 2
