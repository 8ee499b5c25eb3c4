"""Code the analyser cannot see, reported so a receipt never says "no changes" while it was blind.

Not a framework: this dialect only turns facts into issues. `exec`/`eval`/`compile` of a value
computed at run time and imports of computed module names (`importlib.import_module(name)`,
`__import__(name)`) run code no static reading can follow; each occurrence is an issue with reason
`dynamic-code` (catalogue: `surface.dynamic_code`). Committed bytecode, native extensions and `.pth`
files are found by the tree listing (reason `compiled-code`). A module taking names by star imports
from several outside packages, one of them a framework's, is noted: which package a name it uses
comes from is not known (the linker resolves such a name to no package). Calls an exported agent makes through
a computed target (`globals()[...]()`) are reported by the linker, which knows what is exported
(`unfollowable_reach`).
"""

from __future__ import annotations

from receipt.dialects.base import Candidate, DialectResult, issue, shape
from receipt.dialects.registry import FRAMEWORK_PACKAGES
from receipt.extract.program import Program
from receipt.models import ExtractionIssue

NAME = "unseen"
# Top-level packages of the frameworks the dialects read (those always read included).
_FRAMEWORKS = tuple(sorted({p for ps in FRAMEWORK_PACKAGES.values() for p in ps} | {"mcp", "fastmcp"}))

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
    for m in program.modules.values():
        if m.star_imports:
            outside = _outside_stars(program, m.module, set())
            if len(outside) > 1 and any(s.split(".", 1)[0].startswith(_FRAMEWORKS) for s in outside):
                spelt = " and ".join(f"from {s} import *" for s in outside)
                result.issues.append(issue(m.path, None, f"{spelt}: a name this module uses from them may come from either package, "
                                           "so what it builds with such names may be left out of the surface or misread", site=("star imports", *outside)))
    result.issues.sort(key=lambda i: (i.path, i.line or 0, i.message))
    return result


def _outside_stars(program: Program, module: str, seen: set[str]) -> list[str]:
    """The packages outside the repository whose names `module` takes by star imports, directly
    or through star imports of repository modules (which outside package exports what is not known)."""
    seen.add(module)
    out: set[str] = set()
    m = program.modules.get(module)
    for star in m.star_imports if m is not None else ():
        if not program.in_repo(star):
            out.add(star)
        elif len(seen) < 16 and (split := program.module_split(star)) is not None and not split[1] and split[0] not in seen:
            out.update(_outside_stars(program, split[0], seen))
    return sorted(out)


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
