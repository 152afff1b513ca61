"""Many Act 1 runs with a policy: one summary row per run, one results row per battle.

The battle rows have ``simulate``'s columns (docs/simulation.md), so its results files, the
report and ``compare`` read them: ``job`` is the run, ``battle`` the run's fight number, ``seed``
the run's seed and ``deck`` the master deck as the fight began. Runs are seeded from
``(seed, run index)`` and played in chunks, so the rows never depend on the worker count.
"""

from __future__ import annotations

from typing import Any

from ..errors import GameError, PolicyError
from ..report.stats import wilson
from ..rng import derive
from ..sim.jobs import pack_of
from ..sim.policies import make_policy
from ..sim.rowcheck import Row
from .play import play_act, run_rule
from .run import ActRun

RUN_COLUMNS = ("run", "seed", "policy", "won", "floor", "hp", "max_hp", "gold", "cause",
               "boss", "path", "fights", "unfinished", "deck")


def run_seed(seed: int, index: int) -> int:
    """The seed of run ``index`` of a batch seeded with ``seed``."""
    return derive(seed, f"run#{index}")


def play_runs(pack: str | None, policy_name: str, seed: int, start: int, stop: int,
              character: str | None = None) -> list[tuple[dict[str, Any], list[Row]]]:
    """Runs ``start..stop-1``: each run's summary row and its battle rows."""
    content = pack_of(pack)
    out: list[tuple[dict[str, Any], list[Row]]] = []
    for i in range(start, stop):
        rs = run_seed(seed, i)
        where = f"run {i} (seed {rs}, policy {policy_name!r})"
        try:
            policy = make_policy(policy_name, derive(seed, f"policy#{i}"))
            run = ActRun(content, rs, character=character)
            summary = play_act(run, policy, run_rule(policy_name, policy))
        except PolicyError as exc:
            raise PolicyError(f"{where}: {exc}") from None
        except ValueError as exc:
            raise PolicyError(f"{where}: {exc}") from None
        except GameError as exc:
            raise GameError(f"{where}: {type(exc).__name__}: {exc}") from None
        row = {"run": i, "seed": rs, "policy": policy_name, **summary,
               "deck": ",".join(summary["deck"])}
        battles: list[Row] = []
        for n, f in enumerate(run.fights):
            battles.append({
                "job": i, "encounter": f.encounter, "deck": f.deck, "policy": policy_name,
                "character": character or "", "pack": content.pack_id, "sweep_seed": seed,
                "battle": n, "seed": rs, "won": f.won, "unfinished": f.unfinished,
                "turns": f.turns, "hp_left": f.hp_after if f.won else 0,
                "damage_taken": max(0, f.hp_before - f.hp_after), "actions": f.decisions,
                "plays": f.plays, "damage": f.damage, "block": f.block})
        out.append(({k: row[k] for k in RUN_COLUMNS}, battles))
    return out


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Win rate (Wilson 95%), mean floor reached (+- 1.96 standard errors), causes of death."""
    n = len(rows)
    wins = sum(1 for r in rows if r["won"])
    floors = [r["floor"] for r in rows]
    mean = sum(floors) / n if n else 0.0
    var = sum((f - mean) ** 2 for f in floors) / (n - 1) if n > 1 else 0.0
    half = 1.96 * (var / n) ** 0.5 if n else 0.0
    causes: dict[str, int] = {}
    for r in rows:
        if not r["won"]:
            causes[r["cause"]] = causes.get(r["cause"], 0) + 1
    lo, hi = wilson(wins, n)
    return {"runs": n, "wins": wins, "win_rate": round(wins / n, 4) if n else 0.0,
            "win_rate_95": [round(lo, 4), round(hi, 4)], "mean_floor": round(mean, 3),
            "mean_floor_95": [round(mean - half, 3), round(mean + half, 3)],
            "causes": dict(sorted(causes.items(), key=lambda kv: (-kv[1], kv[0])))}
