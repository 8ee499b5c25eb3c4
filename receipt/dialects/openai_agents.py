"""OpenAI Agents SDK (`pip install openai-agents`, import package `agents`).

Recognised, by import origin only (`from agents import function_tool as ft`, `import agents as oa`):

- function tools: `@function_tool`, `@function_tool(name_override=, description_override=,
  needs_approval=, is_enabled=, use_docstring_info=)`, `x = function_tool(fn, ...)`,
  `function_tool(...)(fn)`, and `FunctionTool(name=, description=, params_json_schema=, ...)`;
- hosted and local SDK tools (`WebSearchTool`, `FileSearchTool`, `CodeInterpreterTool`,
  `ComputerTool`, `LocalShellTool`, `ShellTool`, `ApplyPatchTool`, `ImageGenerationTool`,
  `ToolSearchTool`, `CustomTool`, `HostedMCPTool`), named as the SDK names them to the model;
- the Codex tool (`codex_tool(options, name=, sandbox_mode=, default_thread_options=...)`): dangerous
  unless its sandbox is read-only; no sandbox given leaves it to the user's Codex configuration (dynamic);
  open-world with a danger-full-access sandbox, web search (`web_search_mode` "cached"/"live",
  `web_search_enabled=True`) or `network_access_enabled=True` on a workspace-write sandbox; options
  that cannot be read leave the tool there (named "codex") with what they decide dynamic;
- agents: `Agent(...)`, `Agent[Ctx](...)`, subclasses of `Agent`, `RealtimeAgent(...)`,
  `base.clone(...)`, agents returned by factory functions; their `tools=`, `handoffs=` and
  `mcp_servers=` lists, including lists built in variables and lists changed after construction
  (`triage.handoffs = [...]`, `.append`, `.extend`, `+=`), and tools grouped for tool search by
  `tool_namespace(name=, description=, tools=[...])` (the listed tools, under their own names);
- `handoff(agent, is_enabled=...)` and `agent.as_tool(tool_name=, tool_description=,
  needs_approval=, is_enabled=, parameters=)` (a tool that reaches the wrapped agent);
- local MCP servers (`MCPServerStdio/Sse/StreamableHttp(name=, require_approval=)`) given to an
  agent: one tool entry per server, named `*` in the server's scope, since the tools themselves are
  only listed at run time.

Choices a reader of the receipt should know (also in the README's honest limits):
- `is_enabled=False` hides a tool or handoff from the model, so the agent does not reach it; a
  callable or unknowable `is_enabled` keeps the edge but counts as a conditional attachment.
- The surface has no per-edge condition: a tool (or a non-root agent) is `conditional` when it is
  itself defined conditionally, or when *every* attachment of it is conditional (under `if`, inside a
  factory, behind a dynamic `is_enabled`).
- Hosted MCP (`HostedMCPTool`): `require_approval` absent means the Responses API asks for approval
  ("always"); a dict policy is per tool ("conditional"); an `on_approval_request` callback decides in
  code instead of a human, so an approval that would be asked becomes "conditional". Same for the
  `on_approval` callback of `ShellTool`/`ApplyPatchTool`/`CustomTool`.
- Tools that run code or act on a machine (`ComputerTool`, `LocalShellTool`, `ShellTool`,
  `ApplyPatchTool`, `CodeInterpreterTool`) are `dangerous`; the SDK has no such flag for function
  tools (default false; a native `@tool(dangerous=True)` marker stacked on the function overlays it).
- The same hosted tool (or the same `function_tool(fn)` / `x.as_tool(...)`) attached inline to
  several agents is one entry when it is built with the same arguments; configured otherwise (a
  hosted MCP server under the same label with another approval policy), it is another entry.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable

from receipt.canonical import canonical_json
from receipt.dialects._agentkit import builds_root
from receipt.dialects.base import (
    Candidate,
    DialectResult,
    approval_from,
    assigned_later,
    decorator_call,
    digest,
    issue,
    name_expression,
    shape,
    origin_matches,
    screened_assigned_calls,
    screened_functions,
    tops,
    signature_of,
    split_method,
    through_factory,
    trust_from,
    given_through_spread,
)
from receipt.extract.facts import AssignFact, Call, Dyn, Expr, FunctionFact, Ref
from receipt.extract.program import Item, Program, describe, short_name
from receipt.models import APPROVAL_ORDER, Dynamic, Entry, Param, Signature, entry_key

NAME = "openai-agents"

_PKG = "agents"
_FUNCTION_TOOL = f"{_PKG}.function_tool"
# Other public spellings of `function_tool` (agents/decorators.py: `tool = function_tool`).
_FUNCTION_TOOL_ALIASES = (f"{_PKG}.decorators.tool",)
_FUNCTION_TOOL_CLASS = f"{_PKG}.FunctionTool"
_AGENT_CLASSES = (f"{_PKG}.Agent", f"{_PKG}.RealtimeAgent", f"{_PKG}.SandboxAgent")
_SANDBOX_AGENT = f"{_PKG}.SandboxAgent"
# SandboxAgent capabilities and the tools each exposes to the model (agents/sandbox/capabilities);
# `capabilities=` absent means `Capabilities.default()`: Filesystem, Shell, Compaction.
_SANDBOX_DEFAULT = ("Filesystem", "Shell", "Compaction")
_SANDBOX_TOOLS: dict[str, tuple[tuple[str, dict[str, Any]], ...]] = {
    "Filesystem": (("apply_patch", {"dangerous": True}), ("view_image", {"read_only": True})),
    "Shell": (("exec_command", {"dangerous": True}), ("write_stdin", {"dangerous": True})),
    "Compaction": (),
}
_HANDOFF = f"{_PKG}.handoff"
# `tool_namespace(name=, description=, tools=[...])` (agents/tool.py) returns copies of the listed
# function tools, grouped for tool search: the same tools, under their own names and approvals.
_TOOL_NAMESPACE = f"{_PKG}.tool_namespace"
_MCP_SERVERS = (f"{_PKG}.MCPServerStdio", f"{_PKG}.MCPServerSse", f"{_PKG}.MCPServerStreamableHttp")
# Agent fields read from its constructor that a later `agent.<field> = v` changes for every run (its
# lists are read with their changes by `Program.items`; its name is its identity, not re-read).
_SET_LATER = ("model", "instructions", "handoff_description", "prompt", "capabilities")
_SYNTH = "<openai-agents>"  # prefix of symbols made up for objects that have no variable

# Hosted/local SDK tools: class leaf -> (name the model sees, fixed attributes). The names are the
# classes' `name` properties in agents/tool.py (ComputerTool keeps its preview-era runtime name).
_HOSTED: dict[str, tuple[str | None, dict[str, Any]]] = {
    "WebSearchTool": ("web_search", {"read_only": True}),
    "FileSearchTool": ("file_search", {"read_only": True}),
    "ToolSearchTool": ("tool_search", {"read_only": True}),
    "ImageGenerationTool": ("image_generation", {}),
    "CodeInterpreterTool": ("code_interpreter", {"dangerous": True}),
    "ComputerTool": ("computer_use_preview", {"dangerous": True}),
    "LocalShellTool": ("local_shell", {"dangerous": True}),
    "ShellTool": ("shell", {"dangerous": True}),
    "ApplyPatchTool": ("apply_patch", {"dangerous": True}),
    "CustomTool": (None, {}),
    "HostedMCPTool": ("hosted_mcp", {}),
    "ProgrammaticToolCallingTool": ("programmatic_tool_calling", {"dangerous": True}),
}
_MODEL_CLASSES_KW = "model"  # OpenAIChatCompletionsModel(model=...), LitellmModel(model=...)

# `codex_tool(...)` (agents/extensions/experimental/codex/codex_tool.py): a function tool that runs the
# Codex CLI against the local workspace. What it may do is its sandbox: `sandbox_mode=`, else the
# options' `sandbox_mode`, else `default_thread_options`' (the SDK's `_resolve_thread_options` order);
# given nowhere, the CLI runs under the sandbox of the user's own Codex configuration (unknowable here).
_CODEX_TOOL = f"{_PKG}.extensions.experimental.codex.codex_tool"
_CODEX_NAME = "codex"  # DEFAULT_CODEX_TOOL_NAME
_CODEX_DESCRIPTION = "Executes an agentic Codex task against the current workspace."
_CODEX_SANDBOX: dict[str, dict[str, Any]] = {
    "read-only": {"read_only": True, "dangerous": False},
    "workspace-write": {"read_only": False, "dangerous": True},
    "danger-full-access": {"read_only": False, "dangerous": True, "open_world": True},
}


def _function_style(name: str) -> str:
    """The SDK's `transform_string_function_style`: what `as_tool` and handoffs name things."""
    return re.sub(r"[^a-zA-Z0-9_]", "_", re.sub(r"\s", "_", name)).lower()


def _kwargs_text(call: Call) -> str:
    return ";".join(f"{k}={describe(v)}" for k, v in sorted(call.kwargs, key=lambda kv: kv[0]))


def _mcp_tools_danger(server: str) -> Dynamic:
    """An MCP server's tools are listed at run time; by the MCP spec an unannotated tool is
    destructive, and whether the server annotates them read-only cannot be known here."""
    return Dynamic(dynamic=f"tools of MCP server {server} (listed at run time)")


def _least_safe_approval(a: Any, b: Any) -> Any:
    if isinstance(a, Dynamic):
        return a
    if isinstance(b, Dynamic):
        return b
    return a if APPROVAL_ORDER[a] <= APPROVAL_ORDER[b] else b


@dataclass
class _AgentSpec:
    symbol: str
    call: Call
    path: str
    line: int
    conditional: bool
    kwargs: dict[str, Expr]
    # whose `.tools` / `.handoffs` / `.mcp_servers` mutations apply (a clone shares the base's lists)
    owners: dict[str, list[str]]
    var_name: str
    root: bool = False
    is_clone: bool = False
    name_overridden: bool = True
    symbols: set[str] = field(default_factory=set)


@dataclass
class _ToolRef:
    symbol: str
    conditional: bool = False  # attached conditionally (dynamic is_enabled, ...)


class _Extractor:
    def __init__(self, program: Program):
        self.p = program
        self.result = DialectResult()
        self.specs: dict[str, list[_AgentSpec]] = {}
        self.spec_order: list[_AgentSpec] = []
        self.agent_cands: dict[int, Candidate] = {}  # id(spec) -> candidate
        self.tools: dict[str, Candidate] = {}  # symbol -> candidate
        self.tool_own_conditional: dict[int, bool] = {}
        self.disabled: set[str] = set()  # tool symbols with is_enabled=False
        self.dynamic_enabled: set[str] = set()
        self.merged: dict[tuple[str, ...], Candidate] = {}  # identity -> candidate (inline/hosted)
        self.attach: dict[int, list[bool]] = {}  # id(candidate) -> conditional flag per attachment
        self.inline_specs: dict[tuple[str, Call], _AgentSpec] = {}
        self._inline_n: dict[tuple[str, int], int] = {}
        self._resolving: set[str] = set()
        self._raw_clones: dict[str, list[AssignFact]] = {}

    # -- origins --------------------------------------------------------------------------------

    def _origin(self, expr: Expr | None) -> str | None:
        return self.p.origin(expr)

    def _is(self, expr: Expr | None, *names: str) -> bool:
        return origin_matches(self._origin(expr), *names)

    def _is_agent_class(self, func: Expr) -> bool:
        return _is_agent_class(self.p, func)

    def _is_function_tool(self, expr: Expr | None) -> bool:
        return _is_function_tool(self.p, expr)

    def _is_agent_ctor(self, expr: Expr | None) -> bool:
        return _is_agent_ctor(self.p, expr)

    def _hosted_leaf(self, call: Call) -> str | None:
        return _hosted_leaf(self.p, call)

    @staticmethod
    def _method(call: Call, name: str) -> Expr | None:
        """The receiver of `receiver.name(...)`, or None."""
        receiver, method = split_method(call.func)
        return receiver if method == name else None

    # -- values ---------------------------------------------------------------------------------

    def _approval(self, expr: Expr | None, call: Call | None = None, key: str = "needs_approval") -> Any:
        """The approval `key=expr` of `call` asks for (its spreads read: `spread_call`); not given
        where a `**x` that cannot be read may give it, unknown."""
        if expr is None:
            return given_through_spread(call, key) or "never"
        if isinstance(expr, Dyn) and expr.why == "lambda":
            return "conditional"  # a callable decides per call
        value = self.p.evaluate(expr)
        if isinstance(value, dict):
            return "conditional"
        return approval_from(value, self.p, expr)

    def _enabled(self, expr: Expr | None) -> bool | Dynamic:
        if expr is None:
            return True
        if isinstance(expr, Dyn):
            return Dynamic(dynamic=expr.src)
        value = self.p.evaluate(expr)
        if isinstance(value, bool):
            return value
        if isinstance(value, Dynamic):
            return value
        return Dynamic(dynamic=describe(expr))

    def _str(self, expr: Expr | None) -> str | Dynamic | None:
        if expr is None:
            return None
        value = self.p.evaluate(expr)
        if value is None or isinstance(value, (str, Dynamic)):
            return value
        return Dynamic(dynamic=describe(expr))

    def _text(self, expr: Expr | None) -> str | Dynamic | None:
        """A description or instructions text by value (`Program.text`): digests follow meaning."""
        if expr is None:
            return None
        value = self.p.text(expr)
        if value is None or isinstance(value, (str, Dynamic)):
            return value
        return Dynamic(dynamic=self.p.render(expr))

    def _note(self, path: str, line: int | None, message: str, site: tuple[str, ...] = ()) -> None:
        self.result.issues.append(issue(path, line, message, site=site))

    def _synthetic(self, path: str, line: int) -> str:
        n = self._inline_n.get((path, line), 0)
        self._inline_n[(path, line)] = n + 1
        return f"{_SYNTH}{path}:{line}#{n}"

    # -- agents: discovery ----------------------------------------------------------------------

    def discover_agents(self) -> None:
        for a in screened_assigned_calls(self.p, "openai-agents.agents", _assigned_agent):
            if a.op != "=" or not isinstance(a.value, Call):
                continue
            if self._is_agent_ctor(a.value):
                self._add_spec(self._spec_from_ctor(a.value, a.target, self.p.path_of(a.target), a.line, a.conditional))
            elif self._method(a.value, "clone") is not None:
                self._raw_clones.setdefault(a.target, []).append(a)
        for target in list(self._raw_clones):
            self._clone_specs(target)
        for fn in screened_functions(self.p, "openai-agents.factories", _returns_agent_or_name):
            self._factory(fn)
        self._factory_results()

    def _factory_results(self) -> None:
        """`x = make_agent()`: `x` denotes the agent the factory returns, and `x.handoffs.append(...)`
        after the call changes that agent's lists."""
        for a in screened_assigned_calls(self.p, "openai-agents.factory calls", _calls_a_function):
            if a.op != "=" or not isinstance(a.value, Call) or a.target in self.specs:
                continue
            fn = self.p.functions.get(self._origin(a.value.func) or "")
            if fn is None:
                continue
            for spec in self.spec_order:
                if fn.symbol in spec.symbols:
                    spec.symbols.add(a.target)
                    for owners in spec.owners.values():
                        if a.target not in owners:
                            owners.append(a.target)

    def _add_spec(self, spec: _AgentSpec) -> None:
        spec.symbols.add(spec.symbol)
        self.specs.setdefault(spec.symbol, []).append(spec)
        self.spec_order.append(spec)

    def _spec_from_ctor(self, call: Call, symbol: str, path: str, line: int, conditional: bool) -> _AgentSpec:
        built = call
        call = self.p.spread_call(call)
        kwargs = dict(call.kwargs)
        if "name" not in kwargs and call.args and not isinstance(call.args[0], Dyn):
            kwargs["name"] = call.args[0]
        for key in _SET_LATER:  # `support.model = "gpt-4o-mini"` after construction: what runs
            later = assigned_later(self.p, [] if symbol.startswith(_SYNTH) else [symbol], key, built)
            if later is not None:
                kwargs[key] = later
        owners = {f: [symbol] for f in ("tools", "handoffs", "mcp_servers")}
        var = self._var_name(symbol, kwargs.get("name"))
        root = builds_root(self.p, symbol)
        if call.star:
            self._note(path, line, f"agent {var}: **kwargs passed to Agent(...) cannot be resolved statically", site=("agent kwargs",))
        return _AgentSpec(symbol, call, path, line, conditional, kwargs, owners, var, root=root)

    def _var_name(self, symbol: str, name: Expr | None) -> str:
        """How notes name an agent: its variable; an inline agent (no variable) by its literal name,
        never by its line, so a note does not change when code above it moves."""
        if not symbol.startswith(_SYNTH):
            return short_name(symbol).rsplit(".", 1)[-1]
        value = self._str(name) if name is not None else None
        return value if isinstance(value, str) and value else "(inline agent)"

    def _clone_specs(self, target: str) -> list[_AgentSpec]:
        if target in self.specs:
            return self.specs[target]
        if target in self._resolving:
            return []
        self._resolving.add(target)
        try:
            for a in self._raw_clones.get(target, []):
                assert isinstance(a.value, Call)
                spec = self._clone_spec(a.value, a.target, self.p.path_of(a.target), a.line, a.conditional)
                if spec is not None:
                    self._add_spec(spec)
        finally:
            self._resolving.discard(target)
        return self.specs.get(target, [])

    def _clone_spec(self, call: Call, symbol: str, path: str, line: int, conditional: bool) -> _AgentSpec | None:
        receiver = self._method(call, "clone")
        bases = self._specs_of(receiver, path, conditional) if receiver is not None else []
        if not bases:
            return None
        base = bases[0]
        call = self.p.spread_call(call)
        overrides = dict(call.kwargs)
        owners = {
            f: ([symbol] if f in overrides else [*base.owners[f], symbol]) for f in ("tools", "handoffs", "mcp_servers")
        }
        var = self._var_name(symbol, overrides.get("name") or base.kwargs.get("name"))
        root = builds_root(self.p, symbol)
        return _AgentSpec(
            symbol,
            call,
            path,
            line,
            conditional or base.conditional,
            {**base.kwargs, **overrides},
            owners,
            var,
            root=root,
            is_clone=True,
            name_overridden="name" in overrides,
        )

    def _factory(self, fn: FunctionFact) -> None:
        """A function returning an agent denotes it; a public module-level one makes it a root."""
        public: bool | None = None  # read only for a function that returns an agent (most return none)
        for ret in fn.returns_exprs:
            specs: list[_AgentSpec] = []
            if isinstance(ret, Call) and (self._is_agent_ctor(ret) or self._method(ret, "clone") is not None):
                specs = self._specs_of(ret, self.p.path_of(fn.symbol), True, symbol=fn.symbol)
            elif isinstance(ret, Ref):
                specs = self.specs.get(self.p.canonical(ret.name), [])
            if specs and public is None:
                public = builds_root(self.p, fn.symbol)
            for spec in specs:
                spec.symbols.add(fn.symbol)
                if spec.symbol == fn.symbol:
                    spec.root = False
                if public:
                    spec.root = True
                    if "<locals>" in spec.symbol or spec.symbol == fn.symbol:
                        spec.conditional = True

    def _specs_of(self, expr: Expr | None, path: str, conditional: bool, symbol: str | None = None) -> list[_AgentSpec]:
        """The agent(s) an expression denotes: a variable, an inline Agent(...), a clone, a factory call."""
        if isinstance(expr, Ref):
            target = self.p.canonical(expr.name)
            if target in self.specs:
                return self.specs[target]
            if target in self._raw_clones:
                return self._clone_specs(target)
            d = self.p.lookup(target)
            if isinstance(d, AssignFact) and isinstance(d.value, Call) and d.target not in self._resolving:
                self._resolving.add(d.target)
                try:
                    return self._specs_of(d.value, path, conditional)
                finally:
                    self._resolving.discard(d.target)
            return []
        if not isinstance(expr, Call):
            return []
        key = (path, expr)
        if key in self.inline_specs and symbol is None:
            return [self.inline_specs[key]]
        if self._is_agent_ctor(expr):
            spec = self._spec_from_ctor(expr, symbol or self._synthetic(path, expr.line), path, expr.line, conditional)
        elif self._method(expr, "clone") is not None:
            spec2 = self._clone_spec(expr, symbol or self._synthetic(path, expr.line), path, expr.line, conditional)
            if spec2 is None:
                return []
            spec = spec2
        else:
            fn = self.p.functions.get(self._origin(expr.func) or "")
            if fn is None:
                return []
            found = [s for s in self.spec_order if fn.symbol in s.symbols]
            return found
        if symbol is None:
            spec.root = False
            self.inline_specs[key] = spec
        self._add_spec(spec)
        return [spec]

    # -- tools ------------------------------------------------------------------------------------

    def discover_tools(self) -> None:
        for fn in screened_functions(self.p, "openai-agents.decorated tools", _decorated_tool, tops(_FUNCTION_TOOL_ALIASES, (_FUNCTION_TOOL,))):
            for dec in fn.decorators:
                func, call = decorator_call(dec, self.p)
                if self._is_function_tool(func) and not isinstance(func, Call):
                    self._function_tool(fn, call, {fn.symbol}, self.p.path_of(fn.symbol), fn.line, fn.conditional)
                    break
        for a in screened_assigned_calls(self.p, "openai-agents.assigned tools", _assigned_tool):
            if a.op == "=" and isinstance(a.value, Call) and a.target not in self.tools:
                self._tool_from_call(a.value, a.target, self.p.path_of(a.target), a.line, a.conditional)

    def _function_tool(self, fn: FunctionFact, options: Call | None, symbols: set[str], path: str, line: int, conditional: bool, built: Expr | None = None) -> Candidate:
        options = self.p.spread_call(options) if options is not None else None  # `@function_tool(**APPROVAL)`
        kw = dict(options.kwargs) if options is not None else {}
        name = fn.name
        override = self._str(kw.get("name_override"))
        if isinstance(override, str):
            name = override
        elif isinstance(override, Dynamic):
            self._note(path, line, f"tool {fn.name}: name_override is dynamic ({override.dynamic}); keyed by the function name", site=("name_override", shape(override.dynamic)))
        description: Any = fn.doc
        if "description_override" in kw:
            d = self._text(kw["description_override"])
            description = d if d not in (None, "") else description
        elif self.p.evaluate(kw.get("use_docstring_info")) is False:
            description = ""
        approval = self._approval(kw.get("needs_approval"), options)
        entry = self._tool_entry(name, path, line, conditional, approval, signature=signature_of(fn), description_sha256=digest(description))
        entry.name_expr = name_expression(self.p, kw.get("name_override"))
        cand = self._register_tool(entry, symbols, conditional, built)
        self._apply_enabled(kw.get("is_enabled"), symbols)
        return cand

    @staticmethod
    def _tool_entry(name: str, path: str, line: int, conditional: bool, approval: Any, **attrs: Any) -> Entry:
        return Entry(
            kind="tool",
            name=name,
            path=path,
            line=line,
            dialect=NAME,
            conditional=conditional,
            approval=approval,
            trust_tier=trust_from(approval),
            **attrs,
        )

    def _register_tool(self, entry: Entry, symbols: set[str], conditional: bool, built: Expr | None = None) -> Candidate:
        self._approval_set_later(entry, symbols, built)
        cand = Candidate(entry, set(symbols))
        self.result.candidates.append(cand)
        for s in symbols:
            self.tools[s] = cand
        self.tool_own_conditional[id(cand)] = conditional
        return cand

    def _approval_set_later(self, entry: Entry, symbols: Iterable[str], built: Expr | None) -> None:
        """`tool.needs_approval = False` after construction, on the variable naming the tool or, for
        a tool built inline in a list (`built`), on the list's item (`support.tools[0].needs_approval = False`)."""
        later = assigned_later(self.p, symbols, "needs_approval", built)
        if later is not None:
            entry.approval = self._approval(later)
            entry.trust_tier = trust_from(entry.approval)

    def _approval_set_on_unknown_items(self) -> None:
        """`for t in load_tools(): t.needs_approval = False` over a container whose items are not
        known: the tools whose approval it changes are not known either. Noted where it is set
        (each tool's approval is read as the rest of the program says: marking every tool unknown
        would bury the one change in noise)."""
        for container, _index, a in self.p.item_writes("needs_approval"):
            if isinstance(self.p.container_items(container), Dynamic):
                path = self.p.path_of(container.rpartition(".<locals>.")[0] or container)
                self._note(path, a.line, f"needs_approval = {describe(a.value)} set on items of {describe(Ref(container))}, which cannot be "
                           "resolved statically: the tools whose approval it changes are not known", site=("approval on unknown items", shape(Ref(container))))

    def _apply_enabled(self, expr: Expr | None, symbols: Iterable[str]) -> None:
        enabled = self._enabled(expr)
        for s in symbols:
            if enabled is False:
                self.disabled.add(s)
            elif isinstance(enabled, Dynamic):
                self.dynamic_enabled.add(s)

    def _merge_or_register(self, identity: tuple[str, ...], entry: Entry, symbol: str, conditional: bool) -> Candidate:
        """One entry for the same hosted tool / the same inline wrapper used in several places."""
        existing = self.merged.get(identity)
        if existing is None:
            cand = self._register_tool(entry, {symbol, f"{_SYNTH}{'|'.join(identity)}"}, conditional)
            self.merged[identity] = cand
            return cand
        e = existing.entry
        e.approval = _least_safe_approval(e.approval, entry.approval)  # type: ignore[assignment]
        e.trust_tier = trust_from(e.approval)  # type: ignore[arg-type]
        if entry.dangerous is True or isinstance(entry.dangerous, Dynamic):
            e.dangerous = entry.dangerous if e.dangerous is False else e.dangerous
        existing.symbols.add(symbol)
        self.tools[symbol] = existing
        self.tool_own_conditional[id(existing)] = self.tool_own_conditional[id(existing)] and conditional
        return existing

    def _tool_from_call(self, call: Call, symbol: str | None, path: str, line: int, conditional: bool) -> Candidate | None:
        """A tool built by a call: function_tool(fn), FunctionTool(...), a hosted tool, agent.as_tool(...)."""
        line = call.line or line
        built = call if symbol is None else None  # built inline: its item in a list may be changed later
        call = through_factory(self.p, self.p.spread_call(call))  # `FunctionTool(**SPEC)`, `function_tool(fn, **APPROVAL)`, `guarded(fn)`
        # function_tool(fn, ...)  /  function_tool(...)(fn)
        options: Call | None = None
        wrapped: Expr | None = None
        if isinstance(call.func, Call) and self._is_function_tool(call.func.func):
            options, wrapped = call.func, call.arg(0)
        elif self._is_function_tool(call.func) and not isinstance(call.func, Call):
            options, wrapped = call, call.arg(0, "func")
        if options is not None:
            fn = self.p.lookup(wrapped.name) if isinstance(wrapped, Ref) else None
            if not isinstance(fn, FunctionFact):
                if wrapped is not None:
                    self._note(path, line, f"function_tool({describe(wrapped)}): the wrapped function cannot be resolved statically", site=("wrapped function", shape(wrapped)))
                return None
            if symbol is not None:
                return self._function_tool(fn, options, {symbol}, path, line, conditional)
            identity = ("function_tool", fn.symbol, _kwargs_text(options))
            if identity in self.merged:  # the same tool built inline again: its own item may be changed
                self._approval_set_later(self.merged[identity].entry, (), built)
                return self.merged[identity]
            cand = self._function_tool(fn, options, {self._synthetic(path, line)}, path, line, conditional, built)
            self.merged[identity] = cand
            return cand
        if self._is(call.func, _FUNCTION_TOOL_CLASS) and not isinstance(call.func, Call):
            return self._function_tool_class(call, symbol, path, line, conditional)
        leaf = self._hosted_leaf(call)
        if leaf is not None:
            return self._hosted(leaf, call, symbol, path, line, conditional)
        if _is_codex_tool(self.p, call):
            return self._codex(call, symbol, path, line, conditional)
        receiver = self._method(call, "as_tool")
        if receiver is not None:
            return self._as_tool(receiver, call, symbol, path, line, conditional)
        return None

    def _function_tool_class(self, call: Call, symbol: str | None, path: str, line: int, conditional: bool) -> Candidate | None:
        name = self._str(call.arg(0, "name"))
        if not isinstance(name, str):
            self._note(path, line, f"FunctionTool({describe(call.arg(0, 'name') or Dyn('?'))}): the tool name cannot be resolved statically", site=("FunctionTool name", shape(call.arg(0, "name"))))
            return None
        schema = self.p.evaluate(call.arg(2, "params_json_schema"))
        signature = None
        if isinstance(schema, dict) and isinstance(schema.get("properties"), dict):
            required = schema.get("required") if isinstance(schema.get("required"), list) else []
            signature = Signature(
                params=[
                    Param(name=k, type=str(v.get("type")) if isinstance(v, dict) and v.get("type") else None, required=k in required)
                    for k, v in sorted(schema["properties"].items())
                ]
            )
        approval = self._approval(call.kw("needs_approval"), call)
        entry = self._tool_entry(name, path, line, conditional, approval, signature=signature, description_sha256=digest(self._text(call.arg(1, "description"))))
        sym = symbol or self._synthetic(path, line)
        cand = self._register_tool(entry, {sym}, conditional)
        self._apply_enabled(call.kw("is_enabled"), {sym})
        return cand

    def _hosted(self, leaf: str, call: Call, symbol: str | None, path: str, line: int, conditional: bool) -> Candidate | None:
        default_name, fixed = _HOSTED[leaf]
        name: Any = default_name
        scope = ""
        description: Any = None
        approval: Any = "never"
        if leaf in ("ShellTool", "ApplyPatchTool", "CustomTool"):
            if leaf == "CustomTool" or call.kw("name") is not None:
                name = self._str(call.arg(0, "name") if leaf == "CustomTool" else call.kw("name"))
            if leaf == "CustomTool":
                description = self._text(call.arg(1, "description"))
            approval = self._approval(call.kw("needs_approval"), call)
            if approval == "always" and self._given(call.kw("on_approval")):
                approval = "conditional"  # a callback decides, not a person
        elif leaf == "HostedMCPTool":
            config = self.p.evaluate(call.arg(0, "tool_config"))
            if isinstance(config, dict):
                label = config.get("server_label")
                if isinstance(label, str):
                    scope = label
                require = config.get("require_approval", "always")  # the Responses API asks by default
                approval = "conditional" if isinstance(require, dict) else approval_from(require)
            else:
                approval = config if isinstance(config, Dynamic) else Dynamic(dynamic=describe(call))
            if not scope:
                self._note(path, line, "HostedMCPTool: server_label cannot be resolved statically", site=("HostedMCPTool server_label",))
            if approval == "always" and self._given(call.arg(1, "on_approval_request")):
                approval = "conditional"
        if not isinstance(name, str):
            self._note(path, line, f"{leaf}: the tool name cannot be resolved statically", site=("hosted tool name", leaf))
            return None
        if leaf == "HostedMCPTool":
            fixed = {**fixed, "dangerous": _mcp_tools_danger(scope or "hosted_mcp")}
        # OpenAI-hosted and MCP tools act outside the process: open-world (function tools declare nothing: not open-world).
        entry = self._tool_entry(name, path, line, conditional, approval, scope=scope, description_sha256=digest(description), **{"open_world": True, **fixed})
        # One entry per configuration: a same-named hosted tool configured otherwise elsewhere (another
        # agent's MCP server under the same label, a shell with another approval) is another tool.
        config = ";".join(describe(a) for a in call.args) + "|" + _kwargs_text(call)
        return self._merge_or_register(("hosted", entry.key, config), entry, symbol or self._synthetic(path, line), conditional)

    def _option(self, expr: Expr | None, key: str, unseen: bool = False) -> Any:
        """`key` of an options value: a mapping, or a `CodexToolOptions(...)`/`ThreadOptions(...)` call.
        None when not given; Dynamic when the options cannot be read, or (`unseen`) when an options
        call's `**kwargs` may carry the key."""
        if expr is None:
            return None
        value = self.p.value_of(expr)
        if isinstance(value, Call) and not isinstance(value.func, Call) and (self._origin(value.func) or "").startswith(_PKG + "."):
            value = self.p.spread_call(value)
            if value.kw(key) is None:  # `CodexToolOptions(**CFG)`: the key may be in what is not seen
                return Dynamic(dynamic=f"{key} given through **kwargs") if unseen and value.star else None
            return self.p.evaluate(value.kw(key))
        mapping = self.p.evaluate(expr)
        if mapping is None:
            return None
        if isinstance(mapping, dict):
            return mapping.get(key)
        return mapping if isinstance(mapping, Dynamic) else Dynamic(dynamic=describe(expr))

    def _codex(self, call: Call, symbol: str | None, path: str, line: int, conditional: bool) -> Candidate | None:
        call = self.p.spread_call(call)
        options = call.arg(0, "options")
        name = self._str(call.kw("name")) if call.kw("name") is not None else self._option(options, "name")
        if name is None:
            name = _CODEX_NAME
        if not isinstance(name, str):
            # Kept, never dropped: a Codex tool is there whatever it is called (options that cannot be
            # read leave what they decide dynamic below); named as the SDK names it by default.
            self._note(path, line, f"codex_tool: the tool name cannot be resolved statically; using {_CODEX_NAME!r}", site=("codex_tool name",))
            name = _CODEX_NAME
        description: Any = self._text(call.kw("description")) if call.kw("description") is not None else self._option(options, "description")
        thread = call.kw("default_thread_options")
        sandbox: Any = None
        for value in (
            # `codex_tool(**OPTS)`: a sandbox_mode in the keyword arguments is not seen and wins.
            Dynamic(dynamic="sandbox_mode given through **kwargs")
            if call.star and call.kw("sandbox_mode") is None else self._str(call.kw("sandbox_mode")),
            self._option(options, "sandbox_mode", unseen=True),
            self._option(thread, "sandbox_mode", unseen=True) if thread is not None else self._option(self._option_expr(options, "default_thread_options"), "sandbox_mode", unseen=True),
        ):
            if value is not None:  # the SDK skips a None or empty mode: the next source decides
                sandbox = value
                break
        if isinstance(sandbox, str) and sandbox in _CODEX_SANDBOX:
            attrs: dict[str, Any] = dict(_CODEX_SANDBOX[sandbox])
        else:
            why = (f"Codex sandbox_mode {sandbox.dynamic if isinstance(sandbox, Dynamic) else sandbox!r}" if sandbox is not None
                   else "Codex sandbox from the user's Codex configuration (no sandbox_mode given)")
            attrs = {"dangerous": Dynamic(dynamic=why)}
        network = self._codex_network(call, options, sandbox)
        if network is not None and attrs.get("open_world") is not True:
            attrs["open_world"] = network
        parameters = call.kw("parameters")
        signature = Signature(params=[Param(name="parameters", type=describe(parameters))]) if parameters is not None else None
        entry = self._tool_entry(
            name, path, line, conditional, "never", signature=signature,
            description_sha256=digest(description if description is not None else _CODEX_DESCRIPTION), **attrs,
        )
        config = ";".join(describe(a) for a in call.args) + "|" + _kwargs_text(call)
        cand = self._merge_or_register(("codex", entry.key, config), entry, symbol or self._synthetic(path, line), conditional)
        self._apply_enabled(call.kw("is_enabled"), cand.symbols)
        return cand

    def _thread_option(self, call: Call, options: Expr | None, key: str) -> Any:
        """`key` of the thread options the tool runs with: `default_thread_options=` (which replaces
        the options' own), else the options' `default_thread_options` (a call or a mapping)."""
        thread = call.kw("default_thread_options")
        if thread is None and call.star:
            return Dynamic(dynamic=f"{key} given through **kwargs")
        if thread is not None:
            return self._option(thread, key, unseen=True)
        nested = self._option_expr(options, "default_thread_options")
        if nested is not None:
            return self._option(nested, key, unseen=True)
        got = self._option(options, "default_thread_options", unseen=True)
        if isinstance(got, dict):
            return got.get(key)
        return got if isinstance(got, Dynamic) else None

    def _codex_network(self, call: Call, options: Expr | None, sandbox: Any) -> Any:
        """Whether the Codex CLI may reach the network beyond its sandbox's default (exec.py): web
        search (`web_search_mode` "cached"/"live", else the legacy `web_search_enabled=True`), or
        `network_access_enabled=True`, which opens a workspace-write sandbox's network. True,
        Dynamic when a value (or the sandbox it applies to) is not known, else None (not opened)."""
        mode = self._thread_option(call, options, "web_search_mode")
        legacy = self._thread_option(call, options, "web_search_enabled") if not mode else None
        network = self._thread_option(call, options, "network_access_enabled")
        unknown: list[str] = []
        for key, value, opens in (("web_search_mode", mode, mode in ("cached", "live")), ("web_search_enabled", legacy, legacy is True)):
            if opens:
                return True
            if isinstance(value, Dynamic) or value not in (None, False, "", "disabled"):
                unknown.append(f"{key} {value.dynamic if isinstance(value, Dynamic) else repr(value)}")
        if network is True:
            if sandbox == "workspace-write":
                return True
            if not (isinstance(sandbox, str) and sandbox in _CODEX_SANDBOX):  # the sandbox it applies to is not known
                unknown.append("network_access_enabled=True under a sandbox that is not known")
        elif isinstance(network, Dynamic) or network not in (None, False):
            unknown.append(f"network_access_enabled {network.dynamic if isinstance(network, Dynamic) else repr(network)}")
        return Dynamic(dynamic="Codex network access: " + "; ".join(unknown)) if unknown else None

    def _option_expr(self, expr: Expr | None, key: str) -> Expr | None:
        """The expression of `key` in an options call (`CodexToolOptions(default_thread_options=...)`);
        a mapping's nested value is read by `_option` on the evaluated mapping instead."""
        value = self.p.value_of(expr) if expr is not None else None
        if isinstance(value, Call):
            return self.p.spread_call(value).kw(key)
        return None

    def _given(self, expr: Expr | None) -> bool:
        """An optional callback really passed (not absent, not a literal None)."""
        return expr is not None and (isinstance(expr, Dyn) or self.p.evaluate(expr) is not None)

    def _as_tool(self, receiver: Expr, call: Call, symbol: str | None, path: str, line: int, conditional: bool) -> Candidate | None:
        specs = self._specs_of(receiver, path, conditional)
        if not specs:
            return None  # `.as_tool` of something that is not an SDK agent (e.g. a LangChain runnable)
        spec = specs[0]
        agent = self.agent_cands.get(id(spec)) or self._agent_candidate(spec)
        tool_name = self._str(call.arg(0, "tool_name"))
        if isinstance(tool_name, str) and tool_name:
            name = tool_name
        else:
            if isinstance(tool_name, Dynamic):
                self._note(path, line, f"{agent.entry.name}.as_tool: tool_name is dynamic ({tool_name.dynamic}); named after the agent", site=("as_tool tool_name", shape(tool_name.dynamic)))
            name = _function_style(agent.entry.name)
        description = self._text(call.arg(1, "tool_description"))
        parameters = call.kw("parameters")
        signature = Signature(
            params=[Param(name="parameters", type=describe(parameters))] if parameters is not None else [Param(name="input", type="str")],
            returns="str",
        )
        approval = self._approval(call.kw("needs_approval"), call)
        entry = self._tool_entry(
            name, path, line, conditional, approval,
            signature=signature, description_sha256=digest(description if description is not None else ""), tags=["agent-as-tool"],
        )
        entry.name_expr = name_expression(self.p, call.arg(0, "tool_name"))
        if symbol is not None:
            cand = self._register_tool(entry, {symbol}, conditional)
        else:
            identity = ("as_tool", spec.symbol, name, _kwargs_text(call))
            cand = self._merge_or_register(identity, entry, self._synthetic(path, line), conditional)
        cand.reach = sorted(set(cand.reach) | {spec.symbol})
        self._attach_agent(spec, conditional or isinstance(self._enabled(call.kw("is_enabled")), Dynamic))
        self._apply_enabled(call.kw("is_enabled"), cand.symbols)
        return cand

    # -- agents: entries and reach --------------------------------------------------------------

    def _agent_candidate(self, spec: _AgentSpec) -> Candidate:
        existing = self.agent_cands.get(id(spec))
        if existing is not None:
            return existing
        name_value = self._str(spec.kwargs.get("name"))
        if isinstance(name_value, str) and name_value:
            name = name_value
        else:
            name = spec.var_name if not spec.symbol.startswith(_SYNTH) else "agent"
            self._note(spec.path, spec.line, f"agent {spec.var_name}: name is not a literal ({describe(spec.kwargs['name']) if 'name' in spec.kwargs else 'missing'}); using {name!r}", site=("agent name", shape(spec.kwargs.get("name"))))
        entry = Entry(
            kind="agent",
            name=name,
            path=spec.path,
            line=spec.line,
            dialect=NAME,
            root=spec.root,
            conditional=spec.conditional,
            model=self._model(spec.kwargs.get("model")),
            instructions_sha256=self._instructions(spec.kwargs.get("instructions"), spec.kwargs.get("prompt")),
            # what other agents read to decide whether to hand off to this one
            description_sha256=digest(self._text(spec.kwargs.get("handoff_description"))),
            name_expr=name_expression(self.p, spec.kwargs.get("name")),
        )
        if spec.is_clone and not spec.name_overridden and not spec.symbol.startswith(_SYNTH):
            # A clone keeps its base's name; key it by its variable so it never shadows the base.
            entry.key = f"{entry_key('agent', '', name)}@{spec.var_name}"
        cand = Candidate(entry, set(spec.symbols))
        self.agent_cands[id(spec)] = cand
        self.result.candidates.append(cand)
        return cand

    def _model(self, expr: Expr | None) -> str | Dynamic | None:
        if expr is None:
            return None
        value = self.p.value_of(expr)
        if isinstance(value, Call) and (self._origin(value.func) or "").startswith(_PKG + "."):
            inner = value.arg(0, _MODEL_CLASSES_KW)
            if inner is not None:
                return self._str(inner) or Dynamic(dynamic=describe(value))
        value = self._str(expr)
        return value

    def _instructions(self, expr: Expr | None, prompt: Expr | None) -> str | None:
        text: Any = None
        if expr is not None:
            fn = self.p.functions.get(self.p.canonical(expr.name)) if isinstance(expr, Ref) else None
            if fn is not None:
                # Instructions computed per run: what the function returns, by value (`function_value`).
                text = self.p.function_value(fn)
            else:
                text = self._text(expr)
        if prompt is None:
            return digest(text)
        # A stored prompt (`prompt={"id": ..., "version": ...}`) is part of the system prompt.
        value = self.p.evaluate(prompt)
        try:
            prompt_text = value.dynamic if isinstance(value, Dynamic) else canonical_json(value).decode()
        except (TypeError, ValueError):
            value, prompt_text = Dynamic(dynamic=describe(prompt)), describe(prompt)
        base = text.dynamic if isinstance(text, Dynamic) else (text or "")
        combined = f"{base}\n\0prompt:{prompt_text}"
        dynamic = isinstance(text, Dynamic) or isinstance(value, Dynamic)
        return digest(Dynamic(dynamic=combined) if dynamic else combined)

    def _items(self, spec: _AgentSpec, field_name: str) -> list[Item]:
        out: list[Item] = []
        expr = spec.kwargs.get(field_name)
        if expr is not None:
            got = self._items_of(expr)
            if isinstance(got, Dynamic):
                self._note(spec.path, spec.line, f"agent {spec.var_name}: {field_name}={got.dynamic} cannot be resolved statically", site=("agent " + field_name, shape(got.dynamic)))
            else:
                out.extend(got)
        for owner in spec.owners[field_name]:
            for op, value, cond in self.p.mutations(owner, field_name):
                if op == "append":
                    out.append(Item(value, cond))
                    continue
                got = self._items_of(value)
                if isinstance(got, Dynamic):
                    self._note(spec.path, spec.line, f"agent {spec.var_name}: {field_name} changed to {got.dynamic}, which cannot be resolved statically", site=("agent " + field_name + " changed", shape(got.dynamic)))
                    continue
                out.extend(Item(i.expr, i.conditional or cond) for i in got)
        return out

    def _items_of(self, expr: Expr) -> list[Item] | Dynamic:
        got = self.p.items(expr, expand=self._namespace_tools)
        if isinstance(got, Dynamic) and isinstance(expr, Call) and not expr.args and not expr.kwargs:
            fn = self.p.functions.get(self._origin(expr.func) or "")
            if fn is not None and fn.returns_exprs:
                out: list[Item] = []
                for ret in fn.returns_exprs:  # `tools=get_tools()` with literal returns
                    more = self.p.items(ret, expand=self._namespace_tools)
                    if isinstance(more, Dynamic):
                        return got
                    out.extend(Item(i.expr, i.conditional or len(fn.returns_exprs) > 1) for i in more)
                return out
        return got

    def _namespace_tools(self, call: Call) -> Expr | None:
        """`tool_namespace(name=..., tools=[...])` stands for the tools it lists (Program.items `expand`)."""
        if not isinstance(call.func, Call) and self._is(call.func, _TOOL_NAMESPACE):
            return call.kw("tools")
        return None

    def _tool_refs(self, expr: Expr, spec: _AgentSpec, conditional: bool) -> list[_ToolRef]:
        if isinstance(expr, Ref):
            target = self.p.canonical(expr.name)
            if target not in self.tools:
                d = self.p.lookup(target)
                if isinstance(d, AssignFact) and isinstance(d.value, Call):
                    made = self._tool_from_call(d.value, target, self.p.path_of(target), d.line, d.conditional)
                    returned = self._returned_tools(d.value) if made is None else None
                    if returned:  # `t = make_lookup_tool(...)`: the tool the repository helper returns
                        return [_ToolRef(symbol, True) for symbol in returned]
                elif d is None and self.p.is_external(target):
                    # Another package's object (`from agent_kit import shell_tool`): what it is cannot
                    # be read here. A name of the repository no dialect recognises is the linker's note.
                    self._note(spec.path, getattr(expr, "line", 0) or spec.line, f"agent {spec.var_name}: tool {describe(expr)} from outside the repository is not analysed",
                               site=("external tool", shape(expr)))
            return [_ToolRef(target)]
        if isinstance(expr, Call):
            cand = self._tool_from_call(expr, None, spec.path, expr.line or spec.line, conditional)
            if cand is not None:
                return [_ToolRef(sorted(s for s in cand.symbols)[0])]
            fn = self.p.functions.get(self._origin(expr.func) or "")
            if fn is not None:  # a helper returning one tool
                out: list[_ToolRef] = []
                for ret in fn.returns_exprs:
                    out.extend(_ToolRef(r.symbol, True) for r in self._tool_refs(ret, spec, True))
                if out:
                    return out
        self._note(spec.path, getattr(expr, "line", 0) or spec.line, f"agent {spec.var_name}: tool {describe(expr)} cannot be resolved statically", site=("agent tool", shape(expr)))
        return []

    def _returned_tools(self, call: Call) -> list[str] | None:
        """The tools a repository helper returns when each of its returns names one (`def make():
        @function_tool ... def lookup(...): ...; return lookup`), else None."""
        fn = self.p.functions.get(self._origin(call.func) or "")
        if fn is None or not fn.returns_exprs:
            return None
        out: list[str] = []
        for ret in fn.returns_exprs:
            target = self.p.canonical(ret.name) if isinstance(ret, Ref) else None
            if target is None or target not in self.tools:
                return None
            out.append(target)
        return out

    def _attach_tool(self, symbol: str, conditional: bool) -> None:
        cand = self.tools.get(symbol)
        if cand is not None:
            self.attach.setdefault(id(cand), []).append(conditional)

    def _attach_agent(self, spec: _AgentSpec, conditional: bool) -> None:
        cand = self._agent_candidate(spec)
        self.attach.setdefault(id(cand), []).append(conditional)

    def resolve(self) -> None:
        done: set[int] = set()
        while True:  # resolving can create inline agents (handoffs=[Agent(...)]): repeat until stable
            pending = [s for s in self.spec_order if id(s) not in done]
            if not pending:
                break
            for spec in pending:
                done.add(id(spec))
                self._resolve_agent(spec)

    def _resolve_agent(self, spec: _AgentSpec) -> None:
        cand = self._agent_candidate(spec)
        reach: set[str] = set()
        for item in self._items(spec, "tools"):
            cond = item.conditional or spec.conditional
            for ref in self._tool_refs(item.expr, spec, cond):
                if ref.symbol in self.disabled:
                    continue
                reach.add(ref.symbol)
                self._attach_tool(ref.symbol, cond or ref.conditional or ref.symbol in self.dynamic_enabled)
        for item in self._items(spec, "handoffs"):
            cond = item.conditional or spec.conditional
            target: Expr | None = item.expr
            value = self.p.value_of(target) if isinstance(target, Ref) else target
            if isinstance(value, Call) and self._is(value.func, _HANDOFF) and not isinstance(value.func, Call):
                enabled = self._enabled(value.kw("is_enabled"))
                if enabled is False:
                    continue
                cond = cond or isinstance(enabled, Dynamic)
                target = value.arg(0, "agent")
            specs = self._specs_of(target, spec.path, cond) if target is not None else []
            if specs:
                for s in specs:
                    reach.add(s.symbol)
                    self._attach_agent(s, cond)
            elif isinstance(target, Ref):
                reach.add(self.p.canonical(target.name))  # maybe an agent another dialect knows
            else:
                self._note(spec.path, spec.line, f"agent {spec.var_name}: handoff {describe(target) if target is not None else '?'} cannot be resolved statically", site=("handoff", shape(target)))
        reach |= self._sandbox_tools(spec)
        for item in self._items(spec, "mcp_servers"):
            cond = item.conditional or spec.conditional
            sym = self._mcp_server(item.expr, spec)
            if sym is not None:
                reach.add(sym)
                self._attach_tool(sym, cond)
        cand.reach = sorted(set(cand.reach) | reach)

    def _is_sandbox(self, spec: _AgentSpec) -> bool:
        origin = self._origin(spec.call.func)
        if origin_matches(origin, _SANDBOX_AGENT):
            return True
        cls = self.p.classes.get(origin or "")
        return cls is not None and any(origin_matches(b, _SANDBOX_AGENT) for b in self.p.class_bases(cls))

    def _sandbox_tools(self, spec: _AgentSpec) -> set[str]:
        """The tools a SandboxAgent's capabilities expose (shell, patching files, ...)."""
        if not self._is_sandbox(spec):
            return set()
        expr = spec.kwargs.get("capabilities")
        if expr is None:
            items: list[tuple[str | None, bool, int]] = [(c, spec.conditional, spec.line) for c in _SANDBOX_DEFAULT]
        else:
            got = self._items_of(expr)
            if isinstance(got, Dynamic):
                self._note(spec.path, spec.line, f"agent {spec.var_name}: capabilities={got.dynamic} cannot be resolved statically; their tools are not analysed", site=("agent capabilities", shape(got.dynamic)))
                return set()
            items = []
            for item in got:
                value = self.p.value_of(item.expr)
                origin = self._origin(value.func) if isinstance(value, Call) else None
                capability = origin.rsplit(".", 1)[-1] if origin and origin.startswith(_PKG + ".") else None
                if capability not in _SANDBOX_TOOLS:
                    self._note(spec.path, spec.line, f"agent {spec.var_name}: sandbox capability {describe(item.expr)} adds tools that are not analysed", site=("sandbox capability", shape(item.expr)))
                    continue
                items.append((capability, item.conditional or spec.conditional, getattr(value, "line", 0) or spec.line))
        reach: set[str] = set()
        for capability, cond, line in items:
            for name, fixed in _SANDBOX_TOOLS[capability or ""]:
                entry = self._tool_entry(name, spec.path, line, cond, "never", scope="sandbox", tags=["sandbox-capability"], **fixed)
                cand = self._merge_or_register(("sandbox", name), entry, self._synthetic(spec.path, line), cond)
                symbol = sorted(cand.symbols)[0]
                reach.add(symbol)
                self._attach_tool(symbol, cond)
        return reach

    def _mcp_server(self, expr: Expr, spec: _AgentSpec) -> str | None:
        symbol = self.p.canonical(expr.name) if isinstance(expr, Ref) else None
        if symbol is not None and symbol in self.tools:
            return symbol
        value = self.p.value_of(expr)
        if not (isinstance(value, Call) and self._is(value.func, *_MCP_SERVERS) and not isinstance(value.func, Call)):
            self._note(spec.path, spec.line, f"agent {spec.var_name}: MCP server {describe(expr)} cannot be resolved statically", site=("agent MCP server", shape(expr)))
            return None
        d = self.p.lookup(symbol) if symbol else None
        path = self.p.path_of(symbol) if symbol else spec.path
        line = d.line if isinstance(d, AssignFact) else (value.line or spec.line)
        value = self.p.spread_call(value)  # `MCPServerStdio(**SERVER)`
        label = self._str(value.kw("name"))
        if not isinstance(label, str):
            label = short_name(symbol).rsplit(".", 1)[-1] if symbol else (self._origin(value.func) or "mcp").rsplit(".", 1)[-1]
        approval = self._approval(value.kw("require_approval"), value, "require_approval")
        conditional = isinstance(d, AssignFact) and d.conditional
        entry = self._tool_entry("*", path, line, conditional, approval, scope=label, dangerous=_mcp_tools_danger(label), tags=["mcp-server"],
                                 open_world=True)  # the MCP protocol default
        cand = self._merge_or_register(("mcp", entry.key), entry, symbol or self._synthetic(path, line), entry.conditional)
        return sorted(cand.symbols)[0]

    # -- finish -----------------------------------------------------------------------------------

    def finish(self) -> DialectResult:
        if self.tools:
            self._approval_set_on_unknown_items()
        for spec in self.spec_order:
            agent = self._agent_candidate(spec)
            agent.symbols |= spec.symbols
            agent.entry.root = agent.entry.root or spec.root
        for cand in self.result.candidates:
            attached = self.attach.get(id(cand), [])
            if cand.entry.kind == "tool":
                own = self.tool_own_conditional.get(id(cand), cand.entry.conditional)
                dynamic_enabled = bool(cand.symbols & self.dynamic_enabled)
                cand.entry.conditional = own or dynamic_enabled or (bool(attached) and all(attached))
            elif not cand.entry.root and attached and all(attached):
                cand.entry.conditional = True
            cand.reach = sorted(set(cand.reach))
        return self.result


# -- recognising names, and screens (see `base.screened_functions`): pure functions of the program and
# one item; each screen is a necessary condition of what the loop using it goes on to read.


def _is_agent_class(p: Program, func: Expr) -> bool:
    origin = p.origin(func)
    if origin_matches(origin, *_AGENT_CLASSES):
        return True
    cls = p.classes.get(origin or "")
    return cls is not None and any(origin_matches(b, *_AGENT_CLASSES) for b in p.class_bases(cls))


def _is_function_tool(p: Program, expr: Expr | None) -> bool:
    origin = p.origin(expr)
    return origin in _FUNCTION_TOOL_ALIASES or origin_matches(origin, _FUNCTION_TOOL)


def _is_agent_ctor(p: Program, expr: Expr | None) -> bool:
    return isinstance(expr, Call) and not isinstance(expr.func, Call) and _is_agent_class(p, expr.func)


def _hosted_leaf(p: Program, call: Call) -> str | None:
    if isinstance(call.func, Call):
        return None
    origin = p.origin(call.func)
    if not origin or not origin.startswith(_PKG + "."):
        return None
    leaf = origin.rsplit(".", 1)[-1]
    return leaf if leaf in _HOSTED and origin_matches(origin, f"{_PKG}.{leaf}") else None


def _is_codex_tool(p: Program, call: Call) -> bool:
    return not isinstance(call.func, Call) and origin_matches(p.origin(call.func), _CODEX_TOOL)


def _assigned_agent(p: Program, a: AssignFact) -> bool:
    """`x = Agent(...)` or `x = y.clone(...)`."""
    return a.op == "=" and isinstance(a.value, Call) and (_is_agent_ctor(p, a.value) or _Extractor._method(a.value, "clone") is not None)


def _returns_agent_or_name(p: Program, fn: FunctionFact) -> bool:
    """What `_factory` reads: a return of an Agent(...), a clone, or a name."""
    return any(
        isinstance(r, Ref) or (isinstance(r, Call) and (_is_agent_ctor(p, r) or _Extractor._method(r, "clone") is not None))
        for r in fn.returns_exprs
    )


def _calls_a_function(p: Program, a: AssignFact) -> bool:
    """`x = make_agent()`: an assigned call of a repository function."""
    return a.op == "=" and isinstance(a.value, Call) and p.functions.get(p.origin(a.value.func) or "") is not None


def _decorated_tool(p: Program, fn: FunctionFact) -> bool:
    for dec in fn.decorators:
        func = decorator_call(dec, p)[0]
        if _is_function_tool(p, func) and not isinstance(func, Call):
            return True
    return False


def _assigned_tool(p: Program, a: AssignFact) -> bool:
    """An assigned call `_tool_from_call` reads: function_tool(...), FunctionTool(...), a hosted tool, `.as_tool(...)`."""
    if a.op != "=" or not isinstance(a.value, Call):
        return False
    call = through_factory(p, a.value)
    if isinstance(call.func, Call):
        return _is_function_tool(p, call.func.func)
    return (
        _is_function_tool(p, call.func)
        or origin_matches(p.origin(call.func), _FUNCTION_TOOL_CLASS)
        or _hosted_leaf(p, call) is not None
        or _is_codex_tool(p, call)
        or _Extractor._method(call, "as_tool") is not None
    )


def extract(program: Program) -> DialectResult:
    ex = _Extractor(program)
    ex.discover_agents()
    ex.discover_tools()
    ex.resolve()
    return ex.finish()
