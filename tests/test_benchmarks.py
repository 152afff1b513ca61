"""The benchmark scripts run and print their stable lines (no timing is asserted: speed is read
from their output, never tested), and the state-size helper counts the state, not the content."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"


def run(script: str, *args: str) -> list[str]:
    done = subprocess.run([sys.executable, str(BENCH / script), *args], capture_output=True,
                          text=True, check=True, timeout=300)
    return done.stdout.splitlines()


def labels(lines: list[str]) -> list[str]:
    return [line.split("  ")[0] for line in lines if not line.startswith(" ")]


def test_bench_battle_prints_its_lines_in_order_with_the_state_size() -> None:
    lines = run("bench_battle.py", "--battles", "4", "--repeat", "2")
    assert labels(lines) == ["workload", "engine", "battles", "battles/s", "decisions/s",
                             "battles/s", "apply/s", "clone", "state size", "rounds", "clone"]
    size = next(line for line in lines if line.startswith("state size"))
    assert int(size.split()[2].replace(",", "")) > 1000
    assert lines[-2].startswith("rounds        2: ")
    assert lines[-1].endswith("us (default Game after 1,000 calls: its deferred calls are shared)")


def test_bench_battle_plays_a_pack_directory_for_an_engine_only_comparison() -> None:
    # (--pack: one workload for two engine versions; the bundled pack's directory plays the
    # same battles as the bundled pack)
    pack = str(Path(__file__).resolve().parent.parent / "gcs" / "data" / "ironclad")
    own = run("bench_battle.py", "--battles", "6", "--repeat", "1")
    lines = run("bench_battle.py", "--battles", "6", "--repeat", "1", "--pack", pack)
    assert lines[0] == own[0] + f", pack {pack}"
    assert lines[2] == own[2]  # battles N (W won): the same battles


def test_profile_battle_splits_the_time_into_phases_modules_and_functions() -> None:
    lines = run("profile_battle.py", "--battles", "3", "--top", "4")
    assert labels(lines) == ["workload", "engine", "phases", "modules", "functions"]
    phases = [line.split()[0:2] for line in lines[3:11]]
    assert [" ".join(p).split(" ")[0] for p in phases] == [
        "new", "start", "legal", "policy", "apply:", "apply:", "apply:", "loop"]
    shares = [float(line.split("%")[0].split()[-1]) for line in lines[3:11]]
    assert abs(sum(shares) - 100) < 0.5  # the phases account for the whole measured time
    assert len(lines) == 11 + 1 + 4 + 1 + 4


def test_bench_workers_compares_the_outputs_of_both_runs() -> None:
    lines = run("bench_workers.py", "--battles", "30", "--rounds", "1", "--chunk", "7")
    assert labels(lines) == ["workload", "engine", "cores", "round 1", "workers 1", "workers 2",
                             "speed-up", "ceiling", "idle rounds", "cpu overhead", "output"]
    assert lines[-1] == "output        identical (--json, every run)"


def test_bench_compare_prints_the_battles_each_way_and_the_saving() -> None:
    lines = run("bench_compare.py", "--seeds", "1", "--until", "20", "--chunk", "20",
                "--workers", "1", "--encounter", "jaw_worm", "--deck=-defend")
    each = ["shuffle", "seed 1", "seed 1", "battles", "saving", "variances"]
    assert labels(lines) == ["workload", "engine", *each, *each]  # Fisher-Yates, then keyed
    assert lines[2].endswith("fisher-yates") and lines[8].endswith("keyed (--keyed-shuffle)")
    for at in (3, 9):
        assert "paired" in lines[at] and "unpaired" in lines[at + 1] and "(reached)" in lines[at]
        assert lines[at + 3].startswith("saving ")
        assert lines[at + 3].endswith("x fewer battles paired")


def test_bench_compare_fixed_prints_the_widths_the_bound_and_the_savings() -> None:
    lines = run("bench_compare.py", "--fixed", "20", "--chunk", "20", "--workers", "1",
                "--encounter", "jaw_worm", "--deck=-defend", "--shuffle", "keyed",
                "--policy", "random")
    assert labels(lines) == ["workload", "engine", "shuffle", "paired", "unpaired", "bound",
                             "saving"]
    assert "--battles 20" in lines[0] and lines[2].endswith("keyed (--keyed-shuffle)")
    # seeded: the same battles every run (95% -> 85% wins), so the bound is a known number
    p2, p1 = 0.95, 0.85
    best = (p1 * (1 - p1) + p2 * (1 - p2)) / (0.1 * 0.9)
    assert "(win rates 95.0% -> 85.0%)" in lines[3]
    assert lines[5].startswith(f"bound         win rate: at most {best:.2f}x for any coupling")
    assert re.findall(r"(\w+) \([\d.]+ / [\d.]+\)\^2 = [\d.]+x", lines[6]) == [
        "win_rate", "hp_left", "turns"]
