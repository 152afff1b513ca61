"""Memory of ``gcs simulate`` against the number of battles: constant, or growing with the sweep?

    .venv/compiled/bin/python benchmarks/bench_memory.py                       # trace: 200,000 battles
    .venv/compiled/bin/python benchmarks/bench_memory.py --battles 1000000 --out x.jsonl
    .venv/compiled/bin/python benchmarks/bench_memory.py --cli 100000,300000 --out x.parquet

Trace (default): runs the sweep in this process (``run_sweep`` on the in-process backend, the
code path of ``gcs simulate --workers 1``) and prints the resident set size at every tenth of
it, then the growth from the first tenth to the end (per 100,000 battles) and the peak. A
sweep that keeps something per battle grows linearly; a constant-memory one stays flat after
its first chunks (allocator noise: well under a megabyte).

``--cli N1,N2,...``: runs the whole command once per count (``python -m gcs simulate
--encounter jaw_worm --battles N --quiet``, plus ``--out``) and prints each run's peak RSS as
the kernel counts it (``wait4``; with ``--workers`` > 1 the largest of its processes).
The wording and order of the lines are stable.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gcs.sim.backends import InProcess
from gcs.sim.jobs import Job
from gcs.sim.sweep import Sweep, run_sweep


def rss_mb() -> float:
    """This process's resident set size now, in MB (Linux ``/proc``)."""
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def trace(battles: int, out: str | None, encounter: str) -> None:
    """The RSS of an in-process sweep at every tenth of it."""
    samples: list[tuple[int, float]] = []
    step = max(1, battles // 10)
    t0 = time.perf_counter()

    def progress(done: int, total: int) -> None:
        if done // step > len(samples) - 1 or done == total:
            samples.append((done, rss_mb()))
            print(f"  {done:>9,} battles  {samples[-1][1]:7.1f} MB  "
                  f"({time.perf_counter() - t0:6.1f} s)", flush=True)

    job = Job(None, encounter, "random", 1, None, None)
    print(f"trace         in-process sweep (gcs simulate --workers 1), {battles:,} battles, "
          f"out {out or '(summary only)'}")
    run_sweep(Sweep((job,), battles), InProcess(), out=out, progress=progress)
    first_n, first = next(s for s in samples if s[0] >= step)  # after the first tenth (warm)
    last_n, last = samples[-1]
    per = (last - first) / max(1, last_n - first_n) * 100_000
    print(f"growth        {last - first:+.2f} MB from {first_n:,} to {last_n:,} battles "
          f"({per:+.3f} MB per 100,000 battles)")
    print(f"peak          {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.1f} MB")


def cli(counts: list[int], out: str | None, encounter: str, workers: int) -> None:
    """Peak RSS of the whole command, once per count."""
    print(f"cli           python -m gcs simulate --encounter {encounter} --workers {workers} "
          f"--quiet{' --out ' + out if out else ''}")
    with tempfile.TemporaryDirectory() as cwd:  # the installed gcs, not a source tree here
        for n in counts:
            args = [sys.executable, "-m", "gcs", "simulate", "--encounter", encounter,
                    "--battles", str(n), "--workers", str(workers), "--quiet"]
            args += ["--out", str(Path(out).resolve())] if out else []
            t = time.perf_counter()
            proc = subprocess.Popen(args, cwd=cwd, stdout=subprocess.DEVNULL)
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = os.waitstatus_to_exitcode(status)
            if proc.returncode:
                raise SystemExit(f"gcs simulate exited {proc.returncode}")
            print(f"  {n:>9,} battles  peak {usage.ru_maxrss / 1024:7.1f} MB  "
                  f"({time.perf_counter() - t:6.1f} s)", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--battles", type=int, default=200_000, help="the trace's battles")
    ap.add_argument("--out", default=None, help="a results file: x.csv, x.jsonl or x.parquet")
    ap.add_argument("--encounter", default="jaw_worm")
    ap.add_argument("--cli", default=None, help="battle counts (N1,N2,...): time the command")
    ap.add_argument("--workers", type=int, default=1, help="with --cli")
    a = ap.parse_args()
    import gcs

    kind = ("compiled (mypyc, installed wheel)" if gcs.engine_kind() == "compiled"
            else "pure Python")
    print(f"workload      {a.encounter}, random policy, seed 1, python {platform.python_version()}")
    print(f"engine        {kind}")
    if a.cli:
        cli([int(x) for x in a.cli.split(",")], a.out, a.encounter, a.workers)
    else:
        trace(a.battles, a.out, a.encounter)


if __name__ == "__main__":
    main()
