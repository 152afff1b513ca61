"""The comparison page of ``gcs compare --report``: one offline HTML file (plotly inlined) with
the differences against the baseline, ranked, with their 95% intervals and whether each is
significant, per encounter as heatmaps, and the numbers as embedded JSON."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from ..sim import outfile
from ..sim.outfile import write_text
from . import ReportError as FileError
from .colours import distinct
from .html import ReportError, _plotly
from .page import policy_line

MARK = "id='gcs-compare-data'"  # in every comparison page (the embedded comparison)
#: The chart ids of a comparison page, in page order (the heatmaps only with 2+ encounters).
COMPARE_CHARTS = ("cmp-win-rate", "cmp-hp-left", "cmp-heat-win-rate", "cmp-heat-hp-left")
KINDS = ("add", "remove", "upgrade", "deck", "pack", "policy")
_CONFIG = {"displaylogo": False, "responsive": True}
_METRICS = (("win_rate", "win rate", "pp"), ("turns", "turns", ""), ("hp_left", "HP left", ""),
            ("damage_taken", "damage taken", ""))


def run_line(doc: dict[str, Any]) -> str:
    """The policy and its budget, the battles, the seed, paired or not, and ``until``."""
    how = ("paired: battle k of every arm on the same seeds, so the noise of a difference "
           "mostly cancels") if doc["paired"] else "unpaired: each arm on its own seeds"
    extra = (f" &middot; <b>{doc['battles']}</b> battles per arm and encounter &middot; seed "
             f"{doc['seed']} &middot; {how}")
    u = doc["until"]
    if u is not None:
        extra += (f" &middot; until &plusmn;{u['half_width'] * 100:g} pp: "
                  f"{'reached' if u['reached'] else 'NOT reached'} after {u['battles']} battles")
    return policy_line(doc["policy"], extra)


def _fmt(d: dict[str, Any], metric: str) -> str:
    scale, unit = (100, " pp") if metric == "win_rate" else (1, "")
    mark = " *" if d["significant"] else ""
    return (f"{d['diff'] * scale:+.2f}{unit} [{d['low'] * scale:+.2f}, "
            f"{d['high'] * scale:+.2f}]{mark}")


def _cell(d: dict[str, Any], metric: str) -> str:
    from ..sim.paired import BETTER

    cls = "ns"
    if d["significant"]:
        cls = "better" if d["diff"] * BETTER[metric] > 0 else "worse"
    return f"<td class='{cls}'>{html.escape(_fmt(d, metric))}</td>"


def _table(rows: list[tuple[dict[str, Any], dict[str, Any] | None]], ranked: bool) -> str:
    head = (["#"] if ranked else []) + ["arm", "battles", "win rate (95% CI)"] + \
        [f"&Delta; {label}" for _, label, _ in _METRICS]
    out = ["<table class='cmp'><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr>"]
    for arm, vs in rows:
        lo, hi = arm["win_rate_ci95"]
        cells = ([f"<td>{arm.get('rank', '')}</td>"] if ranked else []) + [
            f"<td class='label'>{html.escape(arm['label'])}</td>", f"<td>{arm['battles']}</td>",
            f"<td>{arm['win_rate']:.1%} [{lo:.1%}, {hi:.1%}]</td>"]
        if vs is None:
            cells += ["<td class='ns'>baseline</td>"] * len(_METRICS)
        else:
            cells += [_cell(vs[m], m) for m, _, _ in _METRICS]
        out.append("<tr>" + "".join(cells) + "</tr>")
    return "\n".join([*out, "</table>"])


def _forest(doc: dict[str, Any], metric: str, title: str, scale: float) -> Any:
    """Each variant's difference with its interval, best at the top: one colour per kind of
    variant, a filled marker where the difference is significant, an open one where not."""
    go = _plotly()
    variants = sorted(doc["variants"], key=lambda v: -v["rank"])  # plotly draws y bottom-up
    kinds = [k for k in KINDS if any(v["kind"] == k for v in variants)]
    colours = dict(zip(kinds, distinct(len(kinds)), strict=True))
    fig = go.Figure()
    for kind in kinds:
        mine = [v for v in variants if v["kind"] == kind]
        ds = [v["vs_baseline"][metric] for v in mine]
        fig.add_trace(go.Scatter(
            x=[d["diff"] * scale for d in ds], y=[v["label"] for v in mine], mode="markers",
            name=kind, marker={"color": colours[kind], "size": 9, "symbol": [
                "circle" if d["significant"] else "circle-open" for d in ds]},
            error_x={"type": "data", "symmetric": False, "color": colours[kind],
                     "array": [(d["high"] - d["diff"]) * scale for d in ds],
                     "arrayminus": [(d["diff"] - d["low"]) * scale for d in ds]},
            customdata=[["significant" if d["significant"] else "not significant",
                         d["low"] * scale, d["high"] * scale] for d in ds],
            hovertemplate="%{y}: %{x:+.2f} [%{customdata[1]:+.2f}, %{customdata[2]:+.2f}] "
                          "(%{customdata[0]})<extra>" + kind + "</extra>"))
    fig.add_vline(x=0, line={"color": "#444", "width": 1})
    fig.update_layout(title=title, template="plotly_white",
                      height=160 + 22 * len(variants), margin={"t": 60, "l": 160},
                      yaxis={"categoryorder": "array", "categoryarray": [v["label"] for v in variants]},
                      legend={"orientation": "h", "y": 1.02, "x": 1, "xanchor": "right",
                              "yanchor": "bottom"})
    return fig


def _heatmap(doc: dict[str, Any], metric: str, title: str, scale: float) -> Any:
    """Variants x encounters: the difference per encounter (``*``: significant)."""
    go = _plotly()
    variants = sorted(doc["variants"], key=lambda v: -v["rank"])
    encs = doc["encounters"]
    cells = [[v["encounters"][e]["vs_baseline"][metric] for e in encs] for v in variants]
    z = [[d["diff"] * scale for d in row] for row in cells]
    text = [[f"{d['diff'] * scale:+.1f}{'*' if d['significant'] else ''}" for d in row]
            for row in cells]
    fig = go.Figure(go.Heatmap(
        z=z, x=encs, y=[v["label"] for v in variants], text=text, texttemplate="%{text}",
        colorscale="RdBu", zmid=0, colorbar={"title": "Δ"},
        hovertemplate="%{y} on %{x}: %{text}<extra></extra>"))
    fig.update_layout(title=title, template="plotly_white",
                      height=180 + 22 * len(variants), margin={"t": 60, "l": 160})
    return fig


def figures(doc: dict[str, Any]) -> list[tuple[str, Any]]:
    """(chart id, plotly figure) for every chart of the page."""
    scope = "all encounters" if len(doc["encounters"]) > 1 else doc["encounters"][0]
    out = [(COMPARE_CHARTS[0], _forest(doc, "win_rate", f"Δ win rate against the baseline, "
                                       f"pp ({scope}; bars: 95% interval; filled: significant)",
                                       100)),
           (COMPARE_CHARTS[1], _forest(doc, "hp_left", f"Δ HP left per battle, 0 when lost "
                                       f"({scope}; bars: 95% interval; filled: significant)", 1))]
    if len(doc["encounters"]) > 1:
        out.append((COMPARE_CHARTS[2], _heatmap(doc, "win_rate", "Δ win rate per encounter, "
                                                "pp (*: significant)", 100)))
        out.append((COMPARE_CHARTS[3], _heatmap(doc, "hp_left", "Δ HP left per encounter "
                                                "(*: significant)", 1)))
    return out


def _changes_table(rows: list[dict[str, Any]]) -> str:
    out = ["<table class='cmp changes'><tr><th>variant</th><th>encounter</th><th>what</th>"
           "<th>&Delta; [95% CI]</th></tr>"]
    for c in rows:
        metric = c["what"] if c["what"] in ("win_rate", "turns", "hp_left", "damage_taken") \
            else "turns"
        cell = _cell(c, metric) if ":" not in c["what"] else \
            f"<td>{html.escape(_fmt(c, metric))}</td>"
        out.append(f"<tr><td class='label'>{html.escape(c['variant'])}</td>"
                   f"<td class='label'>{html.escape(c['encounter'])}</td>"
                   f"<td class='label'>{html.escape(c['what'])}</td>{cell}</tr>")
    return "\n".join([*out, "</table>"])


def _changes(doc: dict[str, Any]) -> str:
    """The significant changes: the battle's numbers in a table, the cards' below (folded)."""
    rows = doc["changes"]
    if not rows:
        return "<p>Nothing moved significantly.</p>"
    numbers = [c for c in rows if ":" not in c["what"]]
    cards = [c for c in rows if ":" in c["what"]]
    out = [_changes_table(numbers) if numbers else "<p>No win rate, turns, HP left or damage "
           "taken moved significantly.</p>"]
    if cards:
        out += [f"<details><summary>Cards: {len(cards)} significant changes in plays or damage "
                "per battle</summary>", _changes_table(cards), "</details>"]
    return "\n".join(out)


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 24px; color: #222; }
table { border-collapse: collapse; margin: 8px 0 24px; font-size: 14px; }
th, td { border: 1px solid #ddd; padding: 4px 8px; text-align: right; }
td.label, th:first-child { text-align: left; }
th { background: #f4f4f4; }
td.better { background: #e3f4e1; } td.worse { background: #fbe2e0; } td.ns { color: #666; }
p.run { background: #f6f6fa; padding: 6px 10px; border-left: 4px solid #636efa; }
.chart { margin-bottom: 16px; }
"""


def render(doc: dict[str, Any], title: str) -> str:
    """The whole comparison page as one string."""
    if not doc.get("variants"):
        raise ReportError("no variants to report")
    import plotly.offline

    parts = []
    for cid, fig in figures(doc):
        div = fig.to_html(full_html=False, include_plotlyjs=False, div_id=cid, config=_CONFIG)
        parts.append(f"<div class='chart' data-chart='{cid}'>{div}</div>")
    base = doc["baseline"]
    variants = sorted(doc["variants"], key=lambda v: v["rank"])
    per_enc = []
    if len(doc["encounters"]) > 1:
        for enc in doc["encounters"]:
            rows: list[tuple[dict[str, Any], dict[str, Any] | None]] = [
                ({**base["encounters"][enc], "label": base["label"]}, None)]
            rows += [({**v["encounters"][enc], "label": v["label"]},
                      v["encounters"][enc]["vs_baseline"]) for v in variants]
            per_enc += [f"<h3>{html.escape(enc)}</h3>", _table(rows, False)]
    data = json.dumps(doc, separators=(",", ":")).replace("</", "<\\/")
    return "\n".join([
        "<!DOCTYPE html>", "<html lang='en'><head><meta charset='utf-8'>",
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style>",
        f"<script>{plotly.offline.get_plotlyjs()}</script>", "</head><body>",
        f"<h1>{html.escape(title)}</h1>",
        run_line(doc),
        f"<p>Encounters: {html.escape(', '.join(doc['encounters']))}. Every difference is "
        "variant minus baseline with its 95% interval (win rate: Newcombe's interval for paired "
        "proportions; means: a t interval of the per-battle differences). <b>*</b> and a "
        "coloured cell: significant (the interval excludes 0), green better, red worse; grey: "
        "not significant. HP left is 0 in a battle lost.</p>",
        f"<h2>Ranked by {html.escape(doc['ranked_by'])}</h2>",
        _table([(base, None)] + [(v, v["vs_baseline"]) for v in variants], True),
        *parts,
        *(["<h2>Per encounter</h2>", *per_enc] if per_enc else []),
        "<h2>What moved significantly</h2>",
        "<p>Per variant and encounter: win rate, turns, HP left, damage taken, and each card's "
        "plays and damage per battle (a card's damage counts its own hits).</p>",
        _changes(doc),
        f"<script type='application/json' {MARK}>{data}</script>",
        "</body></html>",
    ])


def write_compare_report(doc: dict[str, Any], out: str | Path, title: str | None = None) -> None:
    """Write the comparison page of ``doc`` (``Outcome.to_dict``) to ``out`` (whole or not at
    all; an existing ``out`` is replaced only if it is a comparison page)."""
    check_replaceable(out)
    n = len(doc.get("variants", ()))
    name = title or f"gcs comparison: {doc['baseline']['label']} vs {n} variant{'s' * (n != 1)}"
    write_text(out, render(doc, name), "comparison page", FileError)


def check_replaceable(out: str | Path) -> None:
    """Raise unless writing a comparison page at ``out`` destroys nothing a user wrote: the
    path is free, an empty file or a comparison page."""
    outfile.check_replaceable(out, "gcs comparison page", _is_page, FileError)


def _is_page(p: Path) -> bool:
    with open(p, "rb") as fh:
        return MARK.encode() in fh.read(64_000_000)
