"""Native markers: `from receipt.markers import agent, tool, prompt, replayable, deterministic`.

A marked agent is exported unless `agent(exported=False)`; its reach is the marked tools and
agents its body calls, resolved statically across modules. A marker stacked on a framework
declaration (e.g. `@tool(dangerous=True)` over `@function_tool`) overlays its attributes onto it.
"""

from __future__ import annotations

from typing import Any

from receipt.dialects.base import (
    Candidate,
    DialectResult,
    approval_from,
    as_bool,
    as_str,
    decorator_call,
    digest,
    name_expression,
    issue,
    screened_functions,
    signature_of,
    trust_from,
)
from receipt.extract.facts import Concat, FunctionFact, Map, Ref, Seq, Splat
from receipt.extract.program import Program
from receipt.models import TRUST_ORDER, Dynamic, Entry

NAME = "markers"
_MODULE = "receipt.markers"
_KINDS = ("agent", "tool", "prompt")
_FLAGS = ("replayable", "deterministic")
_BOOL_ATTRS = ("dangerous", "read_only", "idempotent", "open_world", "replayable", "deterministic")
_TEXTS = ("description", "instructions")  # compared by value (`Program.text`)


def _marker_name(program: Program, dec: Any) -> tuple[str | None, Any]:
    func, call = decorator_call(dec, program)
    origin = program.origin(func)
    if origin and origin.startswith(_MODULE + "."):
        leaf = origin[len(_MODULE) + 1 :]
        if leaf in _KINDS or leaf in _FLAGS:
            return leaf, call
    return None, None


def _declared(program: Program, call: Any) -> dict[str, Any]:
    if call is None:
        return {}
    return {k: program.text(v) if k in _TEXTS else program.evaluate(v) for k, v in call.kwargs}


def _entry(program: Program, fn: FunctionFact, kind: str, attrs: dict[str, Any], flags: set[str]) -> tuple[Entry, dict[str, Any]]:
    declared: dict[str, Any] = {}
    for name in _BOOL_ATTRS:
        if name in attrs:
            declared[name] = as_bool(attrs[name], False)
    for flag in flags:
        declared[flag] = True
    if "approval" in attrs:
        declared["approval"] = approval_from(attrs["approval"])
    if "trust" in attrs or "trust_tier" in attrs:
        trust = attrs.get("trust", attrs.get("trust_tier"))
        declared["trust_tier"] = trust if (isinstance(trust, str) and trust in TRUST_ORDER) or isinstance(trust, Dynamic) else Dynamic(dynamic=repr(trust))
        declared["trust_declared"] = True
    if "model" in attrs:
        declared["model"] = as_str(attrs["model"])
    text = attrs.get("description", attrs.get("instructions", fn.doc))
    name = attrs.get("name", fn.name)
    if not isinstance(name, str):
        name = fn.name
    entry = Entry(
        kind=kind,  # type: ignore[arg-type]
        name=name,
        path=program.path_of(fn.symbol),
        line=fn.line,
        dialect=NAME,
        conditional=fn.conditional,
        signature=signature_of(fn) if kind != "agent" else None,
        **{("instructions_sha256" if kind == "agent" else "description_sha256"): digest(text)},
    )
    apply_declared(entry, declared)
    return entry, declared


def apply_declared(entry: Entry, declared: dict[str, Any]) -> None:
    """Set declared attributes; derive trust from approval unless trust was declared."""
    for k, v in declared.items():
        setattr(entry, k, v)
    if "approval" in declared and not entry.trust_declared:
        entry.trust_tier = trust_from(entry.approval)  # type: ignore[assignment]


def _refs(program: Program, expr: Any) -> list[str]:
    """Names an argument mentions, through list/tuple/dict literals, splats and list variables: a
    hand-written loop is usually given its tools as `run(prompt, tools=[a, b])` or `tools=toolbox`,
    not one by one."""
    if isinstance(expr, Ref):
        out = [expr.name]
        if program.canonical(expr.name) in program.assigns:
            items = program.items(expr)
            if not isinstance(items, Dynamic):
                out += [i.expr.name for i in items if isinstance(i.expr, Ref)]
        return out
    if isinstance(expr, Seq):
        return [r for item in expr.items for r in _refs(program, item)]
    if isinstance(expr, Map):
        return [r for k, v in expr.items for r in (*_refs(program, k), *_refs(program, v))]
    if isinstance(expr, Splat):
        return _refs(program, expr.value)
    if isinstance(expr, Concat):
        return [*_refs(program, expr.left), *_refs(program, expr.right)]
    return []


def _marked(p: Program, fn: FunctionFact) -> bool:
    """A screen (see `base.screened_functions`): a decorator that is one of our markers."""
    return any(_marker_name(p, dec)[0] is not None for dec in fn.decorators)


def extract(program: Program) -> DialectResult:
    result = DialectResult()
    for fn in screened_functions(program, "markers.decorated", _marked):
        kinds: list[tuple[str, Any]] = []
        flags: set[str] = set()
        for dec in fn.decorators:
            marker, call = _marker_name(program, dec)
            if marker in _KINDS:
                kinds.append((marker, call))
            elif marker in _FLAGS:
                flags.add(marker)
        if not kinds and not flags:
            continue
        if not kinds:
            # @replayable alone on a framework object: overlay only.
            entry = Entry(kind="agent", name=fn.name, path=program.path_of(fn.symbol), line=fn.line, dialect=NAME)
            result.candidates.append(
                Candidate(entry, {fn.symbol}, overlay=True, declared={f: True for f in flags}, standalone=False)
            )
            continue
        if len(kinds) > 1:
            result.issues.append(issue(program.path_of(fn.symbol), fn.line, f"{fn.name}: more than one of @agent/@tool/@prompt; using the first", site=("marker kinds", *(k for k, _ in kinds))))
        kind, call = kinds[0]
        attrs = _declared(program, call)
        entry, declared = _entry(program, fn, kind, attrs, flags)
        entry.name_expr = name_expression(program, call.kw("name")) if call is not None else None
        exported = attrs.get("exported", kind == "agent")
        entry.root = exported is True
        reach: list[str] = []
        if kind == "agent":
            for c in fn.calls:
                for e in (c.func, *c.args, *(v for _, v in c.kwargs)):
                    reach.extend(program.canonical(r) for r in _refs(program, e))
        # Always an overlay: when a framework also declares this function (a decorator, or a plain
        # function listed in an agent's tools), the marker patches that entry; alone, it stands alone.
        result.candidates.append(Candidate(entry, {fn.symbol}, sorted(set(reach)), overlay=True, declared=declared))
    return result
