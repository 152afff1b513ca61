"""A content pack as committed in git (``gcs compare --git REV``): its files at a revision,
written to a directory of their own, so the committed pack and the one on disk can be compared."""

from __future__ import annotations

import io
import subprocess
import tarfile
from pathlib import Path

from ..errors import GameError


class GitPackError(GameError):
    """A pack that cannot be read from git (not in a work tree, an unknown revision, ...)."""


def _git(cwd: Path, *args: str) -> bytes:
    try:
        done = subprocess.run(["git", "-C", str(cwd), *args], capture_output=True, check=False,
                              timeout=120)
    except FileNotFoundError:
        raise GitPackError("--git needs the git command on PATH") from None
    except subprocess.TimeoutExpired:
        raise GitPackError(f"git {args[0]} took over 2 minutes in {cwd}") from None
    if done.returncode != 0:
        why = " ".join(done.stderr.decode("utf-8", "replace").split()) or f"exit {done.returncode}"
        raise GitPackError(f"git {args[0]} in {cwd}: {why}")
    return done.stdout


def pack_at(pack: Path, rev: str, into: Path) -> tuple[Path, str]:
    """Write the files of the pack directory ``pack`` as committed at ``rev`` under ``into``;
    return the directory that holds them and the commit's short hash."""
    pack = pack.resolve()
    if not pack.is_dir():
        raise GitPackError(f"--git: {pack} is not a pack directory")
    if rev.startswith("-"):
        raise GitPackError(f"--git {rev!r}: not a revision")
    try:
        top = Path(_git(pack, "rev-parse", "--show-toplevel").decode().strip()).resolve()
    except GitPackError as exc:
        raise GitPackError(f"--git: {pack} is not in a git work tree ({exc})") from None
    try:
        sha = _git(top, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}").decode().strip()
    except GitPackError:
        raise GitPackError(f"--git {rev!r}: no such commit in {top}") from None
    short = sha[:10]
    rel = pack.relative_to(top).as_posix()
    listed = _git(top, "ls-tree", "-r", "--name-only", sha, "--", rel or ".")
    if not listed.strip():
        raise GitPackError(f"--git {rev}: the pack {rel or top.name} has no files at {short}")
    data = _git(top, "archive", "--format=tar", sha, "--", rel or ".")
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into / rel, short
