"""The balance report (``gcs report``, ``simulate --report``): one self-contained HTML file that
holds the data, names no network resource, and renders every chart in a real headless Chromium
(Debian's) that is denied the network.

"No network URLs" means precisely (see docs/simulation.md): (1) outside the inlined plotly.js
bundle the page contains no ``http://`` or ``https://`` at all; (2) no tag loads anything by
``src``/``href``, and no CSS ``url(...)`` or ``@import`` exists; (3) the bundle is byte-for-byte
``plotly.offline.get_plotlyjs()``, plotly's own offline build, whose URL strings are XML
namespaces, licence comments, and tile/font addresses used only by map traces, which the report
does not draw; (4) the browser, with every non-``file:`` request intercepted, makes none.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from report_support import render_offline

import gcs
from gcs.cli import main
from gcs.report import write_report
from gcs.report.aggregate import Aggregate
from gcs.report.html import CHARTS
from gcs.report.stats import wilson
from gcs.sim.jobs import Job
from gcs.sim.results import read_rows
from gcs.sim.sweep import Sweep, run_sweep

CONTENT = gcs.builtin_content()


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("report") / "rows.jsonl"
    jobs = tuple(Job(None, enc, "random", 6, deck, None) for enc in ("jaw_worm", "cultist")
                 for deck in (None, ("strike",) * 4 + ("defend",) * 4 + ("bash", "cleave")))
    run_sweep(Sweep(jobs, 80, chunk=40), out=path, content=CONTENT)
    return path


@pytest.fixture(scope="module")
def report(results: Path) -> Path:
    out = results.with_suffix(".html")
    write_report(results, out)
    return out


def _data(html: str) -> dict[str, Any]:
    m = re.search(r"<script type='application/json' id='gcs-report-data'>(.*?)</script>", html, re.S)
    assert m, "no embedded data"
    data: dict[str, Any] = json.loads(m.group(1))
    return data


def _without_plotly(html: str) -> str:
    import plotly.offline

    bundle = plotly.offline.get_plotlyjs()
    assert html.count(bundle) == 1, "plotly.js is not inlined exactly once, unchanged"
    return html.replace(bundle, "")


def test_report_wilson_interval_matches_known_values() -> None:
    lo, hi = wilson(81, 100)
    assert (round(lo, 4), round(hi, 4)) == (0.7222, 0.8749)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0 and wilson(0, 0) == (0.0, 1.0)


def test_report_holds_the_data_of_every_group_and_card(results: Path, report: Path) -> None:
    html = report.read_text(encoding="utf-8")
    data = _data(html)
    rows = list(read_rows(results))
    assert data["battles"] == len(rows) == 320
    groups = data["groups"]
    assert [(g["encounter"], g["deck"]) for g in groups] == [
        ("jaw_worm", ""), ("jaw_worm", "strike*4,defend*4,bash,cleave"),
        ("cultist", ""), ("cultist", "strike*4,defend*4,bash,cleave")]
    for g in groups:
        mine = [r for r in rows if (r["encounter"], r["deck"]) == (g["encounter"], g["deck"])]
        wins = sum(r["won"] for r in mine)
        assert (g["battles"], g["wins"]) == (len(mine), wins)
        assert g["win_rate_ci95"] == list(wilson(wins, len(mine)))
        assert sum(g["turns_histogram"].values()) == len(mine)
        for c in g["cards"]:
            played = [r for r in mine if r["plays"].get(c["card"], 0)]
            assert c["plays"] == sum(r["plays"].get(c["card"], 0) for r in mine)
            assert c["battles_played"] == len(played)
            assert c["battles_not_played"] == len(mine) - len(played)
            if played:
                assert c["win_rate_played"] == sum(r["won"] for r in played) / len(played)
        assert {c["card"] for c in g["cards"]} == ({"strike", "defend", "bash"} if not g["deck"]
                                                   else {"strike", "defend", "bash", "cleave"})
    for cid in CHARTS:
        assert f'id="{cid}"' in html
    assert "95% Wilson" in html


def test_report_names_no_network_resource(report: Path) -> None:
    html = report.read_text(encoding="utf-8")
    own = _without_plotly(html)
    assert not re.search(r"https?://", own), re.findall(r".{40}https?://.{40}", own)[:3]
    assert not re.search(r"<(script|link|img|iframe|source|video|audio|embed|object)\b[^>]*"
                         r"\b(src|href|data)\s*=", own, re.I)
    assert "url(" not in own and "@import" not in own
    assert "<script src" not in html.lower()


def test_simulate_report_is_the_report_of_its_rows(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--encounter", "jaw_worm,cultist", "--battles", "30", "--quiet"]
    assert main([*args, "--report", str(tmp_path / "a.html")]) == 0
    assert main([*args, "--out", str(tmp_path / "rows.csv"), "--report", str(tmp_path / "b.html")]) == 0
    assert main(["report", str(tmp_path / "rows.csv")]) == 0
    out = capsys.readouterr().out
    assert f"report of 60 battles in 2 group(s) -> {tmp_path / 'rows.html'}" in out
    a, b, c = (_data((tmp_path / f).read_text()) for f in ("a.html", "b.html", "rows.html"))
    assert a == b == c and a["battles"] == 60


def test_report_of_an_empty_or_missing_file_is_a_clear_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert main(["report", str(empty)]) == 2
    assert "no battles to report" in capsys.readouterr().err
    assert main(["report", str(tmp_path / "none.csv")]) == 2
    assert "no results file" in capsys.readouterr().err
    assert Aggregate().battles == 0


def test_report_renders_every_chart_in_headless_chromium_offline(report: Path, tmp_path: Path) -> None:
    drawn, errors, blocked = render_offline(
        report, len(CHARTS), """() => Array.from(document.querySelectorAll('.js-plotly-plot'))
            .map(d => [d.id, d.querySelectorAll('.trace').length,
                       d.querySelectorAll('.bars path, .point path').length,
                       d.getBoundingClientRect().height])""", tmp_path / "report.png")
    assert [d[0] for d in drawn] == list(CHARTS)
    for cid, traces, marks, height in drawn:
        assert traces >= 1 and marks >= 4 and height > 200, (cid, traces, marks, height)
    assert errors == [] and blocked == []
    assert (tmp_path / "report.png").stat().st_size > 10_000
