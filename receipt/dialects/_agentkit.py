"""Shared machinery of the agent-framework dialects.

Helpers used by several of them (model ids, instruction digests, foreign tools, reassigned agents),
and `Kit`, for dialects whose agents are constructor calls holding lists of tools and agents:
CrewAI, Google ADK and smolagents all spell an agent as `SomeAgent(..., tools=[...], <children>=[...])`
where list items are decorated functions, instances of tool classes, wrapper calls
(`FunctionTool(f)`), inline agents, or variables holding any of these. `Kit` resolves such
items to the symbols the linker understands, creates one candidate per declaration (deduplicated by
an *identity*: the symbol that names it, or its call site when it is written inline), and derives
the `conditional` flag of a tool from all the places it is attached.

Not a dialect itself (the registry skips modules starting with `_`).
"""

from __future__ import annotations

import hashlib
import textwrap
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable

from receipt.dialects.base import (
    Candidate,
    DialectResult,
    as_str,
    assigned_later,
    decorator_call,
    digest,
    issue,
    leaf,
    shape,
    lowest,
    stricter,
    trust_from,
)
from receipt.extract.facts import AssignFact, Call, ClassFact, Const, Dyn, Expr, FunctionFact, Ref
from receipt.extract.program import Item, Program, describe
from receipt.models import Dynamic, Entry, ExtractionIssue


def from_package(origin: str | None, packages: Iterable[str], *leaves: str) -> bool:
    """`origin` names one of `leaves` (any leaf when none given) defined under one of `packages`.

    Frameworks re-export names from deep modules (`google.adk.agents.llm_agent.LlmAgent` is
    `google.adk.agents.LlmAgent`), so the module part only has to start with the package; the leaf
    must match exactly, which keeps `crewai.project.tool` apart from `crewai.tools.tool`.
    """
    if not origin or "." not in origin:
        return False
    module, _, leaf = origin.rpartition(".")
    if leaves and leaf not in leaves:
        return False
    return any(module == p or module.startswith(p + ".") for p in packages)


def _private(part: str) -> bool:
    return part.startswith("_") and not (part.startswith("__") and part.endswith("__"))


def builds_root(program: Program, symbol: str) -> bool:
    """An agent the application builds where `symbol` names it is an export root (design, "Exported"):
    at module level, or inside a function or method (`def main(): agent = Agent(...)`, factories,
    CLIs), unless some part of its path below the module is private (`_grader = ...`,
    `def _offline_eval(): ...`), which marks it internal. A symbol outside the repository's modules
    (inline, synthetic) is not a root."""
    module = symbol
    while module and module not in program.modules:
        module = module.rpartition(".")[0]
    if not module or module == symbol:
        return False
    return not any(_private(part) for part in symbol[len(module) + 1 :].split("."))


def has_external_decorator(program: Program, fn: FunctionFact) -> bool:
    """Decorated by anything from outside the repository (another library owns the object); compare
    `foreign_tool`, which only counts the tool decorators of the frameworks we read."""
    for dec in fn.decorators:
        origin = program.origin(decorator_call(dec, program)[0])
        if origin and program.is_external(origin):
            return True
    return False


def _alternatives(program: Program, expr: Expr) -> list[Expr]:
    """The values a name assigned in several branches may hold (`Program.evaluate` reports such a name
    as 'one of' its alternatives), else []."""
    if not isinstance(expr, Ref):
        return []
    symbol = program.canonical(expr.name)
    d = program.lookup(symbol)
    if not (isinstance(d, AssignFact) and d.conditional):
        return []
    values = [a.value for a in program.assigns.get(symbol, ()) if a.op == "="]
    return values if len(values) > 1 else []


# Settings of a model object that change how a model answers, not which model answers or where the
# request goes (sampling, lengths, timeouts, retries). Every other setting (api_base, base_url,
# provider, api_key, organization, headers, client options, ...) is compared: a setting not listed
# here is kept, so an unknown one is a change rather than silence.
_HARMLESS_MODEL_SETTINGS = frozenset(
    {
        "num_ctx",
        "temperature",
        "top_p",
        "top_k",
        "max_tokens",
        "max_completion_tokens",
        "max_new_tokens",
        "max_output_tokens",
        "seed",
        "timeout",
        "request_timeout",
        "max_retries",
        "frequency_penalty",
        "presence_penalty",
        "stop",
        "stop_sequences",
    }
)


def _routing(program: Program, expr: Expr, keywords: tuple[str, ...]) -> str:
    """Where a model object built by `expr` sends its requests: the class and its settings other than
    the model and `_HARMLESS_MODEL_SETTINGS`, by value (`program.render`); "" for a plain model id."""
    value = program.value_of(expr)
    if not isinstance(value, Call):
        return ""
    origin = program.origin(value.func) or ""
    if not leaf(origin)[:1].isupper():
        return ""
    named = [k for k in keywords if value.kw(k) is not None]
    # The model is the first keyword found, else the first positional argument (as `model_value`).
    args = [program.render(a) for a in (value.args if named else value.args[1:])]
    args += sorted(f"{k}={program.render(v)}" for k, v in value.kwargs if k not in _HARMLESS_MODEL_SETTINGS and k not in named[:1])
    if value.star:
        args.append("**")
    return f" via {describe(value.func)}({', '.join(args)})"


def model_value(program: Program, expr: Expr | None, keywords: tuple[str, ...] = ("model", "model_id", "model_name")) -> str | Dynamic | None:
    """A model as a string: a literal, or the model argument of a model object (`LLM(model="x")`).

    Only calls to classes (capitalised leaf) are read as model objects: `os.getenv("MODEL")` is a
    function call whose first argument is the variable's *name*, not the model.
    """
    if expr is None:
        return None
    seen = program.value_of(expr)  # through variables and casts, stopping at a name set in branches
    branches = _alternatives(program, seen) if seen is not None else []
    if branches:
        expr = seen
        # `if local: model = A(model_id=...) else: model = B(...)`: which runs is not known; the models
        # the branches choose are, with where each is sent (client class, endpoint, provider, key):
        # a branch moved to another server is a change, a branch given a larger context is not.
        shown = set()
        for branch in branches:
            m = model_value(program, branch, keywords)
            text = m.dynamic if isinstance(m, Dynamic) else repr(m)
            shown.add(text + _routing(program, branch, keywords))
        return Dynamic(dynamic=f"{describe(expr)}, one of: {' | '.join(sorted(shown))}")
    value = seen
    if isinstance(value, Call):
        origin = program.origin(value.func) or ""
        if leaf(origin)[:1].isupper():
            for k in keywords:
                v = value.kw(k)
                if v is not None:
                    return as_str(program.evaluate(v))
            if value.args:
                return as_str(program.evaluate(value.args[0]))
            return Dynamic(dynamic=describe(value))
    return as_str(program.evaluate(expr))


def text_digest(parts: list[tuple[str, Any]]) -> str | None:
    """Digest of the labelled texts that make up an agent's instructions (CrewAI, ADK, smolagents).

    One part: the digest of that text itself (so it matches any other dialect's digest of the same
    instructions). Several: a labelled join, so moving a sentence from `goal` to `backstory` counts.
    Any part not knowable statically makes the digest dynamic over the sources.
    """
    present = [(k, v) for k, v in parts if v is not None]
    if not present:
        return None
    if len(present) == 1 and isinstance(present[0][1], (str, Dynamic)):
        return digest(present[0][1])
    if all(isinstance(v, str) for _, v in present):
        return digest("\n\n".join(f"{k}: {textwrap.dedent(v).strip()}" for k, v in present))
    shown = [f"{k}={v.dynamic if isinstance(v, Dynamic) else repr(v)}" for k, v in present]
    return digest(Dynamic(dynamic="; ".join(shown)))


def qualified_model(program: Program, expr: Expr | None) -> str | Dynamic | None:
    """A model id (PydanticAI, LangChain): a literal string, `Class:model-name` for a model object built
    from a literal name, `provider:name` for LangChain's `init_chat_model`, or Dynamic. Absent -> None
    (chosen at run time). Unlike `model_value`, the class is part of the id."""
    if expr is None:
        return None
    value = program.evaluate(expr)
    if isinstance(value, str) or value is None:
        return value
    call = program.value_of(expr)
    if isinstance(call, Call):
        inner = call.arg(0, "model_name") or call.kw("model")
        name = program.evaluate(inner) if inner is not None else None
        origin = program.origin(call.func) or ""
        if isinstance(name, str) and origin.endswith("init_chat_model"):  # LangChain: the id itself
            provider = program.evaluate(call.kw("model_provider"))
            return f"{provider}:{name}" if isinstance(provider, str) else name
        # Only a class builds a model object; `os.getenv("MODEL", ...)` names a variable, not a model.
        if isinstance(name, str) and origin and leaf(origin)[:1].isupper():
            return f"{leaf(origin)}:{name}"
        if isinstance(name, Dynamic) and isinstance(inner, Ref) and value.__class__ is Dynamic:
            # A model name held in a variable (`writer_model = config[...]`, then
            # `init_chat_model(model=writer_model)`) is named by what decides it, not by the
            # variable: reading it from the environment instead is another source.
            said = Ref(name.dynamic)
            held = replace(call, args=tuple(said if a is inner else a for a in call.args), kwargs=tuple((k, said if v is inner else v) for k, v in call.kwargs))
            return Dynamic(dynamic=describe(held))
    return value if isinstance(value, Dynamic) else Dynamic(dynamic=describe(expr))


def prompt_part(program: Program, expr: Expr) -> str | Dynamic | None:
    """One instructions argument as text, by value (`Program.text`, `Program.function_value` for a
    prompt function); None when it is None (no instructions)."""
    target = program.lookup(expr.name) if isinstance(expr, Ref) else None
    if isinstance(target, FunctionFact):
        return program.function_value(target)
    value = program.text(expr)
    if value is None or isinstance(value, (str, Dynamic)):
        return value
    return Dynamic(dynamic=program.render(expr))


def instructions_digest(parts: list[str | Dynamic]) -> str | None:
    """Digest of unlabelled instruction texts in order (PydanticAI, LangChain); see `text_digest`."""
    texts = [p for p in parts if not (isinstance(p, str) and not p.strip())]
    if not texts:
        return None
    if len(texts) == 1:
        return digest(texts[0])
    joined = "\n\n".join(p if isinstance(p, str) else "<dynamic>" + p.dynamic for p in texts)
    if any(isinstance(p, Dynamic) for p in texts):
        return "dynamic:" + hashlib.sha256(joined.encode()).hexdigest()
    return digest(joined)


def replaces(existing: Any, conditional: bool, result: DialectResult, path: str, line: int) -> bool:
    """A variable assigned an agent twice (if/else): the first unconditional assignment is kept."""
    if existing is None:
        return True
    result.issues.append(issue(path, line, f"agent '{existing.entry.name}' is assigned more than once; the receipt shows one assignment", "reassigned", ("agent",)))
    return existing.entry.conditional and not conditional


# Decorators of other frameworks' tools: such a function is their tool, not a plain one of ours.
_FOREIGN_TOOL_PACKAGES = ("receipt", "crewai", "smolagents", "agents", "google", "mcp", "fastmcp", "langchain", "langchain_core", "llama_index")


def foreign_tool(program: Program, fn: FunctionFact) -> bool:
    """Decorated as another framework's (or a native marker's) tool: that dialect owns it."""
    for dec in fn.decorators:
        origin = program.origin(decorator_call(dec, program)[0]) or ""
        if origin.split(".", 1)[0] in _FOREIGN_TOOL_PACKAGES and program.is_external(origin):
            return True
    return False


@dataclass
class GatedTool:
    """A tool whose approval depends on how it is registered (PydanticAI, LangChain).

    Its own gate (declaration and body) applies on every path; each registration adds the gate of
    that path (an agent's middleware, a toolset wrapper). A tool reached several ways takes the
    *lowest* of them: the path a reviewer must worry about is the one without a human.
    """

    entry: Entry
    symbols: set[str]
    approval: Any = "never"  # intrinsic: the declaration and the body
    def_conditional: bool = False
    registrations: list[tuple[bool, Any]] = field(default_factory=list)  # (conditional, gate)

    def candidate(self) -> Candidate:
        """Settle the effective approval and `conditional` flag: the tool as the surface shows it."""
        gates = [stricter(self.approval, gate) for _, gate in self.registrations]
        self.entry.approval = lowest(gates) if gates else self.approval
        self.entry.trust_tier = trust_from(self.entry.approval)  # type: ignore[assignment]
        registered_only_conditionally = bool(self.registrations) and all(c for c, _ in self.registrations)
        self.entry.conditional = self.def_conditional or registered_only_conditionally
        return Candidate(self.entry, self.symbols)


def self_method(program: Program, fn: FunctionFact | None, expr: Expr | None) -> str | None:
    """`self.researcher()` inside a method -> the symbol of `researcher` on the same class."""
    if fn is None or fn.owner_class is None:
        return None
    target = expr.func if isinstance(expr, Call) else expr
    if isinstance(target, Dyn) and target.src.startswith("self.") and target.src.count(".") == 1:
        symbol = f"{fn.owner_class}.{target.src[5:].rstrip('()')}"
        return symbol if symbol in program.functions else None
    return None


@dataclass
class Site:
    """Where a declaration lives, and whether it is exported / only sometimes there."""

    path: str
    line: int
    conditional: bool = False
    root: bool = False


@dataclass
class Kit:
    program: Program
    dialect: str
    # The dialect's two framework-specific answers: is a callee (by origin) one of its agent
    # classes, and build the candidate of an agent constructor call (call, identity, site, fallback
    # name) -> identity.
    is_agent: Callable[[str | None], bool]
    build_agent: Callable[[Call, str, Site, str], str]
    cands: dict[str, Candidate] = field(default_factory=dict)
    attachments: dict[str, list[bool]] = field(default_factory=dict)
    issues: list[ExtractionIssue] = field(default_factory=list)

    def __post_init__(self) -> None:
        # Every agent constructor is read with its `**CFG` spreads seen through (`Program.spread_call`):
        # a dialect never reads a keyword a literal spread gives as absent.
        build, spread = self.build_agent, self.program.spread_call
        self.build_agent = lambda call, identity, site, fallback: build(spread(call), identity, site, fallback)

    # -- candidates -----------------------------------------------------------------------------

    def get(self, identity: str) -> Candidate | None:
        return self.cands.get(identity)

    def add(self, identity: str, entry: Entry, symbols: Iterable[str] = (), reach: Iterable[str] = ()) -> Candidate:
        c = self.cands.get(identity)
        if c is None:
            c = self.cands[identity] = Candidate(entry, {identity, *symbols}, list(reach))
        else:
            c.symbols |= set(symbols)
            c.reach.extend(reach)
        return c

    def attach(self, identity: str, conditional: bool) -> None:
        self.attachments.setdefault(identity, []).append(conditional)

    def warn(self, path: str, line: int | None, message: str, site: tuple[str, ...] = ()) -> None:
        self.issues.append(issue(path, line, message, site=site))

    def entry(self, kind: str, name: str, site: Site, **attrs: Any) -> Entry:
        return Entry(
            kind=kind,  # type: ignore[arg-type]
            name=name,
            path=site.path,
            line=site.line,
            dialect=self.dialect,
            conditional=site.conditional,
            root=site.root,
            **attrs,
        )

    # -- sites ----------------------------------------------------------------------------------

    def site_of(self, symbol: str) -> Site | None:
        """Site of a name bound by assignment (module level or inside a factory)."""
        d = self.program.lookup(symbol)
        if not isinstance(d, AssignFact):
            return None
        return Site(self.program.path_of(symbol), d.line, d.conditional, builds_root(self.program, symbol))

    def set_later(self, call: Call, owner: str | None, key: str) -> Expr | None:
        """What is set on attribute `key` of the object `call` builds after construction
        (`root_agent.code_executor = UnsafeLocalCodeExecutor()`; on its variable `owner`, or on the
        list item holding it when built inline), else None. Several or conditional settings give a
        `Dyn` (`assigned_later`)."""
        return assigned_later(self.program, [owner] if owner is not None and owner in self.program.assigns else [], key, call)

    def setting(self, call: Call, owner: str | None, key: str) -> Expr | None:
        """The keyword `key` an object was built with, unless set afterwards (`set_later`): what runs."""
        later = self.set_later(call, owner, key)
        return later if later is not None else call.kw(key)

    # -- list items -----------------------------------------------------------------------------

    def items(self, expr: Expr | None, site: Site, what: str, owner: str | None = None, field: str | None = None) -> list[Item]:
        """Items of a `tools=` / `sub_agents=` list; an unknowable list is reported, never guessed.
        `owner`, `field`: the variable holding the object built with the list and the attribute the
        list becomes, whose changes after construction count too (`root_agent.tools.append(t)`,
        `root_agent.tools[1] = t`: the agent holds what it was left with)."""
        out: list[Item] = []
        if expr is not None and not (isinstance(expr, Const) and expr.value is None):
            got = self.program.items(expr)
            if isinstance(got, Dynamic):
                if not got.dynamic.startswith("self."):  # CrewBase's `self.agents` is filled by decorators
                    self.warn(site.path, site.line, f"{what} not statically known ({got.dynamic}); its entries are not analysed", (what, shape(got.dynamic)))
            else:
                out = [Item(i.expr, i.conditional or site.conditional) for i in got]
        for op, value, cond in self.program.mutations(owner, field) if owner is not None and field is not None else ():
            if op == "append":
                out.append(Item(value, cond or site.conditional))
                continue
            more = self.program.items(value)
            if isinstance(more, Dynamic):
                self.warn(site.path, site.line, f"{what} changed to {more.dynamic} after construction, which is not statically known; "
                          "what it holds is not analysed", (what + " changed", shape(more.dynamic)))
                continue
            out.extend(Item(i.expr, i.conditional or cond or site.conditional) for i in more)
        return out

    def follow(self, expr: Expr) -> tuple[Expr, str | None]:
        """A list item -> (the expression it stands for, the variable naming it if any)."""
        if not isinstance(expr, Ref):
            return expr, None
        symbol = self.program.canonical(expr.name)
        if symbol in self.program.functions or symbol in self.program.classes:
            return Ref(symbol), symbol
        d = self.program.lookup(symbol)
        if isinstance(d, AssignFact) and isinstance(d.value, Const) and d.value.value is None:
            d = self.program.built_once(symbol) or d  # `agent = None` until it is built
        if isinstance(d, AssignFact) and not isinstance(d.value, Ref):
            return d.value, symbol
        return Ref(symbol), symbol

    def inline_identity(self, site: Site, call: Call) -> str:
        return f"{site.path}:{call.line}:{describe(call)}"

    def class_of(self, origin: str | None) -> ClassFact | None:
        return self.program.classes.get(origin or "")

    def subclass_of(self, cls: ClassFact, packages: Iterable[str], *leaves: str) -> bool:
        pk = tuple(packages)
        return any(from_package(b, pk, *leaves) for b in self.program.class_bases(cls))

    def is_class(self, origin: str | None, packages: Iterable[str], leaves: Iterable[str], *bases: str) -> bool:
        """One of the framework classes `leaves`, or a class of the repository deriving from one of
        them or from one of the framework's `bases`."""
        pk, names = tuple(packages), tuple(leaves)
        if from_package(origin, pk, *names):
            return True
        cls = self.class_of(origin)
        return cls is not None and self.subclass_of(cls, pk, *names, *bases)

    # -- agents and tools named in lists ----------------------------------------------------------

    def agent_item(self, expr: Expr, conditional: bool, owner: Site, what: str) -> list[str]:
        """An item of an agent list (`sub_agents=[...]`): the agent it builds, else what it names."""
        value, var = self.follow(expr)
        if isinstance(value, Call) and self.is_agent(self.program.origin(value.func)):
            if var is not None:
                site = self.site_of(var) or Site(owner.path, value.line, conditional)
                return [self.build_agent(value, var, site, leaf(var))]
            site = Site(owner.path, value.line, conditional)
            return [self.build_agent(value, self.inline_identity(owner, value), site, "agent")]
        if isinstance(value, Call):
            origin = self.program.origin(value.func)
            return [origin] if origin else []
        if isinstance(value, Ref):
            return [value.name]
        self.warn(owner.path, owner.line, f"{what} {describe(expr)} not statically known", (what, shape(expr)))
        return []

    def attached(self, identity: str, conditional: bool) -> list[str]:
        """A tool of the repository named in a list: attached there when this dialect declared it."""
        if self.get(identity) is not None:
            self.attach(identity, conditional)
        return [identity]

    def named_tool(self, value: Expr, expr: Expr, owner: Site) -> list[str]:
        """A tool list item that builds nothing this dialect knows: the name it refers to (another
        dialect's tool, resolved by the linker), else a warning."""
        if isinstance(value, Ref):
            if self.program.is_external(value.name):
                self.warn(owner.path, owner.line, f"tool {describe(value)} from outside the repository is not analysed", ("external tool", shape(value)))
            return [value.name]
        self.warn(owner.path, owner.line, f"tool {describe(expr)} not statically known", ("tool", shape(expr)))
        return []

    def external(
        self, origin: str, line: int, owner: Site, conditional: bool, var: str | None, name: str, public: str | None = None, **attrs: Any
    ) -> list[str]:
        """A framework's own tool object (`WebSearchTool()`): one entry per class, wherever it is used.

        `public`: the package the library re-exports all its tools from (`crewai_tools`), so that
        `crewai_tools.tools.FileReadTool` and `crewai_tools.FileReadTool` are one class."""
        if public is not None and origin.startswith(public + "."):
            origin = f"{public}.{leaf(origin)}"
        identity = f"external:{origin}"
        if self.get(identity) is None:
            site = Site(owner.path, line, conditional)
            entry = self.entry("tool", name, site, extra={"external": origin}, **attrs)
            # It lives in the library, not in the first file that uses it: keyed and homed by its class,
            # so a new use in a file that sorts earlier (or the first user's removal) does not re-key it
            # (and its agents' reach).
            entry.key = f"{entry.key}@{origin}"
            entry.home = origin
            self.add(identity, entry)
        cand = self.get(identity)
        if var is not None and cand is not None:
            cand.symbols.add(var)
        self.attach(identity, conditional)
        return [identity]

    # -- where agents are built -----------------------------------------------------------------

    def assigned_agents(self) -> None:
        """`x = SomeAgent(...)`, at module level or in a function; exported unless marked internal."""
        p = self.program
        built: dict[str, int] = {}
        for a in p.iter_assigns():
            if a.op == "=" and isinstance(a.value, Call) and self.is_agent(p.origin(a.value.func)):
                # A script reusing one variable (`agent = ToolCallingAgent(...)`, run it, `agent =
                # CodeAgent(...)`) builds several agents: each is one, the later ones identified by
                # their rank among the variable's agents (never by line), the first by the variable.
                n = built[a.target] = built.get(a.target, 0) + 1
                identity = a.target if n == 1 else f"{a.target}#{n}"
                site = Site(p.path_of(a.target), a.line, a.conditional, builds_root(p, a.target))
                self.build_agent(a.value, identity, site, leaf(a.target))

    def returned(self, fn: FunctionFact, expr: Expr, root: bool | None = None, conditional: bool = True) -> None:
        """An agent a factory returns (built there or named) is denoted by the factory; only
        sometimes there; exported unless the factory is marked internal (the default `root`)."""
        p = self.program
        if root is None:
            root = builds_root(p, fn.symbol)
        if isinstance(expr, Call) and self.is_agent(p.origin(expr.func)):
            self.build_agent(expr, fn.symbol, Site(p.path_of(fn.symbol), expr.line, conditional, root), fn.name)
        elif isinstance(expr, Ref):
            cand = self.get(p.canonical(expr.name))
            if cand is not None and cand.entry.kind == "agent":
                cand.symbols.add(fn.symbol)
                cand.entry.root = cand.entry.root or root

    def by_symbol(self, symbol: str) -> Candidate | None:
        direct = self.cands.get(symbol)  # the common case: the symbol is the identity
        if direct is not None:
            return direct
        for c in self.cands.values():
            if symbol in c.symbols:
                return c
        return None

    def bind_factory_results(self) -> None:
        """`root_agent = _build()`: the variable denotes what the factory returns, and exports it."""
        p = self.program
        agents = {s: c for c in self.cands.values() if c.entry.kind == "agent" for s in sorted(c.symbols)}
        for a in p.iter_assigns():
            if a.op != "=" or not isinstance(a.value, Call):
                continue
            cand = agents.get(p.origin(a.value.func) or "")
            if cand is None:
                continue
            cand.symbols.add(a.target)
            if builds_root(p, a.target):
                cand.entry.root = True

    # -- result ---------------------------------------------------------------------------------

    def result(self) -> DialectResult:
        for identity, c in self.cands.items():
            if c.entry.kind == "tool" and not c.entry.conditional and identity in self.attachments:
                # Only sometimes there if every attachment is conditional.
                c.entry.conditional = all(self.attachments[identity])
            c.reach = sorted(set(c.reach) - {identity})
        cands = sorted(self.cands.values(), key=lambda c: (c.entry.kind, c.entry.name, c.entry.path, c.entry.line))
        return DialectResult(cands, sorted(self.issues, key=lambda i: (i.path, i.line or 0, i.message)))  # the linker keeps one of each
