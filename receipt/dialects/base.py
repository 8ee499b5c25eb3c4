"""What a dialect is, and the helpers every dialect shares.

A dialect module (one per framework) exposes `NAME: str` and `extract(program) -> DialectResult`.
It reads the linked `Program` and returns `Candidate`s: surface entries plus the Python symbols
that denote them and the symbols they reach. The linker turns symbols into entry keys and
computes the exported closure. Dialects are discovered by module name (see `registry`), so adding
one never edits a shared file.
"""

from __future__ import annotations

import hashlib
import re
import textwrap
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Iterator

from receipt.extract.facts import AssignFact, Attr, Call, ClassFact, Dyn, EffectFact, Expr, FunctionFact, ModuleFacts, Ref
from receipt.extract.program import Program, describe
from receipt.models import APPROVAL_ORDER, TEXT_LIMIT, TRUST_FROM_APPROVAL, Dynamic, Entry, ExtractionIssue, Param, Signature


@dataclass
class Candidate:
    entry: Entry
    symbols: set[str] = field(default_factory=set)  # canonical symbols that denote this entry
    reach: list[str] = field(default_factory=list)  # canonical symbols (or "key:<entry key>") it reaches
    # Overlays (native markers stacked on a framework declaration) patch the entry that shares a
    # symbol instead of standing alone; `declared` holds the attributes they set explicitly.
    overlay: bool = False
    declared: dict[str, Any] = field(default_factory=dict)
    # An overlay that finds no framework entry to patch stands alone as its own entry, unless it
    # only carries flags (`@replayable` alone describes nothing by itself).
    standalone: bool = True
    # Where a reach is listed when not at the entry (`class Researcher(Agent): tools = [...]` in
    # another file than the constructor call): symbol -> (path, line), for the notes about it.
    listed_at: dict[str, tuple[str, int]] = field(default_factory=dict)


@dataclass
class DialectResult:
    candidates: list[Candidate] = field(default_factory=list)
    issues: list[ExtractionIssue] = field(default_factory=list)


# Parameters a framework injects at call time: never part of a tool's signature.
INJECTED_TYPES = frozenset(
    {
        "Context",  # MCP / fastmcp
        "RunContextWrapper",  # OpenAI Agents SDK
        "RunContext",  # PydanticAI
        "ToolContext",  # Google ADK, OpenAI Agents ToolContext
        "InjectedToolArg",
        "InjectedState",
        "InjectedStore",
        "InjectedToolCallId",
        "ToolRuntime",
        "CallbackContext",
        "Runtime",
    }
)
INJECTED_NAMES = frozenset({"self", "cls", "tool_context", "ctx", "context", "run_context", "wrapper"})


def is_injected(param_name: str, annotation: str | None, annotation_ref: str | None, *, by_name: bool = False) -> bool:
    if param_name in ("self", "cls"):
        return True
    for text in (annotation_ref or "", annotation or ""):
        # `ctx: Context | None = None`: the SDKs look through Optional and unions for the type
        for member in _union_members(text):
            if member.rsplit(".", 1)[-1].split("[", 1)[0].strip() in INJECTED_TYPES:
                return True
        if any(t in text for t in ("InjectedToolArg", "InjectedState", "InjectedStore", "InjectedToolCallId")):
            return True
    return by_name and annotation is None and param_name in INJECTED_NAMES


def _union_members(text: str) -> list[str]:
    """The members of a union annotation's text (`A | None`, `Optional[A]`, `Union[A, B]`), else the text."""
    text = text.strip()
    for wrapper in ("Optional[", "typing.Optional[", "Union[", "typing.Union["):
        if text.startswith(wrapper) and text.endswith("]"):
            return [m for part in _split_top(text[len(wrapper):-1], ",") for m in _union_members(part)]
    parts = _split_top(text, "|")
    return [text] if len(parts) == 1 else [m for part in parts for m in _union_members(part)]


def _split_top(text: str, sep: str) -> list[str]:
    """`text` split at `sep` outside brackets (`dict[str, int | None] | None` -> two parts)."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def signature_of(fn: FunctionFact, *, drop_first: bool = False, drop_names: Iterable[str] = ()) -> Signature:
    """The caller-visible signature: injected context parameters, self/cls and `drop_names` removed."""
    params: list[Param] = []
    dropped = set(drop_names)
    for i, p in enumerate(fn.params):
        if drop_first and i == 0:
            continue
        if p.name in dropped or is_injected(p.name, p.annotation, p.annotation_ref):
            continue
        name = {"varargs": f"*{p.name}", "varkw": f"**{p.name}"}.get(p.kind, p.name)
        params.append(Param(name=name, type=p.annotation, required=p.required, default=p.default, refs=p.refs))
    return Signature(params=params, returns=fn.returns)


class TextDigest(str):
    """A digest that carries (a bounded prefix of) the text it was computed from, so that the Entry
    it is given to keeps the words for the receipt (see models.Entry); only the digest is compared."""

    text: str | None

    def __new__(cls, value: str, text: str | None) -> "TextDigest":
        obj = super().__new__(cls, value)
        obj.text = text
        return obj


def digest(text: Any) -> str | None:
    """sha256 of a description/instructions text, insensitive to indentation and surrounding blanks."""
    if text is None:
        return None
    if isinstance(text, Dynamic):
        return "dynamic:" + hashlib.sha256(text.dynamic.encode()).hexdigest()
    if not isinstance(text, str):
        text = str(text)
    normal = textwrap.dedent(text).strip().replace("\r\n", "\n")
    return TextDigest(hashlib.sha256(normal.encode("utf-8")).hexdigest(), normal[:TEXT_LIMIT])


def name_expression(program: Program, expr: Expr | None) -> str | None:
    """The registered name's expression when its value is not statically known (the entry is then
    named by a fallback, such as the function or variable name): `Entry.name_expr`, which identity
    follows (`receipt.identity`), by meaning (`Program.render`), so renaming the function behind an
    unchanged `name=` expression is no change. None when there is no expression or its value is known."""
    if expr is None:
        return None
    value = program.evaluate(expr)
    if value is None or (isinstance(value, str) and value):  # `name=None` spells the default
        return None
    return program.render(expr)


def as_bool(value: Any, default: bool) -> bool | Dynamic:
    if value is None:
        return default
    if isinstance(value, Dynamic):
        return value
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, str)):
        return bool(value)
    return Dynamic(dynamic=repr(value)[:120])


def as_str(value: Any) -> str | Dynamic | None:
    if value is None or isinstance(value, (str, Dynamic)):
        return value
    return Dynamic(dynamic=repr(value)[:120])


APPROVALS = ("never", "conditional", "always")


def given_through_spread(call: Call | None, key: str) -> Dynamic | None:
    """Unknown, when `key` is not given to `call` but a `**x` left unread (`Program.spread_call`
    read the others) may give it; else None (not given: the framework's default)."""
    if call is None or not call.spread:
        return None
    return Dynamic(dynamic=f"{key} given through **{describe(call.spread[0])}")


def approval_from(value: Any, program: Program | None = None, expr: Expr | None = None) -> str | Dynamic:
    """Map a framework's approval flag onto never | conditional | always.

    True -> always; False/None -> never; a callable (a function deciding per call) -> conditional;
    a literal "never"/"conditional"/"always" passes through; anything unknowable -> Dynamic.
    """
    if isinstance(value, bool):
        return "always" if value else "never"
    if value is None:
        return "never"
    if isinstance(value, str) and value in APPROVALS:
        return value
    if program is not None and expr is not None and isinstance(expr, Ref):
        target = program.canonical(expr.name)
        if target in program.functions:
            return "conditional"
    if isinstance(value, Dynamic):
        return value
    return Dynamic(dynamic=repr(value)[:120])


def trust_from(approval: str | Dynamic) -> str | Dynamic:
    if isinstance(approval, Dynamic):
        return approval
    return TRUST_FROM_APPROVAL[approval]


def stricter(a: Any, b: Any) -> Any:
    """Both gates apply: the stricter wins; unknown stays unknown unless the other is `always`."""
    if a == "always" or b == "always":
        return "always"
    if isinstance(a, Dynamic):
        return a
    if isinstance(b, Dynamic):
        return b
    return a if APPROVAL_ORDER[a] >= APPROVAL_ORDER[b] else b


def lowest(values: list[Any]) -> Any:
    """Several ways to reach a tool: the most permissive one is the tool's effective approval."""
    if any(v == "never" for v in values):
        return "never"
    dynamic = sorted((v for v in values if isinstance(v, Dynamic)), key=lambda d: d.dynamic)
    if dynamic:
        return dynamic[0]
    return min(values, key=lambda v: APPROVAL_ORDER[v])


def decorator_call(dec: Expr, program: Program | None = None) -> tuple[Expr, Call | None]:
    """`@x` -> (x, None); `@x(...)` -> (x, call). With `program`, the decorator as it is seen through
    its spelling (`Program.seen_decorator`: a variable holding a decorator factory's call, a
    `functools.partial`), which is how every dialect reads a decorator."""
    if program is not None:
        dec = program.seen_decorator(dec)
    if isinstance(dec, Call):
        return dec.func, dec
    return dec, None


def through_factory(program: Program, call: Call) -> Call:
    """`guarded(fn)` where `guarded` holds a decorator factory's call (`guarded =
    function_tool(needs_approval=True)`, or a `functools.partial` of one) is that call applied to
    `fn`: `function_tool(needs_approval=True)(fn)`, read as the dialect reads the inline spelling.
    Any other call comes back as it is."""
    if call.func.__class__ is not Ref:
        return call
    seen = program.seen_decorator(call.func)
    return replace(call, func=seen) if seen.__class__ is Call else call


def split_method(func: Expr, *, parameters: bool = False) -> tuple[Expr | None, str | None]:
    """The callee of `x.m(...)` as (x, "m"): `Ref("pkg.mod.mcp.tool")` -> (Ref("pkg.mod.mcp"), "tool"),
    `make().tool` -> (make(), "tool"); with `parameters`, also a parameter's method (`Dyn("mcp.tool")`
    -> (Dyn("mcp"), "tool")). Anything else -> (None, None)."""
    if isinstance(func, Ref) and "." in func.name:
        receiver, method = func.name.rsplit(".", 1)
        return Ref(receiver), method
    if parameters and isinstance(func, Dyn) and func.why == "parameter" and "." in func.src:
        receiver, method = func.src.rsplit(".", 1)
        return Dyn(receiver, "parameter"), method
    if isinstance(func, Attr):
        return func.value, func.attr
    return None, None


def assigned_later(program: Program, symbols: Iterable[str], attr: str, built: Expr | None = None) -> Expr | None:
    """What `obj.attr = v` / `setattr(obj, "attr", v)` written after an object was built leaves in `attr`
    (`delete_repo.needs_approval = False` after `@function_tool(needs_approval=True)`); None when
    nothing assigns it. Several or conditional assignments, or `setattr` with a computed name, give
    a `Dyn`: the value is then not knowable statically. `built`: the expression building the
    object inline in a container, when it is one (`Program.item_mutations`)."""
    found: list[tuple[str, Expr, bool]] = []
    for s in sorted(set(symbols)):
        found.extend(program.mutations(s, attr))
    if built is not None:
        found.extend(program.item_mutations(built, attr))
    if not found:
        return None
    if len(found) == 1 and found[0][0] == "=" and not found[0][2]:
        return found[0][1]
    return Dyn("; ".join(sorted({f"{attr} = {describe(v)}" for _, v, _ in found})), "mutation")


def issue(path: str, line: int | None, message: str, reason: str = "unresolved", site: Iterable[str] = ()) -> ExtractionIssue:
    """A note about something the analyser cannot follow. `site` is its identity (`ExtractionIssue.site`):
    what is registered where (`("agent", "tools", shape)`), with expressions given by `shape`;
    it must leave out the names a pull request may rename, which the message is free to show."""
    return ExtractionIssue(path=path, line=line, kind="unresolved", reason=reason, message=message, site="\x1f".join(site))


_QUALIFIED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.(?:<locals>\.)?[A-Za-z_][A-Za-z0-9_]*)+")


def shape(expr: Expr | str | None) -> str:
    """An expression as a note's identity: its text with every dotted name cut to its last part, so
    the module or function it sits in (`pkg.app.main.tools`) does not make a standing note new."""
    text = "" if expr is None else expr if isinstance(expr, str) else describe(expr)
    return _QUALIFIED.sub(lambda m: m.group(0).rsplit(".", 1)[-1], " ".join(text.split()))


def expr_text(expr: Expr | None) -> str:
    return describe(expr) if expr is not None else ""


def leaf(name: str | None) -> str:
    """Last segment of a dotted name (`agents.tool.function_tool` -> `function_tool`); "" for None."""
    return (name or "").rsplit(".", 1)[-1]


def module_level_public(program: Program, symbol: str) -> bool:
    """A public name of a module of the repository (an export candidate): not inside a function,
    not a class attribute, last segment not starting with `_`. `other_module.x = ...` counts for
    `other_module`: importers see it there."""
    if "<locals>" in symbol:
        return False
    module, _, name = symbol.rpartition(".")
    return module in program.modules and not name.startswith("_")


def _qualified_tail(path: str) -> str:
    """What follows the module in a dotted path: from its first class segment on (`Class.method`,
    `Class`), or the leaf of a module-level name (`function_tool`). Python's convention (PEP 8) is
    the only sign of where the module ends in the name of something the analysis never sees."""
    parts = path.split(".")
    for i, part in enumerate(parts):
        if part.lstrip("_")[:1].isupper():
            return ".".join(parts[i:])
    return parts[-1]


def origin_matches(origin: str | None, *candidates: str) -> bool:
    """True when `origin` is one of `candidates` or a re-export path ending in one of them.

    Frameworks re-export names (`agents.function_tool` is `agents.tool.function_tool`), so a
    dialect lists the public spellings and this compares on top package + what follows the module.
    A method is compared with its class (`SystemMessagePromptTemplate.from_template` never matches
    the human one), and a method called on a value is compared by where that value comes from
    (`PromptTemplate.from_template(...).partial` is not `PromptTemplate.partial`): never by the
    spelling of the method name alone.
    """
    if not origin:
        return False
    key = (origin, candidates)
    found = _MATCHES.get(key)
    if found is None:
        if len(_MATCHES) >= _MATCHES_MAX:  # a long-lived process (a server, the test suite) stays bounded
            _MATCHES.clear()
        found = _MATCHES[key] = any(origin == c or (origin.startswith(c.partition(".")[0] + ".") and _qualified_tail(origin) == _qualified_tail(c))
                                    for c in candidates)
    return found


# origin_matches is a pure function of its strings, asked the same question for every call of a
# program by several screens: memoised (a program has tens of thousands of distinct origins).
_MATCHES: dict[tuple[str, tuple[str, ...]], bool] = {}
_MATCHES_MAX = 200_000


# -- screened scans (see `Program.scan`): a dialect's whole-program loop limited to what a pure test
# of each item selects. `keep` may read the item and ask the program anything, never the dialect's
# own state; the site names the loop uniquely, so that a memo can reuse its per-module results.


def screened_functions(p: Program, site: str, keep: Callable[[Program, FunctionFact], bool], calling: frozenset[str] | None = None) -> Iterator[FunctionFact]:
    """`p.iter_functions()`, only those `keep` selects, in the same order. `calling`: for a `keep`
    that selects only a function with a decorator whose origin matches (`origin_matches`) a name
    under these top-level packages (`tops`): modules with no such decorator are passed over
    (`Program.calls_into`)."""
    if calling is None:
        return (fn for _m, fn in p.scan(site, lambda p, m: [fn for fn in m.functions if keep(p, fn)]))
    return (fn for _m, fn in p.scan(site, lambda p, m: [fn for fn in m.functions if keep(p, fn)] if p.calls_into(m, calling) else _NOTHING))


def screened_assigns(p: Program, site: str, keep: Callable[[Program, AssignFact], bool]) -> Iterator[AssignFact]:
    """`p.iter_assigns()`, only those `keep` selects, in the same order."""
    return (a for _m, a in p.scan(site, lambda p, m: [a for a in m.assigns if keep(p, a)]))


def screened_assigned_calls(p: Program, site: str, keep: Callable[[Program, AssignFact], bool], calling: frozenset[str] | None = None) -> Iterator[AssignFact]:
    """`screened_assigns` for a `keep` that selects only `=` assignments of a call (`x = Agent(...)`):
    the same items, read from the program's one list of those per module (`Program.assigned_calls`)
    instead of every assignment once per screen. `calling`: for a `keep` that selects only a call
    whose callee (or a callee down its chain, `Agent(...).with_config(...)`) has an origin matching
    (`origin_matches`) a name under these top-level packages (`tops`): modules that call nothing
    under them are passed over (`Program.calls_into`)."""
    if calling is None:
        return (a for _m, a in p.scan(site, lambda p, m: [a for a in p.assigned_calls(m) if keep(p, a)]))
    return (a for _m, a in p.scan(site, lambda p, m: [a for a in p.assigned_calls(m) if keep(p, a)] if p.calls_into(m, calling) else _NOTHING))


def tops(*names: Iterable[str]) -> frozenset[str]:
    """The top-level packages of these dotted names: what `origin_matches` against any of them
    requires an origin to start with (`x` of `x.y.z`; an origin equal to a name, or under its package)."""
    return frozenset(n.partition(".")[0] for group in names for n in group)


_NOTHING: list = []  # a module a screen passes over selects nothing (shared, never mutated)


def screened_classes(p: Program, site: str, keep: Callable[[Program, ClassFact], bool]) -> Iterator[ClassFact]:
    """`p.iter_classes()`, only those `keep` selects, in the same order."""
    return (c for _m, c in p.scan(site, lambda p, m: [c for c in m.classes if keep(p, c)]))


def screened_effects(p: Program, site: str, keep: Callable[[Program, EffectFact], bool]) -> Iterator[tuple[ModuleFacts, EffectFact]]:
    """(module, effect) for the effects of every module `keep` selects, in program order."""
    return p.scan(site, lambda p, m: [e for e in m.effects if keep(p, e)])
