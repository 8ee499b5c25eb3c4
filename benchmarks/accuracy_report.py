"""Accuracy of the receipt on the corpus in tests/accuracy/corpus, per framework and per change id.

    python benchmarks/accuracy_report.py              # every case
    python benchmarks/accuracy_report.py -k mcp       # cases whose id contains "mcp"
    python benchmarks/accuracy_report.py --verbose    # also every finding of every case

Each case is run exactly as the test suite runs it (a real git repository, `build_receipt(repo,
"HEAD~1", "HEAD")`). Prints precision and recall per framework and overall, a per-change-id
confusion table (true positives, false positives, false negatives), and every mismatching case with
what was missing and what was unexpected. Cases marked `xfail` (known defects) are listed apart and
left out of the totals, as in the test. Exit status 1 when the totals are below 100%.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path
from typing import Sequence

PROJECT = Path(__file__).resolve().parent.parent
if str(PROJECT) not in sys.path:  # run as `python benchmarks/accuracy_report.py` from a checkout
    sys.path.insert(0, str(PROJECT))

from tests.accuracy.harness import Outcome, Totals, load_cases, run_case, totals  # noqa: E402


def _table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    cells = [[str(c) for c in headers], *[[str(c) for c in r] for r in rows]]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    line = lambda r: "| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |"  # noqa: E731
    return "\n".join([line(cells[0]), "|" + "|".join("-" * (w + 2) for w in widths) + "|", *map(line, cells[1:])])


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _row(label: str, cases: int, t: Totals) -> list[object]:
    return [label, cases, t.tp, t.fp, t.fn, _pct(t.precision), _pct(t.recall)]


def report(outcomes: list[Outcome], verbose: bool = False) -> tuple[str, bool]:
    scored = [o for o in outcomes if o.case.xfail is None]
    known = [o for o in outcomes if o.case.xfail is not None]
    by_fw: dict[str, list[Outcome]] = defaultdict(list)
    for o in scored:
        by_fw[o.case.framework].append(o)
    overall = totals(scored)
    out = ["## Accuracy by framework", ""]
    rows = [_row(fw, len(os_), totals(os_)) for fw, os_ in sorted(by_fw.items())]
    rows.append(_row("**all**", len(scored), overall))
    out += [_table(["framework", "cases", "tp", "fp", "fn", "precision", "recall"], rows), ""]
    quiet = [o for o in scored if not o.case.expected]
    loud = sum(1 for o in quiet if o.produced)
    out += [f"No-change cases: {len(quiet)}, of which {loud} produced findings.", ""]

    tp: Counter[str] = Counter()
    fp: Counter[str] = Counter()
    fn: Counter[str] = Counter()
    for o in scored:
        for counts, found in ((tp, o.tp), (fp, o.fp), (fn, o.fn)):
            for f, n in found.items():
                counts[f.id] += n
    ids = sorted(set(tp) | set(fp) | set(fn))
    out += ["## Confusion by change id", ""]
    out += [_table(["change id", "tp", "fp", "fn"], [[i, tp[i], fp[i], fn[i]] for i in ids]), ""]

    bad = [o for o in scored if not o.exact]
    out += ["## Mismatches", ""]
    out += [o.mismatch() for o in bad] or ["none"]
    out.append("")
    if known:
        out += ["## Known defects (xfail, not in the totals)", ""]
        for o in known:
            state = "still failing" if not o.exact else "PASSES NOW: remove the xfail"
            out += [f"{o.case.id}: {o.case.xfail} [{state}]"]
        out.append("")
    if verbose:
        out += ["## Findings per case", ""]
        for o in outcomes:
            out.append(f"{o.case.id}: {o.case.description}")
            out += [f"  {m}" for m in o.messages] or ["  (no changes)"]
        out.append("")
    return "\n".join(out), overall.precision == 1.0 and overall.recall == 1.0


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-k", dest="pattern", default="", help="only cases whose id contains this text")
    ap.add_argument("--verbose", action="store_true", help="list every finding of every case")
    args = ap.parse_args(argv)
    cases = [c for c in load_cases() if args.pattern in c.id]
    if not cases:
        print(f"no case matches {args.pattern!r}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="receipt-accuracy-") as tmp:
        root = Path(tmp)
        os.environ["RECEIPT_CACHE_DIR"] = str(root / "cache")
        outcomes = [run_case(c, root / c.framework / c.name) for c in cases]
    text, perfect = report(outcomes, verbose=args.verbose)
    print(text)
    return 0 if perfect else 1


if __name__ == "__main__":
    raise SystemExit(main())
