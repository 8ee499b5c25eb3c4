"""Receipt -> GitHub workflow-command annotations (`--format github`, and `receipt ci`).

One line per change: `::error` for regressions, `::warning` for warnings, `::notice` for info and
for accepted changes of any severity. GitHub shows at most 10 annotations of each level per step,
so at most `max_per_level` lines are written per level, counting the one summary notice that says
how many were left out.

A workflow command is recognised only at the start of a line, and its properties end at the first
`::`. So the message is escaped per GitHub's rules (% CR LF) and the property values additionally
(: ,): whatever the analysed code names things, the output is exactly one command per line and
no property can be ended early or a second command started.
"""

from __future__ import annotations

from typing import Optional

from receipt.models import Change, Receipt
from receipt.render.escape import clip, visible

_LEVEL = {"regression": "error", "warning": "warning", "info": "notice"}
_LEVELS = ("error", "warning", "notice")
_TITLE_CHARS = 200
_MESSAGE_CHARS = 1000


def escape_data(text: str) -> str:
    """A workflow command's message."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A workflow command's property value."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _command(level: str, message: str, *, title: str, file: Optional[str] = None, line: Optional[int] = None) -> str:
    props = []
    if file:
        props.append(f"file={escape_property(visible(file))}")
        if line is not None and line >= 1:
            props.append(f"line={int(line)}")
    props.append(f"title={escape_property(clip(visible(title), _TITLE_CHARS))}")
    # visible(): control characters (ANSI escapes, bidi overrides) could disguise the log line.
    return f"::{level} {','.join(props)}::{escape_data(clip(visible(message), _MESSAGE_CHARS))}"


def _annotation(change: Change) -> tuple[str, str]:
    level = "notice" if change.accepted is not None else _LEVEL[change.severity]
    s = change.subject
    subject = f"{s.kind} {s.scope}/{s.name}" if s.scope else f"{s.kind} {s.name}"
    title = f"{change.id}: {subject}"
    message = f"{change.message} [{change.severity}, fingerprint {change.fingerprint}]"
    if change.accepted is not None:
        message += f" accepted: {change.accepted.reason}"
        if change.accepted.expires:
            message += f" (until {change.accepted.expires})"
    return level, _command(level, message, title=title, file=s.path, line=s.line)


def render_annotations(receipt: Receipt, *, max_per_level: int = 10) -> str:
    """Workflow commands for the changes, errors first; "" when there are none."""
    if max_per_level < 1:
        raise ValueError("max_per_level must be >= 1")
    by_level: dict[str, list[str]] = {lvl: [] for lvl in _LEVELS}
    for change in receipt.changes:
        level, line = _annotation(change)
        by_level[level].append(line)
    over = any(len(lines) > max_per_level for lines in by_level.values())
    # The summary is a notice too: it takes one notice slot so no level exceeds the cap.
    caps = {"error": max_per_level, "warning": max_per_level, "notice": max_per_level - 1 if over else max_per_level}
    out: list[str] = []
    dropped: dict[str, int] = {}
    for level in _LEVELS:
        lines = by_level[level]
        out += lines[: caps[level]]
        dropped[level] = max(len(lines) - caps[level], 0)
    total = sum(dropped.values())
    if total:
        detail = ", ".join(f"{dropped[lvl]} {lvl}s" for lvl in _LEVELS if dropped[lvl])
        out.append(
            _command(
                "notice",
                f"{total} more changes not annotated ({detail}); the receipt lists them all",
                title="behavior-receipt",
            )
        )
    return "".join(line + "\n" for line in out)
