"""Screenshots of receipts as GitHub shows them, and the checks a reader's eye would make.

Renders receipts with cmark-gfm (GitHub's markdown library, the `cmarkgfm` package of the test
extra), turns `> [!CAUTION]`-style blockquotes into alerts as GitHub does, wraps the HTML in a
GitHub-like stylesheet (alerts, details, tables that scroll inside a 1000-px comment column), and
has headless Chromium measure and photograph it. Run by hand, not in CI (Chromium is not in CI):

    apt-get install -y chromium                      # Debian; or --chromium PATH
    .venv/bin/python scripts/receipt_screenshots.py  # writes docs/receipt-fail.png, docs/receipt-large.png

Receipts: `fail` is the demo's (`receipt demo`: an approval removed, a dangerous tool added);
`large` is `trace-diff HEAD~29 HEAD` (its whole history) on the generated benchmark repository (benchmarks/
generate_repo.py, 400 Python files), or `--large-repo DIR --large-range BASE HEAD [--large-path P]`.

Checks (exit 1 when one fails; the figures are printed either way):
- the page is no wider than the comment column (nothing scrolls the page sideways);
- no table scrolls sideways inside the column (its content fits the width GitHub gives it);
- the alert's title and verdict line are above the fold (the first 600 px of the comment).

Nothing here reaches the network: the page has no external resources, and Chromium is started
with downloads, updates, sync and background networking off, in a new empty profile.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COLUMN = 1000  # px: the comment column
FOLD = 600  # px from the top of the comment: what a reviewer sees without scrolling
MAX_SHOT_HEIGHT = 1800  # px: a screenshot of a long receipt shows its top (the rest is folded or below)
ALERTS = {"NOTE": "Note", "TIP": "Tip", "IMPORTANT": "Important", "WARNING": "Warning", "CAUTION": "Caution"}

CSS = """
body { margin: 0; background: #ffffff; }
.comment { box-sizing: border-box; width: %(column)dpx; border: 1px solid #d1d9e0; border-radius: 6px; }
.comment-header { background: #f6f8fa; border-bottom: 1px solid #d1d9e0; border-radius: 6px 6px 0 0;
  padding: 8px 16px; font: 14px/1.5 -apple-system, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; color: #59636e; }
.comment-header b { color: #1f2328; }
.markdown-body { padding: 16px; font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif;
  font-size: 14px; line-height: 1.5; color: #1f2328; word-wrap: break-word; }
.markdown-body > *:first-child { margin-top: 0 !important; }
.markdown-body h1, .markdown-body h2, .markdown-body h3, .markdown-body h4 { margin-top: 24px; margin-bottom: 16px; font-weight: 600; line-height: 1.25; }
.markdown-body h2 { font-size: 1.5em; padding-bottom: .3em; border-bottom: 1px solid #d1d9e0b3; }
.markdown-body h3 { font-size: 1.25em; }
.markdown-body h4 { font-size: 1em; }
.markdown-body p, .markdown-body blockquote, .markdown-body ul, .markdown-body ol, .markdown-body table,
.markdown-body pre, .markdown-body details, .markdown-body .markdown-alert, .markdown-body .diagram { margin-top: 0; margin-bottom: 16px; }
.markdown-body ul, .markdown-body ol { padding-left: 2em; }
.markdown-body li + li { margin-top: .25em; }
.markdown-body a { color: #0969da; text-decoration: none; }
.markdown-body strong { font-weight: 600; }
.markdown-body hr { height: .25em; padding: 0; margin: 24px 0; background-color: #d1d9e0; border: 0; }
.markdown-body code { padding: .2em .4em; margin: 0; font-size: 85%%; white-space: break-spaces; background-color: #818b981f; border-radius: 6px;
  font-family: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace; }
.markdown-body pre { padding: 16px; overflow: auto; font-size: 85%%; line-height: 1.45; background-color: #f6f8fa; border-radius: 6px; }
.markdown-body pre code { padding: 0; background: transparent; white-space: pre; font-size: 100%%; }
.markdown-body table { border-spacing: 0; border-collapse: collapse; display: block; width: max-content; max-width: 100%%; overflow: auto; }
.markdown-body td, .markdown-body th { padding: 6px 13px; border: 1px solid #d1d9e0; }
.markdown-body th { font-weight: 600; }
.markdown-body tr { background-color: #ffffff; border-top: 1px solid #d1d9e0b3; }
.markdown-body tr:nth-child(2n) { background-color: #f6f8fa; }
.markdown-body details summary { cursor: pointer; display: list-item; }
.markdown-body .markdown-alert { padding: .5rem 1rem; color: inherit; border-left: .25em solid #d1d9e0; }
.markdown-body .markdown-alert > :last-child { margin-bottom: 0; }
.markdown-body .markdown-alert .markdown-alert-title { display: flex; font-weight: 500; align-items: center; line-height: 1; margin-bottom: 8px; }
.markdown-body .markdown-alert-note { border-left-color: #0969da; } .markdown-alert-note .markdown-alert-title { color: #0969da; }
.markdown-body .markdown-alert-tip { border-left-color: #1a7f37; } .markdown-alert-tip .markdown-alert-title { color: #1a7f37; }
.markdown-body .markdown-alert-important { border-left-color: #8250df; } .markdown-alert-important .markdown-alert-title { color: #8250df; }
.markdown-body .markdown-alert-warning { border-left-color: #9a6700; } .markdown-alert-warning .markdown-alert-title { color: #9a6700; }
.markdown-body .markdown-alert-caution { border-left-color: #cf222e; } .markdown-alert-caution .markdown-alert-title { color: #d1242f; }
.markdown-body .diagram { border: 1px dashed #d1d9e0; border-radius: 6px; padding: 8px 16px; color: #59636e; }
.markdown-body .diagram pre { margin: 8px 0 0 0; }
""" % {"column": COLUMN}

# Runs in the page once laid out: the figures the checks need, as JSON in <pre id="measure">.
MEASURE = """
<script>
(function () {
  var comment = document.querySelector('.comment').getBoundingClientRect();
  var tables = Array.prototype.map.call(document.querySelectorAll('.markdown-body table'), function (t, i) {
    return {index: i, scroll: t.scrollWidth, client: t.clientWidth, head: (t.rows[0] && t.rows[0].innerText || '').slice(0, 80)};
  });
  var alert = document.querySelector('.markdown-alert');
  var first = alert && alert.querySelector('p:not(.markdown-alert-title)');
  var out = {
    column: %(column)d,
    page_width: document.documentElement.scrollWidth,
    page_height: document.documentElement.scrollHeight,
    comment_width: Math.round(comment.width),
    tables: tables,
    alert: alert ? {kind: alert.className, verdict_bottom: first ? Math.round(first.getBoundingClientRect().bottom - comment.top) : null,
                    bottom: Math.round(alert.getBoundingClientRect().bottom - comment.top)} : null
  };
  var pre = document.createElement('pre');
  pre.id = 'measure';
  pre.style.display = 'none';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>
""" % {"column": COLUMN}


# -- HTML, as GitHub would show the comment ------------------------------------------------------------


def gfm_html(markdown: str) -> str:
    """cmark-gfm's HTML for `markdown` (GitHub's extensions, raw HTML kept as GitHub keeps
    <details>/<summary>), with GitHub's alerts and a stand-in box for mermaid diagrams."""
    import cmarkgfm
    from cmarkgfm.cmark import Options

    out = cmarkgfm.github_flavored_markdown_to_html(markdown, options=Options.CMARK_OPT_UNSAFE)
    return _diagrams(_alerts(out))


def _alerts(text: str) -> str:
    """`<blockquote><p>[!CAUTION]` ... `</blockquote>` -> GitHub's `markdown-alert` div."""
    pattern = re.compile(r"<blockquote>\n<p>\[!(%s)\]\n?" % "|".join(ALERTS))
    while True:
        m = pattern.search(text)
        if m is None:
            return text
        depth, i = 1, m.end()
        while depth:
            nxt_open = text.find("<blockquote>", i)
            nxt_close = text.find("</blockquote>", i)
            if nxt_close < 0:
                return text  # unbalanced: leave it as cmark-gfm wrote it
            if 0 <= nxt_open < nxt_close:
                depth, i = depth + 1, nxt_open + len("<blockquote>")
            else:
                depth, i = depth - 1, nxt_close + len("</blockquote>")
        kind = m.group(1)
        body = text[m.end() : i - len("</blockquote>")]
        div = (
            f'<div class="markdown-alert markdown-alert-{kind.lower()}"><p class="markdown-alert-title">{ALERTS[kind]}</p>\n<p>'
            + body
            + "</div>"
        )
        text = text[: m.start()] + div + text[i:]


def _diagrams(text: str) -> str:
    """GitHub draws ```mermaid blocks with mermaid.js; offline, a box shows that a diagram is there
    and its source, so the screenshot is honest about what it cannot draw."""

    def box(m: re.Match) -> str:
        return (
            '<div class="diagram">Diagram (GitHub draws this mermaid graph; its source is shown here)'
            f'<pre><code>{m.group(1)}</code></pre></div>'
        )

    return re.sub(r'<pre lang="mermaid"><code>(.*?)</code></pre>', box, text, flags=re.S)


def page(markdown: str, *, title: str = "github-actions bot commented") -> str:
    """A self-contained HTML page: one comment of `COLUMN` px holding the rendered receipt, and the
    measuring script. No external resource of any kind."""
    who, _, rest = title.partition(" ")
    return (
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; style-src \'unsafe-inline\'; script-src \'unsafe-inline\'">'
        f"<style>{CSS}</style></head>\n<body>\n"
        f'<div class="comment"><div class="comment-header"><b>{html.escape(who)}</b> {html.escape(rest)}</div>\n'
        f'<div class="markdown-body">\n{gfm_html(markdown)}</div></div>\n'
        f"{MEASURE}</body></html>\n"
    )


def failures(measure: dict) -> list[str]:
    """What a reader would notice, from the page's own measurements (empty: all good)."""
    out = []
    if measure["page_width"] > measure["column"]:
        out.append(f"the page is {measure['page_width']} px wide, wider than the {measure['column']} px comment column")
    for t in measure["tables"]:
        if t["scroll"] > t["client"] + 1:
            out.append(f"table {t['index'] + 1} ({t['head']!r}) scrolls sideways: {t['scroll']} px of content in {t['client']} px")
    alert = measure.get("alert")
    if alert is None:
        out.append("no GitHub alert (> [!CAUTION] / [!WARNING] / [!NOTE]) in the comment")
    elif alert["verdict_bottom"] is None or alert["verdict_bottom"] > FOLD:
        out.append(f"the verdict line ends {alert['verdict_bottom']} px down, below the fold ({FOLD} px)")
    return out


# -- receipts to show ------------------------------------------------------------------------------------


def fail_receipt(work: Path) -> str:
    """The demo's signed receipt (as `receipt demo` posts it)."""
    from receipt.demo import build_demo_repo
    from receipt.keys import generate_signing_key
    from receipt.pipeline import build_receipt
    from receipt.sign import Binding, render_signed

    repo = work / "shop"
    base, head = build_demo_repo(repo)
    receipt = build_receipt(repo, base, head)
    binding = Binding(repository="acme/shop", pr=7, base_sha=receipt.base.sha, head_sha=receipt.head.sha)
    return render_signed(receipt, generate_signing_key(), binding)


def large_receipt(repo: Path | None, base: str, head: str, paths: list[str]) -> str:
    """A receipt over many changes: the generated benchmark repository unless `repo` is given."""
    from receipt.pipeline import build_receipt
    from receipt.render import render_markdown

    if repo is None:
        repo = ROOT / "benchmarks" / ".work" / "screenshot-repo"
        if not (repo / ".git").exists() and not (repo / "HEAD").exists():
            subprocess.run(
                [sys.executable, str(ROOT / "benchmarks" / "generate_repo.py"), "--files", "400", "--agents", "80", "--others", "10",
                 "--commits", "30", "--repo", str(repo)],
                check=True,
            )
    receipt = build_receipt(repo, base, head, paths=paths)
    return render_markdown(receipt, repository="acme/agents")


# -- Chromium ---------------------------------------------------------------------------------------------


def chromium_args(binary: str, profile: Path) -> list[str]:
    return [
        binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
        "--disable-extensions", "--disable-default-apps", "--force-device-scale-factor=1",
        f"--user-data-dir={profile}",
    ]


def measure(binary: str, html_file: Path) -> dict:
    with tempfile.TemporaryDirectory(prefix="receipt-chromium-") as profile:
        p = subprocess.run(
            [*chromium_args(binary, Path(profile)), f"--window-size={COLUMN},{FOLD}", "--dump-dom", html_file.as_uri()],
            capture_output=True, text=True, timeout=120,
        )
    m = re.search(r'<pre id="measure"[^>]*>(.*?)</pre>', p.stdout, re.S)
    if m is None:
        raise SystemExit(f"chromium gave no measurement for {html_file} (exit {p.returncode}): {p.stderr.strip()[-400:]}")
    return json.loads(html.unescape(m.group(1)))


def screenshot(binary: str, html_file: Path, png: Path, height: int) -> None:
    with tempfile.TemporaryDirectory(prefix="receipt-chromium-") as profile:
        p = subprocess.run(
            [*chromium_args(binary, Path(profile)), f"--window-size={COLUMN + 2},{height}", f"--screenshot={png}", html_file.as_uri()],
            capture_output=True, text=True, timeout=120,
        )
    if not png.exists():
        raise SystemExit(f"chromium wrote no screenshot {png} (exit {p.returncode}): {p.stderr.strip()[-400:]}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs", help="where the PNGs go (default docs/)")
    ap.add_argument("--html", type=Path, default=None, help="also keep the HTML pages in this folder")
    ap.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser") or "chromium")
    ap.add_argument("--large-repo", type=Path, default=None, help="repository for the large receipt (default: generated)")
    ap.add_argument("--large-range", nargs=2, default=["HEAD~29", "HEAD"], metavar=("BASE", "HEAD"))
    ap.add_argument("--large-path", action="append", default=[], help="limit the large receipt to this path (repeatable)")
    ap.add_argument("--markdown", type=Path, action="append", default=[], help="check (and photograph) this receipt file instead")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="receipt-shots-") as tmp:
        work = Path(tmp)
        if args.markdown:
            receipts = {p.stem: p.read_text(encoding="utf-8") for p in args.markdown}
        else:
            receipts = {
                "receipt-fail": fail_receipt(work),
                "receipt-large": large_receipt(args.large_repo, *args.large_range, args.large_path),
            }
        bad = 0
        for name, markdown in receipts.items():
            folder = args.html or work
            folder.mkdir(parents=True, exist_ok=True)
            html_file = folder / f"{name}.html"
            html_file.write_text(page(markdown), encoding="utf-8")
            m = measure(args.chromium, html_file)
            problems = failures(m)
            alert = m["alert"] or {}
            print(
                f"{name}: {len(markdown):,} characters; page {m['page_width']}x{m['page_height']} px; "
                f"{len(m['tables'])} tables, widest content {max((t['scroll'] for t in m['tables']), default=0)} px "
                f"in {max((t['client'] for t in m['tables']), default=0)} px; verdict line ends at {alert.get('verdict_bottom')} px, "
                f"alert at {alert.get('bottom')} px (fold {FOLD})"
            )
            for problem in problems:
                print(f"  FAIL: {problem}")
            bad += bool(problems)
            args.out.mkdir(parents=True, exist_ok=True)
            png = args.out / f"{name}.png"
            screenshot(args.chromium, html_file, png, min(m["page_height"], MAX_SHOT_HEIGHT))
            print(f"  wrote {png} ({png.stat().st_size // 1024} KB)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
