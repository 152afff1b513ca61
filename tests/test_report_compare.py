"""The comparison page (``gcs compare --report``) and what every report page now carries: one
offline HTML file whose charts render in a real headless Chromium denied the network, the
policy and its budget named, a distinct colour for every series, and the balance report's
"played vs not played" win rates below the rest with their caveat."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest
from report_support import render_offline

from gcs.cli import main
from gcs.report.colours import MAX_DISTINCT, PLOTLY, delta_e, distinct
from gcs.report.compare import COMPARE_CHARTS
from gcs.report.html import CAVEAT, CHARTS
from gcs.report.page import policy_budget

Capsys = pytest.CaptureFixture[str]


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("cmp") / "cmp.html"
    code = main(["compare", "-e", "gremlin_nob,jaw_worm", "--deck", "+carnage", "--deck",
                 "-defend", "--add", "anger,inflame", "--upgrade", "bash", "--battles", "40",
                 "--policy", "greedy", "--quiet", "--report", str(out)])
    assert code == 0
    return out


def _data(html: str, data_id: str) -> dict[str, Any]:
    m = re.search(rf"<script type='application/json' id='{data_id}'>(.*?)</script>", html, re.S)
    assert m, "no embedded data"
    data: dict[str, Any] = json.loads(m.group(1))
    return data


def test_the_comparison_page_renders_every_chart_offline(page: Path, tmp_path: Path) -> None:
    html = page.read_text(encoding="utf-8")
    drawn, errors, blocked = render_offline(
        page, len(COMPARE_CHARTS), """() => Array.from(document.querySelectorAll('.js-plotly-plot'))
            .map(d => [d.id, d.querySelectorAll('.points path').length,
                       d.querySelectorAll('.errorbar').length,
                       d.querySelectorAll('.hm image').length,
                       d.getBoundingClientRect().height])""", tmp_path / "cmp.png")
    assert [d[0] for d in drawn] == list(COMPARE_CHARTS)
    variants = len(_data(html, "gcs-compare-data")["variants"])
    for cid, markers, bars, images, height in drawn:
        heat = "heat" in cid
        assert (markers, bars, images) == ((0, 0, 1) if heat else (variants, variants, 0)), cid
        assert height > 200, cid
    assert errors == [] and blocked == []
    import plotly.offline

    own = html.replace(plotly.offline.get_plotlyjs(), "")
    assert not re.search(r"https?://", own)
    assert not re.search(r"<(script|link|img|iframe)\b[^>]*\b(src|href)\s*=", own, re.I)


def test_the_comparison_page_holds_the_comparison(page: Path) -> None:
    html = page.read_text(encoding="utf-8")
    doc = _data(html, "gcs-compare-data")
    labels = [v["label"] for v in doc["variants"]]
    assert labels == ["+carnage", "-defend", "+anger", "+inflame", "bash+"]
    for label in labels:
        assert f">{label}<" in html
    assert "<b>Policy</b> <code>greedy</code>" in html and "search budget" in html
    assert "40</b> battles per arm" in html and "paired" in html
    assert "significant" in html and "What moved significantly" in html
    carnage = doc["variants"][0]
    assert carnage["vs_baseline"]["win_rate"]["significant"]
    assert "td class='better'" in html  # Carnage's win rate: a significant improvement
    assert "<h3>gremlin_nob</h3>" in html and "<h3>jaw_worm</h3>" in html


def test_every_series_has_its_own_colour() -> None:
    assert distinct(10) == PLOTLY  # the familiar first ten
    for n in (12, 30, 60):  # (plotly's own closest pair, blue and purple, is 21.8 apart)
        got = distinct(n)
        assert got[:10] == PLOTLY and len(set(got)) == n
        assert min(delta_e(a, b) for a, b in itertools.combinations(got, 2)) >= 20
    assert len(set(distinct(MAX_DISTINCT))) == MAX_DISTINCT
    assert distinct(20) == distinct(40)[:20]  # a prefix: series i has one colour in any report


def test_the_balance_report_names_the_policy_and_puts_correlations_below(
        tmp_path: Path, capsys: Capsys) -> None:
    decks = [f"strike*5,defend*4,bash,{c}" for c in
             ("anger", "cleave", "inflame", "carnage", "clothesline", "pommel_strike")]
    args = ["simulate", "-e", "jaw_worm,cultist", "--battles", "10", "--policy", "greedy",
            "--quiet", "--report", str(tmp_path / "r.html")]
    for d in decks:
        args += ["--deck", d]
    assert main(args) == 0
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "<b>Policy</b> <code>greedy</code> (search budget: none" in html
    caveat = html.index(CAVEAT[:25])
    assert html.index(f"id=\"{CHARTS[6]}\"") > caveat > html.index(f"id=\"{CHARTS[5]}\"")
    # 12 groups: 12 different colours in the win-rate chart
    m = re.search(r'"marker":\{"color":\[([^\]]*)\]', html)
    assert m, "no per-group colours"
    colours = json.loads(f"[{m.group(1)}]")
    assert len(colours) == 12 and len(set(colours)) == 12


def test_policy_budgets_are_named() -> None:
    assert policy_budget("search:iters=200") == "iters=200"
    assert policy_budget("greedy").startswith("none")
    assert policy_budget("my.module:Policy") == "as the policy sets it"
