"""Code the analyser cannot see, reported so a receipt never says "no changes" while it was blind.

Not a framework: this dialect only turns facts into issues. `exec`/`eval`/`compile` of a value
computed at run time, `exec`/`eval` of code written in a string, writes to the module's namespace
under computed names (`globals().update(overrides)`) and imports of computed module names
(`importlib.import_module(name)`, `__import__(name)`) run code no static reading can follow; each
occurrence is an issue with reason `dynamic-code` (catalogue: `surface.dynamic_code`). Committed
bytecode, native extensions and `.pth` files are found by the tree listing (reason `compiled-code`).
A module taking names by star imports from several outside packages, one of them a framework's, is
noted: which package a name it uses comes from is not known (the linker resolves such a name to no
package). A module importing an agent framework no dialect reads (`UNREAD_FRAMEWORKS`: the Claude
Agent SDK, AutoGen, Agno, Strands, ...) is noted too: its agents and tools are not in the surface.
Calls an exported agent makes through a computed target (`globals()[...]()`) are reported
by the linker, which knows what is exported (`unfollowable_reach`), and so is a tool or agent an
agent lists that no dialect recognises (`unrecognised_reach`): only the linker knows that no dialect
made it an entry. So is a listed definition whose name an assignment binds again after it
(`refund = traced(refund)`, `rebound_reach`): the linker knows which entry was made where.
"""

from __future__ import annotations

from typing import Iterable, Iterator

from receipt.dialects.base import Candidate, DialectResult, decorator_call, issue, shape
from receipt.dialects.registry import FRAMEWORK_PACKAGES
from receipt.extract.facts import AssignFact, ClassFact, Const, FunctionFact, Ref
from receipt.extract.program import Program, describe
from receipt.models import ExtractionIssue

NAME = "unseen"
# Top-level packages of the frameworks the dialects read (those always read included).
_FRAMEWORKS = tuple(sorted({p for ps in FRAMEWORK_PACKAGES.values() for p in ps} | {"mcp", "fastmcp"}))

# Agent frameworks no dialect reads, by import prefix: a module importing one builds agents and tools
# the surface cannot hold (kept as data; a framework a dialect gains leaves this table).
UNREAD_FRAMEWORKS: dict[str, str] = {
    "claude_agent_sdk": "Claude Agent SDK",
    "autogen_agentchat": "AutoGen", "autogen_core": "AutoGen", "autogen_ext": "AutoGen", "autogen": "AutoGen / AG2",
    "agno": "Agno", "phi": "Agno (phidata)",
    "strands": "Strands Agents",
    "semantic_kernel": "Semantic Kernel",
    "agent_framework": "Microsoft Agent Framework",
    "llama_index.core.agent": "LlamaIndex", "llama_index.core.tools": "LlamaIndex", "llama_index.agent": "LlamaIndex",
    "haystack.components.agents": "Haystack", "haystack.tools": "Haystack",
    "camel.agents": "CAMEL", "camel.toolkits": "CAMEL",
    "letta": "Letta", "letta_client": "Letta",
    "swarm": "OpenAI Swarm",
    "praisonaiagents": "PraisonAI", "beeai_framework": "BeeAI", "langroid": "Langroid", "atomic_agents": "Atomic Agents",
}

_WHAT = {
    "dynamic-code": "runs code computed at run time",
    "dynamic-import": "imports a module whose name is computed at run time",
    "dynamic-names": "binds module names computed at run time",
    "string-code": "runs code written in a string, which is not analysed",
}


def extract(program: Program) -> DialectResult:
    result = DialectResult()
    for m in program.modules.values():
        for line, kind, src in m.dynamic_code:
            # The message names the code, not the line: moving it is not news (issues are keyed by text).
            result.issues.append(issue(m.path, line, f"{src} {_WHAT.get(kind, 'is not analysable')}; "
                                       "what it defines or registers is not in the surface", reason="dynamic-code"))
    for m in program.modules.values():
        # One note per framework a module imports, however many of its packages: a file importing
        # LlamaIndex's agents and its tools is one thing the receipt cannot read, said once.
        by_name: dict[str, list[str]] = {}
        for prefix, name in _unread_frameworks(m.imports.values()):
            by_name.setdefault(name, []).append(prefix)
        for name, prefixes in sorted(by_name.items()):
            result.issues.append(issue(m.path, None, f"imports {' and '.join(prefixes)} ({name}), an agent framework the receipt does not read: "
                                       "the agents and tools this module builds with it are not in the surface", site=("unread framework", name)))
    for m in program.modules.values():
        if m.star_imports:
            outside = _outside_stars(program, m.module, set())
            if len(outside) > 1 and any(s.split(".", 1)[0].startswith(_FRAMEWORKS) for s in outside):
                spelt = " and ".join(f"from {s} import *" for s in outside)
                result.issues.append(issue(m.path, None, f"{spelt}: a name this module uses from them may come from either package, "
                                           "so what it builds with such names may be left out of the surface or misread", site=("star imports", *outside)))
    result.issues.sort(key=lambda i: (i.path, i.line or 0, i.message))
    return result


_UNREAD_TOPS = frozenset(prefix.partition(".")[0] for prefix in UNREAD_FRAMEWORKS)


def _unread_frameworks(origins: Iterable[str]) -> list[tuple[str, str]]:
    """(import prefix, framework) of each `UNREAD_FRAMEWORKS` entry some origin is, or is under."""
    found: set[str] = set()
    for o in origins:
        if o.partition(".")[0] in _UNREAD_TOPS:  # most origins are not under any: one lookup each
            parts = o.split(".")
            found.update(p for p in (".".join(parts[:i]) for i in range(1, len(parts) + 1)) if p in UNREAD_FRAMEWORKS)
    return [(prefix, UNREAD_FRAMEWORKS[prefix]) for prefix in sorted(found)]


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


# Dialects whose reach is more than what an agent lists: the native markers' agents reach every
# function they call, most of them plain code, never meant to be entries.
_REACH_IS_CALLS = frozenset({"markers"})


def unrecognised_reach(program: Program, candidates: list[Candidate]) -> list[ExtractionIssue]:
    """One note per tool or agent an agent lists (`tools=[run_shell]`, a handoff, a wrapped agent)
    that names a definition of the repository no dialect made an entry of: a function under a
    decorator none of them knows (a third-party wrapper of the framework's own), a plain function,
    a variable holding what no dialect reads. The framework builds something from it at run time;
    leaving it out of the agent's reach without a word would be a silent miss.

    The note is placed where the agent lists it (the agent, or the class default it takes:
    `Candidate.listed_at`) and, when the definition lives in another file, there too: a pull
    request touching either is shown it. Its identity is the kind
    of definition and the decorators' shape, never the names a pull request may rename."""
    symbols: set[str] = set()
    for c in candidates:
        symbols |= c.symbols
    out: list[ExtractionIssue] = []
    noted: set[tuple[str, str]] = set()
    for c, r, target in _listed_reaches(program, candidates):
        if r in symbols or _known(program, target, symbols, 0):
            continue
        d = program.lookup(target)
        what, site = _definition(d)
        name = target.rsplit(".", 1)[-1]
        where = program.path_of(target) if d is not None else None
        listed, line = c.listed_at.get(r, (c.entry.path, c.entry.line))  # where the list naming it is
        out.append(issue(listed, line, f"{c.entry.kind} '{c.entry.name}' reaches {name}, {what}; "
                         "what the framework builds from it cannot be resolved statically", site=("unrecognised reach", c.entry.kind, *site)))
        if where and where != listed and (where, target) not in noted:
            noted.add((where, target))
            out.append(issue(where, getattr(d, "line", None), f"{name} is reached by {c.entry.kind} '{c.entry.name}' ({c.entry.path}) but is {what}; "
                             "what the framework builds from it cannot be resolved statically", site=("unrecognised reach", "definition", *site)))
    return out


def _listed_reaches(program: Program, candidates: list[Candidate]) -> Iterator[tuple[Candidate, str, str]]:
    """(candidate, reach as listed, its canonical symbol) for what each agent or tool lists by name
    (not the native markers' agents: their reach is every function they call)."""
    for c in candidates:
        if c.entry.dialect in _REACH_IS_CALLS or c.entry.kind not in ("agent", "tool"):
            continue
        for r in sorted(set(c.reach)):
            if not r.startswith("key:"):
                yield c, r, program.canonical(r)


def rebound_reach(program: Program, candidates: list[Candidate]) -> list[ExtractionIssue]:
    """One note per tool or agent an agent lists by the name of a definition (`@function_tool def
    refund`) that an assignment after it binds again (`refund = traced(refund)`): what the name
    holds from then on is what that value makes of the entry, read nowhere, and an agent listing
    the name may hold it (an agent built later, or in a function run later, does). Written inline
    (`tools=[traced(refund)]`) the same wrapper is a registration that cannot be followed; spelt
    as a rebinding it must not pass unseen. Not noted: an assignment a dialect made the entry from
    (`refund = function_tool(refund)` over a plain def), or one binding the name to itself."""
    made_at: dict[str, set[tuple[str, int]]] = {}
    for c in candidates:
        for symbol in c.symbols:
            made_at.setdefault(symbol, set()).add((c.entry.path, c.entry.line))
    out: list[ExtractionIssue] = []
    noted: set[tuple[str, str]] = set()
    for c, r, target in _listed_reaches(program, candidates):
        d = program.functions.get(target) or program.classes.get(target)
        if d is None or target not in made_at:
            continue
        path = program.path_of(target)
        home = program.module_of.get(target)
        own = {id(x) for x in home.assigns} if home is not None else set()
        # After the definition: later in its module, or from another module (`tools.refund = ...`
        # runs once the import has run the def).
        later = [a for a in program.assigns.get(target, ()) if (a.line > d.line or id(a) not in own) and (path, a.line) not in made_at[target]
                 and not (a.value.__class__ is Ref and program.canonical(a.value.name) == target)]  # type: ignore[union-attr]
        if not later:
            continue
        a = later[-1]
        if id(a) not in own:
            path = next((m.path for m in program.modules.values() if any(x is a for x in m.assigns)), path)
        name = target.rsplit(".", 1)[-1]
        may = "may be bound" if a.conditional else "is bound"
        listed, line = c.listed_at.get(r, (c.entry.path, c.entry.line))
        out.append(issue(listed, line, f"{c.entry.kind} '{c.entry.name}' reaches {name}, which {may} again after its definition, "
                         f"to {describe(a.value)}: what it holds from then on cannot be resolved statically",
                         site=("rebound reach", c.entry.kind, shape(a.value))))
        if path != listed and (path, target) not in noted:
            noted.add((path, target))
            out.append(issue(path, a.line, f"{name} {may} again after its definition, to {describe(a.value)}; {c.entry.kind} "
                             f"'{c.entry.name}' ({c.entry.path}) reaches it: what it holds from then on cannot be resolved statically",
                             site=("rebound reach", "definition", shape(a.value))))
    return out


def _known(program: Program, target: str, symbols: set[str], depth: int) -> bool:
    """True when `target` is an entry, an outside package's name, or a variable each of whose
    bindings is None or such a name (`x = agent_a if flag else None`: the framework is handed one
    of them, each in the surface already). Any other binding (a call, an in-place change, `+=`)
    leaves it unknown."""
    if target in symbols or program.is_external(target):
        return True
    binds = program.assigns.get(target, ())
    if depth >= 8 or not binds or any(a.op != "=" for a in binds):
        return False
    for a in binds:
        v = a.value
        if v.__class__ is Const and v.value is None:  # type: ignore[union-attr]
            continue
        if v.__class__ is not Ref or not _known(program, program.canonical(v.name), symbols, depth + 1):  # type: ignore[union-attr]
            return False
    return True


def _definition(d: object) -> tuple[str, tuple[str, ...]]:
    """How a definition no dialect recognised reads in a note, and its shape (the note's identity)."""
    if isinstance(d, FunctionFact | ClassFact):
        kind = "a function" if isinstance(d, FunctionFact) else "a class"
        decorators = [shape(decorator_call(x)[0]) for x in d.decorators]
        if decorators:
            return f"{kind} decorated by {', '.join('@' + describe(decorator_call(x)[0]) for x in d.decorators)}, which no dialect reads as a tool or an agent", (kind, *decorators)
        return f"{kind} no dialect recognises as a tool or an agent", (kind,)
    if isinstance(d, AssignFact):
        return f"a variable holding {describe(d.value)}, which no dialect recognises as a tool or an agent", ("variable", shape(d.value))
    return "a name no definition of the repository gives a value the receipt can read", ("unknown",)
