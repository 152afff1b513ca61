"""Scaling of ``gcs simulate`` over local processes: ``--workers 1`` vs ``--workers W`` on the same
sweep, the whole command timed (start-up, content load, worker start, aggregation, exit).

    .venv/compiled/bin/python benchmarks/bench_workers.py                 # compiled (installed wheel)
    .venv/bin/python benchmarks/bench_workers.py --battles 20000          # pure Python (source tree)

Runs ``python -m gcs simulate --encounter E --battles N --policy random --seed 1 --json`` with
``--workers 1`` and ``--workers W`` in interleaved rounds (1, W, side by side, 1, W, ...), from a
temporary directory (so the interpreter's installed gcs runs, not a source tree there),
checks that both print the same bytes, and prints the wall and CPU time of each run with the
cores the machine's other processes used meanwhile, the median battles/s of each, the median
speed-up (over all rounds, and over the idle rounds alone), the ceiling (``W`` independent
``--workers 1`` commands of N/W battles each, started together: the speed-up the cores allow
with no pool at all; a pool without overhead reaches it), and the extra CPU time of the
pool's run (start, pickling, aggregation, and the cores slowing each other: a number that load
elsewhere hardly moves). The machine should be idle (``--wait-idle S`` waits for it before each
round): another process on a core shows up as a speed-up below W. The wording and order of the
lines are stable.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def simulate_args(encounter: str, battles: int, workers: int, chunk: int | None) -> list[str]:
    args = ["-m", "gcs", "simulate", "--encounter", encounter, "--battles", str(battles),
            "--policy", "random", "--seed", "1", "--workers", str(workers), "--json"]
    return args + (["--chunk", str(chunk)] if chunk else [])


IDLE = 0.15  # cores: a run is clean when the other processes left it its cores but this much


def busy_seconds() -> float:
    """CPU seconds all processes of the machine have used so far (Linux ``/proc/stat``; nan
    elsewhere): user, nice, system, irq, softirq and steal time of every core."""
    try:
        with open("/proc/stat") as fh:
            fields = [int(x) for x in fh.readline().split()[1:]]
    except OSError:
        return float("nan")
    return sum(fields[i] for i in (0, 1, 2, 5, 6, 7)) / os.sysconf("SC_CLK_TCK")


def others_now(seconds: float = 2.0) -> float:
    """The cores the machine's other processes use, on average over the next ``seconds``."""
    b = busy_seconds()
    time.sleep(seconds)
    return (busy_seconds() - b) / seconds


def wait_idle(limit: float) -> None:
    """Wait (at most ``limit`` seconds) until the rest of the machine uses under IDLE cores."""
    end = time.monotonic() + limit
    while time.monotonic() < end and not others_now() < IDLE:
        pass


def timed_run(python: str, args: list[str], cwd: str) -> tuple[float, float, float, bytes]:
    """Wall seconds and CPU seconds (all its processes) of one whole command, the cores other
    processes used meanwhile (on average), and what the command printed."""
    env = dict(os.environ)
    if Path(python).absolute().parent.parent == ROOT / ".venv":
        env["PYTHONPATH"] = str(ROOT)  # the pure source tree, as `.venv/bin/python` runs it
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    busy = busy_seconds()
    t = time.perf_counter()
    done = subprocess.run([python, *args], cwd=cwd, env=env, capture_output=True, check=True)
    wall = time.perf_counter() - t
    busy = busy_seconds() - busy
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu, max(0.0, busy - cpu) / wall, done.stdout


def side_by_side(python: str, args: list[str], cwd: str, n: int) -> tuple[float, float]:
    """Wall seconds until ``n`` independent copies of one command, started together, have all
    finished, and the cores other processes used meanwhile."""
    busy = busy_seconds()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    procs = [subprocess.Popen([python, *args], cwd=cwd, stdout=subprocess.DEVNULL)
             for _ in range(n)]
    for p in procs:
        if p.wait():
            raise SystemExit(f"gcs simulate exited {p.returncode}")
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, max(0.0, busy_seconds() - busy - cpu) / wall


def engine_kind(python: str, cwd: str) -> str:
    code = "import gcs.engine as p; print(p.__file__)"
    where = subprocess.run([python, "-c", code], cwd=cwd, capture_output=True, text=True,
                           check=True).stdout.strip()
    return "compiled (mypyc, installed wheel)" if where.endswith(".so") else "pure Python"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--battles", type=int, default=50_000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--encounter", default="jaw_worm")
    ap.add_argument("--chunk", type=int, default=None, help="--chunk (default: simulate's own)")
    ap.add_argument("--python", default=sys.executable, help="the interpreter that runs gcs")
    ap.add_argument("--wait-idle", type=float, default=0.0, metavar="SECONDS",
                    help="before each round, wait up to this long for the machine to go idle")
    a = ap.parse_args()
    times: dict[int, list[float]] = {1: [], a.workers: []}
    cpus: dict[int, list[float]] = {1: [], a.workers: []}
    ratios: list[float] = []
    idle_ratios: list[float] = []
    ceilings: list[float] = []
    outputs: set[bytes] = set()
    with tempfile.TemporaryDirectory() as cwd:
        kind = engine_kind(a.python, cwd)
        print(f"workload      gcs simulate --encounter {a.encounter} --battles {a.battles} "
              f"--policy random --seed 1 --json, python {platform.python_version()}")
        print(f"engine        {kind}")
        cores = os.cpu_count() or 1
        print(f"cores         {cores}")
        for r in range(a.rounds):
            if a.wait_idle:
                wait_idle(a.wait_idle)
            line = []
            clean = True
            for w in (1, a.workers):
                dt, cpu, others, out = timed_run(
                    a.python, simulate_args(a.encounter, a.battles, w, a.chunk), cwd)
                times[w].append(dt)
                cpus[w].append(cpu)
                outputs.add(out)
                clean = clean and others < cores - w + IDLE  # it had its w cores to itself
                line.append(f"workers {w} {dt:6.2f} s, cpu {cpu:6.2f} s (others {others:.2f} cores)")
            part = simulate_args(a.encounter, a.battles // a.workers, 1, a.chunk)
            apart, others = side_by_side(a.python, part, cwd, a.workers)
            ceilings.append(times[1][-1] / apart)
            line.append(f"{a.workers} x workers 1 side by side {apart:6.2f} s (others {others:.2f} cores)")
            ratios.append(times[1][-1] / times[a.workers][-1])
            if clean and others < cores - a.workers + IDLE:
                idle_ratios.append(ratios[-1])
            print(f"round {r + 1}       " + "  ".join(line) + f"  speed-up {ratios[-1]:.2f}x "
                  f"(ceiling {ceilings[-1]:.2f}x)", flush=True)
    for w in (1, a.workers):
        med = statistics.median(times[w])
        print(f"workers {w}     {a.battles / med:,.0f} battles/s (median {med:.2f} s wall, "
              f"{statistics.median(cpus[w]):.2f} s cpu)")
    print(f"speed-up      {statistics.median(ratios):.2f}x (median of {a.rounds} rounds, "
          f"workers {a.workers} vs 1)")
    print(f"ceiling       {statistics.median(ceilings):.2f}x ({a.workers} independent `--workers 1` "
          f"commands of {a.battles // a.workers} battles side by side: what this machine allows)")
    idle = f"{statistics.median(idle_ratios):.2f}x" if idle_ratios else "none"
    print(f"idle rounds   {len(idle_ratios)} of {a.rounds} (every run had its cores: the other "
          f"processes used under {IDLE} of them): speed-up {idle}")
    extra = statistics.median(cpus[a.workers]) / statistics.median(cpus[1]) - 1
    print(f"cpu overhead  {100 * extra:+.1f}% (cpu seconds of workers {a.workers} vs 1: the pool, and "
          f"the cores slowing each other; hardly moved by load)")
    print(f"output        {'identical' if len(outputs) == 1 else 'DIFFERS'} (--json, every run)")


if __name__ == "__main__":
    main()
