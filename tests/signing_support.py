"""Shared helpers for the signing/verification tests: receipts, a body renderer, keys, git repos, the CLI."""

from __future__ import annotations

import html
import os
import subprocess
import sys
from pathlib import Path
from typing import Optional

from receipt.canonical import fingerprint
from receipt.demo import git_env
from receipt.models import Change, Receipt, RevInfo, Subject, Summary, ToolInfo, Verdict

BASE_SHA = "1" * 40
HEAD_SHA = "2" * 40
ROOT = Path(__file__).resolve().parent.parent


def make_receipt(n_changes: int = 3, tool_names: Optional[list[str]] = None, *, n_skipped: int = 0) -> Receipt:
    names = tool_names or [f"tool_{i:05d}" for i in range(n_changes)]
    changes = []
    for i, name in enumerate(names):
        severity = "regression" if i % 3 == 0 else ("warning" if i % 3 == 1 else "info")
        subject = Subject(kind="tool", name=name, path=f"pkg/tools_{i % 7}.py", line=10 + i, key=f"tool:{name}")
        cid = "tool.approval_lowered" if severity == "regression" else "tool.description_changed"
        changes.append(
            Change(
                id=cid,
                severity=severity,
                subject=subject,
                before="always",
                after="never",
                message=f"approval of {name} went from always to never",
                fingerprint=fingerprint(cid, subject.key or name, "always", "never"),
            )
        )
    regressions = sum(c.severity == "regression" for c in changes)
    warnings = sum(c.severity == "warning" for c in changes)
    from receipt.models import ExtractionIssue

    skipped = [
        ExtractionIssue(path=f"vendor/blob_{i:05d}.bin", kind="skipped", reason="binary", message="binary file")
        for i in range(n_skipped)
    ]
    return Receipt(
        tool=ToolInfo(version="0.1.0"),
        base=RevInfo(rev="main", sha=BASE_SHA, surface_sha256="a" * 64),
        head=RevInfo(rev="feature", sha=HEAD_SHA, surface_sha256="b" * 64),
        summary=Summary(agents=1, tools=len(changes), changes=len(changes), regressions=regressions, warnings=warnings),
        verdict=Verdict(ok=regressions == 0, fail_on="regression", flags=[]),
        changes=changes,
        skipped=skipped,
    )


def standin_render_markdown(
    receipt: Receipt,
    *,
    max_chars: int = 60000,
    header_comment: Optional[str] = None,
    footer_note: Optional[str] = None,
    template_text: Optional[str] = None,
) -> str:
    """The contract of receipt.render.render_markdown, minimally: escaped, LF, ends in one newline, fits."""

    def esc(s: str) -> str:
        return html.escape(s, quote=True).replace("|", "\\|").replace("\n", " ")

    head = []
    if header_comment:
        head.append(header_comment)
    verdict = "pass" if receipt.verdict.ok else "FAIL"
    head += [f"## Behavior receipt: {verdict}", "", f"{receipt.summary.changes} changes", ""]
    rows = ["| subject | change | path |", "|---|---|---|"]
    rows += [f"| `{esc(c.subject.name)}` | {esc(c.id)} | {esc(c.subject.path or '')}:{c.subject.line} |" for c in receipt.changes]
    tail = [""] + ([footer_note, ""] if footer_note else [])
    text = "\n".join(head + rows + tail)
    while len(text) > max_chars and len(rows) > 2:
        rows.pop()
        note = ["", f"_{len(receipt.changes) - (len(rows) - 2)} changes not shown (size budget)_", ""]
        text = "\n".join(head + rows + note + tail)
    return text.rstrip("\n") + "\n"


def body_renderer():
    """The real renderer once it exists; until then the stand-in with the same contract."""
    try:
        from receipt.render import render_markdown  # type: ignore[attr-defined]
    except ImportError:
        return standin_render_markdown
    return render_markdown


def run_cli(*args: str, input: Optional[bytes] = None, cwd: Optional[Path] = None, env: Optional[dict] = None):
    """`python -m receipt ...` in a subprocess: real exit codes, real stdout/stderr."""
    full_env = {k: v for k, v in os.environ.items() if k != "RECEIPT_SIGNING_KEY"}
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "receipt", *args],
        input=input,
        capture_output=True,
        cwd=cwd or ROOT,
        env=full_env,
        timeout=60,
    )


def git(cwd: Path, *args: str) -> str:
    env = {**os.environ, **git_env("t", "t@example.com"), "GIT_CONFIG_GLOBAL": os.devnull}
    out = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=True)
    return out.stdout.strip()


def init_repo(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q", "-b", "main")
    return path
