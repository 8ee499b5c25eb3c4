"""The page scripts/receipt_screenshots.py hands to Chromium (built without Chromium here): GitHub's
alert markup from `> [!CAUTION]`, a stand-in for the mermaid graph, nothing fetched from anywhere,
and the checks it draws from the page's measurements."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from receipt.render import render_markdown
from tests.render_factories import change, evil_receipt, mixed_receipt, receipt

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "receipt_screenshots.py"


def _shots():
    spec = importlib.util.spec_from_file_location("receipt_screenshots", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def test_alert_is_githubs_alert_markup_with_the_verdict_inside() -> None:
    html = _shots().page(render_markdown(mixed_receipt()))
    m = re.search(r'<div class="markdown-alert markdown-alert-caution"><p class="markdown-alert-title">Caution</p>\n<p><strong>FAIL</strong> — 2 regressions', html)
    assert m is not None
    assert "[!CAUTION]" not in html and "<blockquote>" not in html
    alert = html[m.start() : html.index("</div>", m.start())]
    assert "<li>" in alert  # the regression sentences are inside the alert


def test_warning_and_note_alerts() -> None:
    shots = _shots()
    assert 'markdown-alert-warning"><p class="markdown-alert-title">Warning</p>' in shots.page(render_markdown(receipt([change(severity="warning")])))
    assert 'markdown-alert-note"><p class="markdown-alert-title">Note</p>' in shots.page(render_markdown(receipt([])))


def test_mermaid_graph_is_shown_as_a_labelled_stand_in() -> None:
    r = receipt([change("agent.reach_added", "info", kind="agent", name="triage", before=None, after="tool:run_shell", path="src/agents.py")])
    html = _shots().page(render_markdown(r))
    assert '<div class="diagram">Diagram (GitHub draws this mermaid graph' in html
    assert "graph LR" in html and 'lang="mermaid"' not in html


def test_page_loads_nothing_and_hostile_names_stay_text() -> None:
    html = _shots().page(render_markdown(evil_receipt()))
    assert not re.search(r"<(link|img|iframe|object|embed)\b", html)
    assert not re.search(r"\ssrc=", html)
    assert "default-src 'none'" in html  # the page's own policy: no request leaves it
    scripts = re.findall(r"<script>", html)
    assert len(scripts) == 1  # the measuring script only


def test_checks_say_what_a_reader_would_notice() -> None:
    shots = _shots()
    good = {
        "column": 1000, "page_width": 1000, "page_height": 900, "comment_width": 1000,
        "tables": [{"index": 0, "scroll": 966, "client": 966, "head": "What Change Where"}],
        "alert": {"kind": "markdown-alert markdown-alert-caution", "verdict_bottom": 156, "bottom": 240},
    }
    assert shots.failures(good) == []
    wide = {**good, "page_width": 1240, "tables": [{"index": 0, "scroll": 1400, "client": 966, "head": "What Change Where"}]}
    assert shots.failures(wide) == [
        "the page is 1240 px wide, wider than the 1000 px comment column",
        "table 1 ('What Change Where') scrolls sideways: 1400 px of content in 966 px",
    ]
    low = {**good, "alert": {"kind": "x", "verdict_bottom": 700, "bottom": 900}}
    assert shots.failures(low) == ["the verdict line ends 700 px down, below the fold (600 px)"]
    assert shots.failures({**good, "alert": None}) == ["no GitHub alert (> [!CAUTION] / [!WARNING] / [!NOTE]) in the comment"]
