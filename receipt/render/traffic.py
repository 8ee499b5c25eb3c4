"""The "Seen in recorded traffic" section of the markdown receipt (present only with --traces).

Built from the receipt's `traces` evidence and `traffic` list; every string from traces or code
goes through `md`. Kept apart from markdown.py so the receipt layout can change independently.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Optional

from receipt.models import Change, Receipt
from receipt.render.escape import Md, md, trusted

MAX_ROWS = 20
_ID = 32  # a W3C trace id; longer ids are clipped here (the JSON has them whole)
_IDS_SHOWN = 3


_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


def _time(value: str) -> Md:
    # Times are written by receipt.traces in this one form; anything else is escaped like any text.
    return trusted(value) if _TIME.fullmatch(value) else md(value, 40)


def _pct(share: float) -> str:
    pct = share * 100
    if pct and pct < 0.1:
        return "<0.1%"
    return f"{pct:.1f}%"


def traffic_view(receipt: Receipt, describe: Callable[[Change], tuple[Md, Md]]) -> Optional[dict[str, Any]]:
    """None without trace evidence; else {summary, rows[]{what, change, seen}, more, unseen}.

    Three columns like every table of the comment: what (as the change tables name it), the
    change in words (`describe`, shared with those tables), and the recorded traffic that
    exercises it (count, share, errors, time span, the first trace ids; the JSON has them all)."""
    ev = receipt.traces
    if ev is None:
        return None
    parts = [
        f"{ev.traces:,} recorded {'trace' if ev.traces == 1 else 'traces'}",
        f"{ev.errored_traces:,} with errors",
        f"{ev.files:,} {'file' if ev.files == 1 else 'files'} (sha256 of digests {ev.files_sha256[:12]})",
    ]
    summary = md(", ".join(parts))
    if ev.first_seen and ev.last_seen:
        summary = Md(f"{summary}, {_time(ev.first_seen)} → {_time(ev.last_seen)}")
    if ev.malformed or ev.unknown_events:
        summary = Md(f"{summary} · skipped: {ev.malformed:,} malformed lines, {ev.unknown_events:,} events of unknown kinds")
    if ev.escalate_above is not None:
        summary = Md(f"{summary} · severity raised one level above {md(_pct(ev.escalate_above), 12)} of traffic")
    by_fp = {c.fingerprint: c for c in receipt.changes}
    seen = [t for t in receipt.traffic or [] if t.traces and t.fingerprint in by_fp]
    seen.sort(key=lambda t: (-t.traces, t.subject, t.id, t.fingerprint))
    rows = []
    for t in seen[:MAX_ROWS]:
        what, change = describe(by_fp[t.fingerprint])
        text = f"**{t.traces:,} {'trace' if t.traces == 1 else 'traces'}** ({_pct(t.share)})"
        if t.errored:
            text += f", {t.errored:,} errored"
        if t.ambiguous:
            text += " · upper bound: the name fits several entries"
        if t.escalated:
            text += " · **severity raised**"
        if t.first_seen and t.last_seen:
            text += f" · {_time(t.first_seen)} → {_time(t.last_seen)}"
        if t.trace_ids:
            ids = ", ".join(f"{md(i, _ID)}" for i in t.trace_ids[:_IDS_SHOWN])
            text += f" · first: {ids}"
        rows.append({"what": what, "change": change, "seen": Md(text)})
    unseen = sum(1 for t in receipt.traffic or [] if not t.traces)
    return {"summary": summary, "rows": rows, "more": len(seen) - len(rows), "unseen": unseen, "title": trusted("Seen in recorded traffic")}


def shrink(view: Optional[dict[str, Any]]) -> Optional[dict[str, Any]]:
    """The section without its table (the summary and the counts stay), when the comment is over budget."""
    if view is None or not view["rows"]:
        return view
    return {**view, "rows": [], "more": len(view["rows"]) + view["more"]}
