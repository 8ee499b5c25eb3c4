"""Receipt -> text for a terminal: what `trace-diff` prints when stdout is a TTY.

The same story as the comment (the shared `view`), without markdown: no backslash escapes, no
tables, no base64 signature block. Colour (ANSI) only for the verdict and severities; the verdict is
restated on the last line so it does not scroll away. Strings from analysed code go through
`visible()` (control, bidi and invisible characters shown as escapes), so code under review cannot
move the cursor, recolour or rewrite the terminal.
"""

from __future__ import annotations

from receipt.models import Receipt
from receipt.render import view as v
from receipt.render.escape import clip, visible

_RED, _YELLOW, _GREEN, _DIM, _BOLD, _RESET = "\x1b[31m", "\x1b[33m", "\x1b[32m", "\x1b[2m", "\x1b[1m", "\x1b[0m"
_MAX_ROWS = 200


def _t(text: str, limit: int = 200) -> str:
    return clip(visible(text), limit)


def render_terminal(receipt: Receipt, *, colour: bool = True) -> str:
    def c(code: str, text: str) -> str:
        return f"{code}{text}{_RESET}" if colour else text

    view, titles, _ = v.build_view(receipt, surface_limit=0)
    verdict = "PASS" if receipt.verdict.ok else "FAIL"
    vcol = _GREEN if receipt.verdict.ok else _RED
    counts = v.counts_text(view, receipt)
    out = [c(_BOLD + vcol, f"Behavior receipt: {verdict}") + f" — {counts}", ""]
    for row in view.sentences:
        where = row.where.text + (f" (+{row.places - 1} more)" if row.places > 1 else "")
        line = f"  {c(_RED, '✗')} {v.kind_word(row.subject.kind)} {_t(row.subject.name, 80)} {_t(row.words, 240)}"
        if row.reason:
            line += f". Why: {_t(row.reason)}"
        if row.note:
            line += f" ({_t(row.note, 400)})"
        out.append(f"{line}  {c(_DIM, _t(where, 160))}")
    if view.sentences:
        out.append("")
    sev_mark = {"regression": c(_RED, "regression"), "warning": c(_YELLOW, "warning"), "info": "info"}
    for group in v.groups(view.rows[:_MAX_ROWS], titles):
        title = group.title
        out.append(c(_BOLD, _t(f"{title.kind[:1].upper()}{title.kind[1:]} {title.name}".strip(), 120)))
        for row in group.rows:
            lead = "accepted" if row.accepted is not None else sev_mark[row.severity]
            words = row.words + (f"; {'; '.join(row.folded)}" if row.folded else "")
            where = row.where.text + (f" (+{row.places - 1} more)" if row.places > 1 else "")
            name = row.subject.name + (f" · {row.subject.context}" if row.subject.context else "")
            note = f" ({_t(row.note, 400)})" if row.note else ""
            out.append(f"  {lead}: {row.subject.kind} {_t(name, 100)}: {_t(words, 240)}{note}  {c(_DIM, _t(where, 160))}")
        out.append("")
    if len(view.rows) > _MAX_ROWS:
        out += [f"… {len(view.rows) - _MAX_ROWS:,} more changes (use --format json for all)", ""]
    for t in view.texts:
        out.append(c(_BOLD, f"{t.subject.kind} {_t(t.subject.name, 80)}, {t.word}:"))
        for line in t.lines:
            col = _GREEN if line.startswith("+") else _RED if line.startswith("-") else _DIM
            out.append("  " + c(col, _t(line, 300)))
        out.append("")
    if view.touched_issues:
        out.append(c(_YELLOW, f"{v.plural(view.touched_files, 'file', 'files')} this change touched could not be fully analysed:"))
        out += [f"  {_t(i.where.text, 160)}: {_t(i.reason, 40)}: {_t(i.message, 200)}" for i in view.touched_issues[:30]]
        out.append("")
    if view.untouched_files:
        out += [f"{v.plural(view.untouched_files, 'other file', 'other files')} with unreadable code or unresolved registrations, unchanged here.", ""]
    note = "" if v.compared_is_plain(receipt) else f"{receipt.compared}: "
    sides = f"base {v.rev_label(receipt.base.rev, receipt.base.sha)} → head {v.rev_label(receipt.head.rev, receipt.head.sha)}"
    out.append(c(_DIM, _t(f"compared {note}{sides}", 300)))
    out.append(c(_BOLD + vcol, f"{verdict}") + f" — {counts}")
    return "\n".join(out) + "\n"
