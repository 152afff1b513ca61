"""The report page: plotly figures in one HTML file with plotly.js inlined (works offline).

"Offline" here means: the page loads no resource from the network. Nothing outside the
inlined plotly.js bundle names an http(s) URL, and the bundle is plotly's own offline build
(``plotly.offline.get_plotlyjs()``), whose URL strings are XML namespaces, licence comments,
and map tile and font addresses that only map traces would fetch (this report has none).
"""

from __future__ import annotations

import html
import json
import shlex
from pathlib import Path
from typing import Any

from ..errors import GameError
from .aggregate import Aggregate, GroupStats
from .colours import MAX_DISTINCT, distinct
from .page import policy_line

#: The chart ids of a report, in page order.
CHARTS = ("chart-winrate", "chart-turns", "chart-hp", "chart-plays", "chart-damage",
          "chart-block", "chart-card-winrate")
_CONFIG = {"displaylogo": False, "responsive": True}


class ReportError(GameError):
    """A report that cannot be made (plotly missing, no rows)."""


def _plotly() -> Any:
    try:
        import plotly.graph_objects as go
    except ImportError as exc:
        raise ReportError("the report needs plotly: pip install 'gcs[report]'") from exc
    return go


HP_BIN = 5


def _colour(i: int) -> str:
    """Series ``i``'s colour: plotly's ten, then more, each different (``colours.distinct``)."""
    return distinct(MAX_DISTINCT)[i % MAX_DISTINCT]


def _hist(counts: dict[int, int], width: int = 1) -> tuple[list[float], list[float]]:
    """Shares of battles per bin of ``width`` (x: the bin's centre)."""
    n = max(1, sum(counts.values()))
    bins: dict[int, int] = {}
    for k, v in counts.items():
        b = k // width * width
        bins[b] = bins.get(b, 0) + v
    keys = sorted(bins)
    return [k + (width - 1) / 2 for k in keys], [bins[k] / n for k in keys]


def _err(values: list[float | None], cis: list[tuple[float, float]]) -> dict[str, Any]:
    up = [(hi - v) if v is not None else 0.0 for v, (_, hi) in zip(values, cis, strict=True)]
    down = [(v - lo) if v is not None else 0.0 for v, (lo, _) in zip(values, cis, strict=True)]
    return {"type": "data", "symmetric": False, "array": up, "arrayminus": down}


def figures(agg: Aggregate) -> list[tuple[str, str, Any]]:
    """(chart id, title, plotly figure) for every chart of the report."""
    go = _plotly()
    groups = list(agg.groups.values())
    labels = [g.label for g in groups]
    layout = {"template": "plotly_white", "height": 420, "margin": {"t": 60, "b": 60},
              "barmode": "group", "legend": {"orientation": "h", "y": -0.2}}
    out: list[tuple[str, str, Any]] = []

    rates = [g.win_rate() for g in groups]
    fig = go.Figure(go.Bar(x=labels, y=[r[0] for r in rates], name="win rate",
                           error_y=_err([r[0] for r in rates], [(r[1], r[2]) for r in rates]),
                           text=[f"{r[0]:.1%}" for r in rates], textposition="inside",
                           insidetextanchor="middle",
                           marker={"color": [_colour(i) for i in range(len(groups))]},
                           customdata=[[g.battles, g.wins] for g in groups],
                           hovertemplate="%{x}<br>win rate %{y:.2%}<br>%{customdata[1]} of "
                                         "%{customdata[0]} won<extra></extra>"))
    fig.update_layout(title="Win rate (95% Wilson interval)", yaxis={"tickformat": ".0%",
                      "range": [0, 1.05]}, **layout)
    out.append((CHARTS[0], "Win rate", fig))

    for cid, title, attr, width, axis in (
            (CHARTS[1], "Turns per battle", "turns", 1, "turns"),
            (CHARTS[2], "HP left when won", "hp_left_won", HP_BIN, f"HP left ({HP_BIN}-HP bins)")):
        fig = go.Figure()
        for i, g in enumerate(groups):
            x, y = _hist(getattr(g, attr), width)
            fig.add_trace(go.Bar(x=x, y=y, name=g.label, marker={"color": _colour(i)}))
        fig.update_layout(title=f"{title} (share of battles)", yaxis={"tickformat": ".0%"},
                          xaxis={"title": axis}, **layout)
        out.append((cid, title, fig))

    for cid, title, key in ((CHARTS[3], "Plays per battle, by card", "plays_per_battle"),
                            (CHARTS[4], "Damage per battle, by card", "damage_per_battle"),
                            (CHARTS[5], "Block gained per battle, by card", "block_per_battle")):
        fig = go.Figure()
        for i, g in enumerate(groups):
            rows = g.card_rows()
            fig.add_trace(go.Bar(x=[r["card"] for r in rows], y=[r[key] for r in rows],
                                 name=g.label, marker={"color": _colour(i)}))
        fig.update_layout(title=title, **layout)
        out.append((cid, title, fig))

    fig = go.Figure()
    for i, g in enumerate(groups):
        rows = g.card_rows()
        cards = [r["card"] for r in rows]
        for which, name in (("played", "played"), ("not_played", "not played")):
            vals = [r[f"win_rate_{which}"] for r in rows]
            fig.add_trace(go.Bar(
                x=cards, y=[v if v is not None else 0 for v in vals],
                marker={"color": _colour(i), "pattern": {"shape": "" if which == "played" else "/"},
                        "opacity": 1.0 if which == "played" else 0.55},
                name=f"{g.label}: {name}" if len(groups) > 1 else name,
                error_y=_err(vals, [r[f"ci_{which}"] for r in rows]),
                customdata=[r[f"battles_{which}"] for r in rows],
                hovertemplate="%{x}: win rate %{y:.2%} in %{customdata} battles<extra>"
                              + name + "</extra>"))
    fig.update_layout(title="Win rate when the card was played vs not played (95% intervals)",
                      yaxis={"tickformat": ".0%", "range": [0, 1.05]}, **layout)
    out.append((CHARTS[6], "Win rate when played vs not played", fig))
    return out


def _table(groups: list[GroupStats]) -> str:
    head = ("encounter", "deck", "battles", "wins", "win rate", "95% interval", "mean turns",
            "mean HP left (won)", "mean damage taken", "unfinished")
    lines = ["<table class='summary'><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr>"]
    for g in groups:
        rate, lo, hi = g.win_rate()
        n_t = sum(g.turns.values())
        mean_turns = sum(k * v for k, v in g.turns.items()) / max(1, n_t)
        n_h = sum(g.hp_left_won.values())
        mean_hp = sum(k * v for k, v in g.hp_left_won.items()) / max(1, n_h)
        cells = (g.encounter, g.deck or "starter", g.battles, g.wins, f"{rate:.1%}",
                 f"{lo:.1%} - {hi:.1%}", f"{mean_turns:.2f}", f"{mean_hp:.1f}",
                 f"{g.damage_taken / max(1, g.battles):.1f}", g.unfinished)
        lines.append("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in cells) + "</tr>")
    return "\n".join([*lines, "</table>"])


def _card_table(g: GroupStats, played: bool = False) -> str:
    """Per card: plays, damage and block per battle; ``played``: the win rates when played and
    not."""
    head = ("card", "win rate played", "win rate not played") if played else \
        ("card", "plays", "plays/battle", "damage/battle", "block/battle")

    def rate(v: float | None, ci: tuple[float, float], n: int) -> str:
        return "-" if v is None else f"{v:.1%} [{ci[0]:.1%}, {ci[1]:.1%}] (n={n})"

    lines = [f"<h3>{html.escape(g.label)}</h3><table class='cards'><tr>"
             + "".join(f"<th>{h}</th>" for h in head) + "</tr>"]
    for r in g.card_rows():
        cells = (r["card"], rate(r["win_rate_played"], r["ci_played"], r["battles_played"]),
                 rate(r["win_rate_not_played"], r["ci_not_played"], r["battles_not_played"])) \
            if played else (r["card"], r["plays"], f"{r['plays_per_battle']:.2f}",
                            f"{r['damage_per_battle']:.2f}", f"{r['block_per_battle']:.2f}")
        lines.append("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in cells) + "</tr>")
    return "\n".join([*lines, "</table>"])


#: The one-line caveat over the "played vs not played" win rates.
CAVEAT = ("A correlation, not a card's value: which battles a card gets played in skews these "
          "win rates (a card played in long battles looks worse, and every card sits at 100% on "
          "an easy fight). For what a card is worth, run gcs compare --add/--remove/--upgrade.")


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 24px; color: #222; }
table { border-collapse: collapse; margin: 8px 0 24px; font-size: 14px; }
th, td { border: 1px solid #ddd; padding: 4px 8px; text-align: right; }
th:first-child, td:first-child { text-align: left; }
table.notable td:last-child { text-align: left; }
table.summary td:nth-child(2), table.summary th:nth-child(2) { text-align: left; }
th { background: #f4f4f4; }
.chart { min-height: 420px; margin-bottom: 16px; }
p.run { background: #f6f6fa; padding: 6px 10px; border-left: 4px solid #636efa; }
p.caveat { color: #8a5a00; }
"""


def _notable_table(groups: list[GroupStats], rows: Path | None) -> str:
    """Per group, the battles worth a look, each with the command that opens it in the monitor
    (the rows file's path as given; without one, how to get it)."""
    out = ["<h2>Battles to look at</h2>"]
    if rows is None:
        out.append("<p>Write the rows with <code>gcs simulate ... --out rows.csv</code> to open "
                   "these battles: each row's command is then listed here.</p>")
    head = ("why", "row", "battle", "result", "turns", "HP left", "open it")
    for g in groups:
        out.append(f"<h3>{html.escape(g.label)}</h3><table class='notable'><tr>"
                   + "".join(f"<th>{h}</th>" for h in head) + "</tr>")
        for r in g.notable_rows():
            cmd = (f"gcs monitor --from {shlex.quote(str(rows))} --row {r['row']}"
                   if rows is not None else "")
            cells = (r["why"], r["row"], r["battle"], "won" if r["won"] else "lost", r["turns"],
                     r["hp_left"])
            out.append("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in cells)
                       + f"<td><code>{html.escape(cmd)}</code></td></tr>")
        out.append("</table>")
    return "\n".join(out)


def render(agg: Aggregate, title: str, rows: Path | None = None) -> str:
    """The whole page as one string (``rows``: the results file, for the commands to open a
    battle of it)."""
    if not agg.groups:
        raise ReportError("no battles to report (the results file has no rows)")
    import plotly.offline

    groups = list(agg.groups.values())
    parts: list[str] = []
    correlation: list[str] = []
    for cid, _, fig in figures(agg):
        div = fig.to_html(full_html=False, include_plotlyjs=False, div_id=cid, config=_CONFIG,
                          default_height="420px")
        (correlation if cid == CHARTS[6] else parts).append(
            f"<div class='chart' data-chart='{cid}'>{div}</div>")
    data = json.dumps({"battles": agg.battles, "groups": [g.to_dict() for g in groups]},
                      separators=(",", ":")).replace("</", "<\\/")
    return "\n".join([
        "<!DOCTYPE html>", "<html lang='en'><head><meta charset='utf-8'>",
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style>",
        f"<script>{plotly.offline.get_plotlyjs()}</script>",
        "</head><body>",
        f"<h1>{html.escape(title)}</h1>",
        *[policy_line(p) for p in agg.policies],
        f"<p>{agg.battles} battles in {len(groups)} group(s) (encounter x deck). Intervals are "
        "95% Wilson score intervals.</p>",
        _table(groups),
        *parts,
        "<h2>Cards</h2>",
        *[_card_table(g) for g in groups],
        _notable_table(groups, rows),
        "<h2>Win rate when a card was played vs not played</h2>",
        f"<p class='caveat'>{html.escape(CAVEAT)}</p>",
        *correlation,
        *[_card_table(g, played=True) for g in groups],
        f"<script type='application/json' id='gcs-report-data'>{data}</script>",
        "</body></html>",
    ])
