"""Without the gym extra: ``import gcs.env`` works, the env modules name the install command,
and the engine core never imports gymnasium or numpy."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import gymnasium

import gcs.env


def _run(code: str) -> str:
    flags = ["-P"] if sys.flags.safe_path else []  # the compiled pass: keep its sys.path
    r = subprocess.run([sys.executable, *flags, "-c", textwrap.dedent(code)], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_without_the_extra_gcs_env_imports_and_the_env_names_the_install_command() -> None:
    out = _run("""
        import sys
        sys.modules["gymnasium"] = None  # as if the extra were not installed
        sys.modules["numpy"] = None
        import gcs.env
        assert gcs.env.TASKS and "gcs/JawWorm-v0" in [t.id for t in gcs.env.TASKS]
        from gcs import GameError
        for mod in ("gcs.env.gym", "gcs.env.vector"):
            try:
                __import__(mod)
            except gcs.env.MissingExtraError as exc:
                assert isinstance(exc, ImportError) and isinstance(exc, GameError)
                print(exc)
            else:
                raise AssertionError(mod + " imported without gymnasium")
    """)
    lines = out.splitlines()
    assert len(lines) == 2
    assert all("pip install 'gcs[gym]'" in line for line in lines)


def test_importing_gcs_env_registers_every_task() -> None:
    for t in gcs.env.TASKS:
        spec = gymnasium.spec(t.id)
        assert spec.entry_point == "gcs.env.gym:GcsEnv"
        assert spec.vector_entry_point == "gcs.env.vector:GcsVectorEnv"


def test_the_engine_core_imports_neither_gymnasium_nor_numpy() -> None:
    out = _run("""
        import sys
        import gcs
        from gcs.sim.policies import RandomPolicy
        from gcs.sim.runner import play_battle
        g = gcs.Game(gcs.builtin_content(), seed=1)
        play_battle(g, "jaw_worm", RandomPolicy(1))
        print(sorted(m for m in sys.modules if m.split(".")[0] in ("gymnasium", "numpy")))
    """)
    assert out.strip() == "[]"
