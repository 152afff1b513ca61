"""Content loading benchmark: a generated 5,000-card pack, loaded cold (parse + compile) and warm
(compiled cache hit). Targets: cold < 2 s, warm < 0.2 s.

    python benchmarks/bench_load.py [--cards N] [--repeat R]

Output (stable wording, one line each):
    pack: 5000 cards, 1419 KB of YAML in 3 files
    cold load (parse + compile): 0.912 s (target < 2 s)
    warm load (compiled cache):  0.081 s (target < 0.2 s)
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gcs.content.loader import load_content

_KINDS = (
    # (type, target, numbers, on_play lines, upgrade numbers)
    ("attack", "single_enemy", {"damage": 6}, ["deal $damage"], {"damage": 9}),
    ("attack", "single_enemy", {"damage": 8, "vuln": 2},
     ["deal $damage", "apply vulnerable $vuln"], {"damage": 10, "vuln": 3}),
    ("skill", "self", {"block": 5}, ["block $block"], {"block": 8}),
    ("attack", "all_enemies", {"damage": 4, "weak": 1},
     ["deal $damage", "apply weak $weak"], {"damage": 7}),
    ("skill", "none", {"cards": 2},
     ["draw $cards", "choose: {from: hand, as: picked, then: [exhaust $picked]}"], {"cards": 3}),
    ("power", "self", {"strength": 2}, ["apply strength $strength"], {"strength": 3}),
)


def write_pack(root: Path, n: int) -> int:
    """A pack of ``n`` cards (plus the statuses they name); returns the YAML size in bytes."""
    (root / "pack.yaml").write_text("id: bench\nname: Generated benchmark pack\n")
    (root / "statuses.yaml").write_text(
        "strength: {allow_negative: true, modifiers: ['deal +stacks']}\n"
        "vulnerable: {debuff: true, decay: minus_one, modifiers: ['take *3/2']}\n"
        "weak: {debuff: true, decay: minus_one, modifiers: ['deal *3/4']}\n")
    out = []
    for i in range(n):
        ctype, target, numbers, lines, upgrade = _KINDS[i % len(_KINDS)]
        nums = ", ".join(f"{k}: {v + i % 5}" for k, v in numbers.items())
        ups = ", ".join(f"{k}: {v + i % 5}" for k, v in upgrade.items())
        words = " ".join("{" + k + "}" for k in numbers)
        body = "".join(f"    - {line}\n" for line in lines)
        out.append(
            f"card_{i:05d}:\n"
            f"  name: Card {i}\n"
            f"  cost: {i % 3}\n"
            f"  type: {ctype}\n"
            f"  rarity: {('common', 'uncommon', 'rare')[i % 3]}\n"
            f"  target: {target}\n"
            f"  numbers: {{{nums}}}\n"
            f"  text: \"Numbers: {words}.\"\n"
            f"  on_play:\n{body}"
            f"  upgrade:\n"
            f"    numbers: {{{ups}}}\n")
    text = "".join(out)
    (root / "cards.yaml").write_text(text)
    return sum(p.stat().st_size for p in root.iterdir())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cards", type=int, default=5000)
    ap.add_argument("--repeat", type=int, default=3, help="warm loads to time (best is shown)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        pack, cache = Path(tmp) / "pack", Path(tmp) / "cache"
        pack.mkdir()
        os.environ["GCS_CACHE_DIR"] = str(cache)
        size = write_pack(pack, args.cards)
        print(f"pack: {args.cards} cards, {size // 1024} KB of YAML in 3 files")
        t0 = time.perf_counter()
        content = load_content(pack)
        cold = time.perf_counter() - t0
        assert len(content.cards) == args.cards
        warm = float("inf")
        for _ in range(max(1, args.repeat)):
            t0 = time.perf_counter()
            again = load_content(pack)
            warm = min(warm, time.perf_counter() - t0)
        assert again.cards == content.cards
        print(f"cold load (parse + compile): {cold:.3f} s (target < 2 s)")
        print(f"warm load (compiled cache):  {warm:.3f} s (target < 0.2 s)")


if __name__ == "__main__":
    main()
