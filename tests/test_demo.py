"""`receipt demo` as a new user runs it: on a terminal, the receipt as `trace-diff` shows it there
(plain text, verdict last, no markdown escapes, no base64 block); piped, the exact signed markdown
CI posts. Either way the receipt is verified offline and a tampered copy is rejected."""

from __future__ import annotations

from pathlib import Path

from receipt.sign import SIGNATURE_MARKER
from tests.helpers import run_cli
from tests.test_cli_readability import _on_tty


def _verification_checked_everything(text: str) -> None:
    assert "verified: signature valid, body matches the signed digest" in text
    for part in ("repository: demo/shop (checked)", "pr:         #1 (checked)"):
        assert part in text
    assert "NOT checked" not in text  # the demo checks the whole binding it asks for
    assert "from the demo's public key" in text
    assert "the same receipt with its verdict edited: rejected" in text


def test_demo_on_a_terminal_reads_like_trace_diff_on_a_terminal(tmp_path: Path) -> None:
    code, text = _on_tty(["demo"], tmp_path)
    assert code == 0, text
    lines = [ln for ln in text.splitlines() if ln.strip()]
    assert lines[0] == "behavior-receipt demo"
    receipt_start = lines.index("Behavior receipt: FAIL — 2 regressions, 1 warning, 0 info")
    verification = lines.index("Verification (offline, with the public key only)")
    assert receipt_start < verification
    assert lines[verification - 1] == "FAIL — 2 regressions, 1 warning, 0 info"  # the verdict restated last
    assert "  ✗ Tool refund_order no longer requires approval (was always)  shop/agent.py:4" in lines
    assert lines[verification - 2] == "compared base " + lines[verification - 2].split("compared base ", 1)[1]
    # Nothing of the markdown: no escapes, no alert syntax, no headings, no signature block.
    for markdown in ("\\_", "\\(", "[!CAUTION]", "&gt;", "## ", "| --- |", SIGNATURE_MARKER, "<details>"):
        assert markdown not in text, markdown
    assert "receipt demo | less" in text  # where the signed markdown is
    _verification_checked_everything(text)


def test_demo_piped_prints_the_exact_signed_markdown(tmp_path: Path) -> None:
    out = run_cli("demo", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert text.startswith("# behavior-receipt demo\n")
    body = text.split("## The receipt CI would post on this pull request\n\n", 1)[1].split("\n## Verification", 1)[0]
    assert body.startswith("## Behavior receipt\n\n> [!CAUTION]\n> **FAIL** — 2 regressions, 1 warning, 0 info\n")
    assert SIGNATURE_MARKER in body and "\x1b[" not in text
    _verification_checked_everything(text)


def test_demo_keep_writes_the_signed_markdown_and_the_terminal_points_to_it(tmp_path: Path) -> None:
    keep = tmp_path / "demo"
    code, text = _on_tty(["demo", "--keep", str(keep)], tmp_path)
    assert code == 0, text
    saved = (keep / "receipt.md").read_text(encoding="utf-8")
    assert saved.startswith("## Behavior receipt\n\n> [!CAUTION]") and SIGNATURE_MARKER in saved
    assert f"see {keep / 'receipt.md'}" in text
