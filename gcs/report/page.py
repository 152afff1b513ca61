"""What every report page says about how its battles were played: the policy and its budget."""

from __future__ import annotations

import html


def policy_budget(policy: str) -> str:
    """What a policy spec says of its search budget: ``search:iters=200`` -> ``iters=200``;
    none for a policy that decides from the state in front of it (random, greedy)."""
    name, sep, args = policy.partition(":")
    if sep and "=" in args:
        return args
    return "none: it decides from the current state alone" if name in ("random", "greedy") \
        else "as the policy sets it"


def policy_line(policy: str, extra: str = "") -> str:
    """The page's line naming the policy and its budget (``extra``: more of the run, as HTML)."""
    return (f"<p class='run'><b>Policy</b> <code>{html.escape(policy)}</code> (search budget: "
            f"{html.escape(policy_budget(policy))}){extra}</p>")
