"""Code the analyser cannot see, reported so a receipt never says "no changes" while it was blind.

Not a framework: this dialect only turns facts into issues. `exec`/`eval`/`compile` of a value
computed at run time and imports of computed module names (`importlib.import_module(name)`,
`__import__(name)`) run code no static reading can follow; each occurrence is an issue with reason
`dynamic-code` (catalogue: `surface.dynamic_code`). Committed bytecode, native extensions and `.pth`
files are found by the tree listing (reason `compiled-code`). Calls an exported agent makes through
a computed target (`globals()[...]()`) are reported by the linker, which knows what is exported
(`unfollowable_reach`).
"""

from __future__ import annotations

from receipt.dialects.base import Candidate, DialectResult, issue, shape
from receipt.extract.program import Program
from receipt.models import ExtractionIssue

NAME = "unseen"

_WHAT = {
    "dynamic-code": "runs code computed at run time",
    "dynamic-import": "imports a module whose name is computed at run time",
}


def extract(program: Program) -> DialectResult:
    result = DialectResult()
    for m in program.modules.values():
        for line, kind, src in m.dynamic_code:
            # The message names the code, not the line: moving it is not news (issues are keyed by text).
            result.issues.append(issue(m.path, line, f"{src} {_WHAT.get(kind, 'is not analysable')}; "
                                       "what it defines or registers is not in the surface", reason="dynamic-code"))
    result.issues.sort(key=lambda i: (i.path, i.line or 0, i.message))
    return result


def unfollowable_reach(program: Program, candidates: list[Candidate]) -> list[ExtractionIssue]:
    """One issue per call an exported agent makes through a target computed at run time."""
    out: list[ExtractionIssue] = []
    for c in candidates:
        if not c.entry.exported or c.entry.kind != "agent":
            continue
        for symbol in sorted(c.symbols):
            fn = program.functions.get(symbol)
            if fn is None:
                continue
            for line, src in fn.indirect:
                out.append(issue(program.path_of(symbol), line, f"agent '{c.entry.name}' calls {src}(...): the target is computed "
                                 "at run time, so what it reaches is not in the surface", site=("computed call", shape(src))))
    return out
