"""The ``gcs`` command line: simulate, demo, run, record, replay, validate."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from ._version import __version__, engine_kind
from .content.db import Content
from .errors import ContentError, GameError


def _content(pack: str | None) -> Content:
    from .content.loader import pack_content

    return pack_content(pack)


def _cmd_simulate(a: argparse.Namespace) -> int:
    from .sim.simulate import Job, ProgressBar, format_summary, parse_deck, simulate

    job = Job(a.pack, a.encounter, a.policy, a.seed, parse_deck(a.deck), a.character)
    content = _content(a.pack)
    content.encounter(a.encounter)
    bar = None if a.json or a.quiet else ProgressBar(f"{a.encounter}")
    summary = simulate(job, a.battles, workers=a.workers, chunk=a.chunk, progress=bar,
                       content=content if a.workers <= 1 else None)
    if a.json:
        print(json.dumps(dict(summary.to_dict(), encounter=a.encounter, policy=a.policy,
                              seed=a.seed), indent=2))
    else:
        print(format_summary(job, summary, a.workers))
    return 0


def _cmd_demo(a: argparse.Namespace) -> int:
    from .sim.demo import run_demo

    run_demo(_content(a.pack), a.encounter, a.seed, a.policy, sys.stdout)
    return 0


def _cmd_play(a: argparse.Namespace) -> int:
    from .sim.interactive import play_interactive

    play_interactive(_content(a.pack), a.encounter, a.seed, input, sys.stdout)
    return 0


def _cmd_run(a: argparse.Namespace) -> int:
    from .sim.policies import make_policy
    from .sim.runner import play_run

    encs = [x for x in a.encounters.split(",") if x]
    content = _content(a.pack)
    for enc in encs:
        content.encounter(enc)
    r = play_run(content, encs, make_policy(a.policy, a.seed), a.seed, character=a.character)
    for enc, b in zip(encs, r.battles, strict=False):
        print(f"{enc:<20} {'won ' if b.won else 'lost'} in {b.turns:>2} turns, "
              f"{b.hp_left} HP left")
    print(f"run {'WON' if r.won else 'LOST'}: HP {r.hp}/{r.max_hp}, gold {r.gold}, "
          f"deck ({len(r.deck)}): {', '.join(r.deck)}")
    return 0 if r.won else 3


def _cmd_record(a: argparse.Namespace) -> int:
    from .sim.policies import make_policy
    from .sim.replay import record

    content = _content(a.pack)
    data = record(content, a.encounter, a.seed, make_policy(a.policy, a.seed),
                  character=a.character)
    text = json.dumps(data, indent=1)
    if a.out == "-":
        print(text)
    else:
        with open(a.out, "w", encoding="utf-8") as fh:
            fh.write(text + "\n")
        print(f"recorded {len(data['actions'])} actions, "
              f"{'won' if data['won'] else 'lost'} in {data['turns']} turns -> {a.out}")
    return 0


def _cmd_replay(a: argparse.Namespace) -> int:
    from .sim.replay import replay

    try:
        with open(a.file, encoding="utf-8") as fh:
            data = json.load(fh)
    except OSError as exc:
        raise GameError(f"cannot read replay file {a.file}: {exc.strerror or exc}") from exc
    except json.JSONDecodeError as exc:
        raise GameError(f"{a.file} is not valid JSON (line {exc.lineno}, column {exc.colno}): "
                        f"{exc.msg}") from exc
    if not isinstance(data, dict):
        raise GameError(f"{a.file}: a replay file holds a JSON object")
    g = replay(_content(a.pack), data)
    print(f"replay ok: {len(data['actions'])} actions, "
          f"{'won' if g.last_result else 'lost'} in {g.turn_number} turns, state identical")
    return 0


def _cmd_validate(a: argparse.Namespace) -> int:
    from .content.loader import validate_path

    ok, lines = validate_path(a.path)
    for line in lines:
        print(line)
    return 0 if ok else 1


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="gcs", description="GCS card-battle runtime")
    p.add_argument("--version", action="version", version=f"gcs {__version__} ({engine_kind()} engine)")
    sub = p.add_subparsers(dest="cmd", required=True)

    def common(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--pack", default=None, help="content pack directory (default: bundled)")
        sp.add_argument("--seed", type=int, default=1)
        sp.add_argument("--policy", default="random",
                        help="random, greedy, or module:callable (your own policy)")
        sp.add_argument("--character", default=None)

    s = sub.add_parser("simulate", help="run many seeded battles and print statistics")
    common(s)
    s.add_argument("--encounter", required=True)
    s.add_argument("--deck", default=None, help="e.g. strike*5,defend*4,bash")
    s.add_argument("--battles", type=int, default=1000)
    s.add_argument("--workers", type=int, default=1)
    s.add_argument("--chunk", type=int, default=250)
    s.add_argument("--json", action="store_true", help="machine-readable output")
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    s.set_defaults(fn=_cmd_simulate)

    d = sub.add_parser("demo", help="play one battle and print every phase, play and event")
    common(d)
    d.add_argument("--encounter", default="jaw_worm")
    d.set_defaults(fn=_cmd_demo)

    pl = sub.add_parser("play", help="play a battle yourself in the terminal (with the monitor)")
    pl.add_argument("--pack", default=None, help="content pack directory (default: bundled)")
    pl.add_argument("--seed", type=int, default=1)
    pl.add_argument("--encounter", default="jaw_worm")
    pl.set_defaults(fn=_cmd_play)

    r = sub.add_parser("run", help="play a scripted run of encounters on one master deck")
    common(r)
    r.add_argument("--encounters", required=True, help="comma-separated encounter ids")
    r.set_defaults(fn=_cmd_run)

    rec = sub.add_parser("record", help="play one battle and save a replay file")
    common(rec)
    rec.add_argument("--encounter", required=True)
    rec.add_argument("--out", default="-")
    rec.set_defaults(fn=_cmd_record)

    rp = sub.add_parser("replay", help="re-run a replay file and check it ends identically")
    rp.add_argument("file")
    rp.add_argument("--pack", default=None)
    rp.set_defaults(fn=_cmd_replay)

    v = sub.add_parser("validate", help="validate a content pack directory")
    v.add_argument("path")
    v.set_defaults(fn=_cmd_validate)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if hasattr(args, "policy"):
            from .sim.policies import make_policy

            make_policy(args.policy, 0)  # an unknown policy is an error before any battle
        code: int = args.fn(args)
        return code
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except ContentError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    except GameError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
