"""The Ray backend (``--backend ray``) on a local Ray instance started here once
(``ray.init(num_cpus=2)``): the same chunks as the local process pool, the same rows and the
same numbers, for any number of workers."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
import ray

from gcs.cli import main
from gcs.sim.backends import ProcessPool, RayBackend
from gcs.sim.jobs import Job
from gcs.sim.results import read_rows
from gcs.sim.sweep import Sweep, run_sweep

JOBS = (Job(None, "jaw_worm", "random", 3, None, None), Job(None, "two_louses", "greedy", 3, None, None))
SWEEP = Sweep(JOBS, 40, chunk=15)


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    try:
        yield
    finally:
        ray.shutdown()


def test_ray_gives_the_rows_of_the_process_pool(local_ray: None, tmp_path: Path) -> None:
    pool = ProcessPool(2)
    try:
        want = run_sweep(SWEEP, pool, out=tmp_path / "pool.csv")
    finally:
        pool.close()
    for workers in (1, 2, 3):
        be = RayBackend(workers=workers)
        assert not be.owned  # the instance is this test's: the backend leaves it running
        got = run_sweep(SWEEP, be, out=tmp_path / f"ray{workers}.csv")
        be.close()
        assert ray.is_initialized()
        assert [s.to_dict() for s in got] == [s.to_dict() for s in want]
        assert (tmp_path / f"ray{workers}.csv").read_bytes() == (tmp_path / "pool.csv").read_bytes()
    assert len(list(read_rows(tmp_path / "pool.csv"))) == 80


def test_ray_cli_output_is_identical_to_the_local_pool(
        local_ray: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--encounter", "cultist", "--battles", "30", "--seed", "9", "--chunk",
            "8", "--json"]
    assert main([*args, "--workers", "2", "--out", str(tmp_path / "a.jsonl")]) == 0
    local = json.loads(capsys.readouterr().out)
    assert main([*args, "--backend", "ray", "--out", str(tmp_path / "b.jsonl")]) == 0
    remote = json.loads(capsys.readouterr().out)
    assert remote == local and local["battles"] == 30
    assert (tmp_path / "a.jsonl").read_text() == (tmp_path / "b.jsonl").read_text()


def test_ray_compare_is_identical_to_the_local_pool(local_ray: None, tmp_path: Path) -> None:
    from gcs.sim.compare import Arm, Plan, run_compare

    base = Arm("starter deck", "baseline", None, None, "greedy")
    plan = Plan((base, Arm("+carnage", "deck", None, ("strike",) * 5 + ("defend",) * 4
                           + ("bash", "carnage"), "greedy")), ("gremlin_nob", "jaw_worm"), 2, 30,
                chunk=7, until=0.3)
    pool = ProcessPool(2)
    try:
        want = run_compare(plan, pool, out=tmp_path / "pool.jsonl").to_dict()
    finally:
        pool.close()
    be = RayBackend(workers=2)
    got = run_compare(plan, be, out=tmp_path / "ray.jsonl").to_dict()
    be.close()
    assert got == want and want["battles"] >= 7
    assert (tmp_path / "ray.jsonl").read_bytes() == (tmp_path / "pool.jsonl").read_bytes()
