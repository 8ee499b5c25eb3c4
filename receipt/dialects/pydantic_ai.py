"""PydanticAI: `Agent(...)`, `@agent.tool` / `@agent.tool_plain`, `Tool(...)`, `FunctionToolset`.

What is recognised (by import origin, so aliases and `import pydantic_ai as pai` work):

- Agents: `Agent(model, tools=[...], toolsets=[...], instructions=..., system_prompt=..., name=...)`
  assigned to a variable (module level or inside a factory), or returned directly by a factory.
  The agent's name is `name=` when it is a literal, else the variable name (else the factory's
  name). A public module-level agent, or one returned by a public module-level factory
  (conditional), is an export root. A model id under a renamed provider prefix (`google-gla:` ->
  `google:`, `google-vertex:` -> `google-cloud:`) is read under the new name: the same model.
- Tools: `@agent.tool` (RunContext first parameter: always dropped), `@agent.tool_plain`,
  `agent.tool_plain(fn)` as a call, `agent.tool_plain(requires_approval=True)(fn)` (a decorator with
  options applied as a statement, on agents and toolsets), `Tool(fn, name=, description=, takes_ctx=, requires_approval=,
  prepare=)`, plain functions in `tools=[...]`, `FunctionToolset(tools=[...], requires_approval=)`,
  `@toolset.tool` / `toolset.add_function(fn)` / `toolset.add_tool(Tool(...))`, toolsets in
  `toolsets=[...]`, also through wrappers that keep the tools (`.filtered()`, `.prepared()`: the
  tools become conditional; `.defer_loading()`, `.include_return_schemas()`, `.with_metadata()`: the
  same tools). The decorator's receiver is resolved across modules (`from app.agents import
  agent` then `@agent.tool`) to an assignment whose callee is `pydantic_ai.Agent`/`FunctionToolset`.
- Approval: `requires_approval=True` -> always (tool, decorator or toolset default); `raise
  ApprovalRequired` (pydantic_ai.exceptions) in the tool body -> conditional; a toolset wrapped by
  `ApprovalRequiredToolset(ts)` / `ts.approval_required()` -> always, or conditional when an
  `approval_required_func` decides per call. A wrapper applies to the registration through it, and
  a tool registered several ways takes the *lowest* approval among them: the path a reviewer must
  worry about is the one without a human.
- Instructions digest: the literal `instructions=` / `system_prompt=` texts, plus, for every
  `@agent.instructions` / `@agent.system_prompt` function (or a function passed as `instructions=`),
  its docstring and the source text of its return expressions, in source order. A value read at run
  time (env, parameter) makes the digest `dynamic:...`.
- A `prepare=` function may hide a tool at run time: such a tool is `conditional`.

Not recognised (reported or documented): toolsets that are not `FunctionToolset` (MCP servers,
`DynamicToolset`, functions returning toolsets) -> an issue on the agent; `prefixed()`/`renamed()`
toolsets keep the unprefixed names (an issue says so); agents stored on `self` in methods; tool
names that are not literals fall back to the function name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from receipt.dialects._agentkit import GatedTool, builds_root, foreign_tool, instructions_digest, prompt_part, qualified_model, replaces
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
    leaf,
    origin_matches,
    screened_assigned_calls,
    screened_functions,
    tops,
    signature_of,
    split_method,
    stricter,
    given_through_spread,
)
from receipt.extract.facts import AssignFact, Call, Const, EffectFact, Expr, FunctionFact, ModuleFacts, Ref, attribute_callee, indexed_callee
from receipt.extract.program import Program, describe
from receipt.models import Dynamic, Entry
from receipt.schemas import unpacked_single_object

NAME = "pydantic-ai"

_AGENT = ("pydantic_ai.Agent", "pydantic_ai.agent.Agent")
_TOOL = ("pydantic_ai.Tool", "pydantic_ai.tools.Tool")
_FUNCTION_TOOLSET = ("pydantic_ai.FunctionToolset", "pydantic_ai.toolsets.FunctionToolset")
_APPROVAL_TOOLSET = ("pydantic_ai.ApprovalRequiredToolset", "pydantic_ai.toolsets.ApprovalRequiredToolset")
_APPROVAL_REQUIRED = ("pydantic_ai.ApprovalRequired", "pydantic_ai.exceptions.ApprovalRequired")
_TOOL_DECORATORS = {"tool": True, "tool_plain": False}  # method -> takes RunContext first
_PROMPT_DECORATORS = ("system_prompt", "instructions")
# Toolset methods returning a wrapper around the same tools: value = registration is conditional.
_PASSTHROUGH = {
    "filtered": True, "prepared": True, "prefixed": False, "renamed": False,
    # the same tools under the same names: hidden until tool search reveals them (still reachable),
    # with their return schemas in the description, tagged with metadata (toolsets/abstract.py)
    "defer_loading": False, "include_return_schemas": False, "with_metadata": False,
}
_RENAMING = frozenset({"prefixed", "renamed"})  # wrappers whose tool names are not shown as changed
# Provider prefixes PydanticAI renamed, old -> new (1.x accepted the old ones as deprecated aliases of
# the same provider; pydantic_ai/providers `infer_provider_class`): a model id is compared by provider.
_PROVIDER_RENAMES = {"google-gla": "google", "google-vertex": "google-cloud", "vertexai": "google-cloud"}
# Library functions a prompt may call under several import paths, each path -> the one it is spelt
# by in a prompt's run-time digest: `format_as_xml` was `pydantic_ai.format_as_xml` (module, 0.0.x),
# moved to `pydantic_ai.format_prompt` and is re-exported by the package root (the same function).
_SAME_FUNCTIONS = {
    "pydantic_ai.format_as_xml.format_as_xml": "pydantic_ai.format_as_xml",
    "pydantic_ai.format_prompt.format_as_xml": "pydantic_ai.format_as_xml",
}
_SAME_FUNCTION_RE = re.compile(r"(?<![\w.])(" + "|".join(re.escape(k) for k in sorted(_SAME_FUNCTIONS, key=len, reverse=True)) + r")(?![\w.])")


def _one_spelling(part: str | Dynamic) -> str | Dynamic:
    """A prompt's run-time text with re-exported library functions spelt one way (an import moved
    to the package root is no change to what the prompt says)."""
    if isinstance(part, Dynamic):
        return Dynamic(dynamic=_SAME_FUNCTION_RE.sub(lambda m: _SAME_FUNCTIONS[m.group(1)], part.dynamic))
    return part
# Tools the model provider runs (pydantic_ai/native_tools: `kind`) and the capabilities that add
# tools (pydantic_ai/capabilities: their fixed `id`): class -> (tool name, fixed attributes).
_NATIVE_TOOLS: dict[str, tuple[str, dict[str, Any]]] = {
    "WebSearchTool": ("web_search", {"read_only": True}),
    "XSearchTool": ("x_search", {"read_only": True}),
    "WebFetchTool": ("web_fetch", {"read_only": True}),
    "FileSearchTool": ("file_search", {"read_only": True}),
    "CodeExecutionTool": ("code_execution", {"dangerous": True}),
    "ImageGenerationTool": ("image_generation", {}),
    "MemoryTool": ("memory", {}),
}
_CAPABILITY_TOOLS: dict[str, tuple[str, dict[str, Any]]] = {
    "WebSearch": ("web_search", {"read_only": True}),
    "XSearch": ("x_search", {"read_only": True}),
    "WebFetch": ("web_fetch", {"read_only": True}),
    "ImageGeneration": ("image_generation", {}),
    "LocalWorkspace": ("local_workspace", {"dangerous": True}),  # commands and file edits on the host
}
# Capabilities that change how the agent runs but give it no tool.
_TOOLLESS_CAPABILITIES = frozenset(
    {
        "Thinking", "Caching", "Citations", "Instrumentation", "ReinjectSystemPrompt", "UseThreadExecutor", "ModelFallback",
        "SelectModel", "ResolveModelId", "Hooks", "ProcessHistory", "ProcessEventStream", "PrepareTools", "PrepareOutputTools",
        "SetToolMetadata", "IncludeToolReturnSchemas", "RaiseContentFilterError", "BatchModelRequests", "FileUnderstanding",
        "HandleDeferredToolCalls", "ToolSearch",
    }
)


def _model_id(model: Any) -> Any:
    """`google-gla:gemini-2.5-flash` is `google:gemini-2.5-flash`: the same model under its provider's new name."""
    if isinstance(model, str):
        provider, sep, name = model.partition(":")
        if sep and provider in _PROVIDER_RENAMES:
            return f"{_PROVIDER_RENAMES[provider]}:{name}"
    return model


@dataclass
class _Tool(GatedTool):
    explicit_approval: bool = False  # requires_approval= given: a toolset's default does not apply


@dataclass
class _Agent:
    symbol: str
    entry: Entry
    call: Call
    prompt_parts: list[tuple[str, int, str | Dynamic]] = field(default_factory=list)
    tools: list[str] = field(default_factory=list)
    reach: list[str] = field(default_factory=list)


@dataclass
class _Toolset:
    symbol: str
    call: Call
    conditional: bool
    default_approval: Any = None  # requires_approval= on the toolset, for tools without their own
    tools: list[tuple[str, bool]] = field(default_factory=list)  # (tool id, conditional)
    decorated: list[tuple[FunctionFact, Call | None]] = field(default_factory=list)
    resolved: bool = False


class _Extractor:
    def __init__(self, program: Program):
        self.p = program
        self.result = DialectResult()
        self.tools: dict[str, _Tool] = {}
        self.agents: dict[str, _Agent] = {}
        self.toolsets: dict[str, _Toolset] = {}
        self._curried: dict[str, list[tuple[str, Call, EffectFact]]] | None = None  # see `curried`

    # -- discovery ------------------------------------------------------------------------------

    def is_call_of(self, expr: Expr | None, names: tuple[str, ...]) -> bool:
        return _is_call_of(self.p, expr, names)

    def find_objects(self) -> None:
        for a in screened_assigned_calls(self.p, "pydantic-ai.objects", _assigned_object, tops(_AGENT, _FUNCTION_TOOLSET, _TOOL)):
            if a.op != "=":
                continue
            if self.is_call_of(a.value, _AGENT):
                self.add_agent(a.target, a.value, a.line, a.conditional, name_hint=a.target.rsplit(".", 1)[-1])  # type: ignore[arg-type]
            elif self.is_call_of(a.value, _FUNCTION_TOOLSET):
                self.toolsets[a.target] = _Toolset(a.target, a.value, a.conditional)  # type: ignore[arg-type]
            elif self.is_call_of(a.value, _TOOL):
                self.tool_object(a.value, a.target, self.p.path_of(a.target), a.conditional)  # type: ignore[arg-type]
        for fn in screened_functions(self.p, "pydantic-ai.returned agents", lambda p, fn: any(_is_call_of(p, r, _AGENT) for r in fn.returns_exprs)):
            for ret in fn.returns_exprs:
                if self.is_call_of(ret, _AGENT):  # `def build(): return Agent(...)`
                    sym = f"{fn.symbol}.<return>"
                    self.add_agent(sym, ret, ret.line, True, name_hint=fn.name, path=self.p.path_of(fn.symbol))  # type: ignore[arg-type,union-attr]
                    self.agents[sym].entry.root = builds_root(self.p, fn.symbol)
        # `def build(): agent = Agent(...); ...; return agent` -> a conditional root.
        for fn in screened_functions(self.p, "pydantic-ai.returned names", _returns_agent_name):
            for ret in fn.returns_exprs:
                if isinstance(ret, Ref) and self.p.canonical(ret.name) in self.agents and builds_root(self.p, fn.symbol):
                    self.agents[self.p.canonical(ret.name)].entry.root = True

    def add_agent(self, symbol: str, call: Call, line: int, conditional: bool, name_hint: str, path: str | None = None) -> None:
        if not replaces(self.agents.get(symbol), conditional, self.result, path or self.p.path_of(symbol), line):
            return
        name = self.p.evaluate(call.kw("name"))
        entry = Entry(
            kind="agent",
            name=name if isinstance(name, str) and name else name_hint,
            name_expr=name_expression(self.p, call.kw("name")),
            path=path if path is not None else self.p.path_of(symbol),
            line=line,
            dialect=NAME,
            conditional=conditional,
            root=builds_root(self.p, symbol),
            # `agent.model = "openai:gpt-4o-mini"` after construction (a property PydanticAI reads on every run)
            model=_model_id(qualified_model(self.p, assigned_later(self.p, [symbol], "model", call) or call.arg(0, "model"))),
        )
        self.agents[symbol] = _Agent(symbol, entry, call)

    # -- tools ----------------------------------------------------------------------------------

    def function_tool(self, fn: FunctionFact, call: Call | None, takes_ctx: bool | None, conditional: bool) -> str:
        """A tool declared on a function (decorator, plain function in a list, add_function)."""
        if fn.symbol in self.tools:
            return fn.symbol
        call = self.p.spread_call(call) if call is not None else None  # `@agent.tool_plain(**GUARDED)`
        kw = (lambda k: call.kw(k)) if call is not None else (lambda k: None)
        name = self.p.evaluate(kw("name"))
        if name is not None and not isinstance(name, str):
            self.result.issues.append(issue(self.p.path_of(fn.symbol), fn.line, f"tool name of '{fn.name}' is not a literal; using the function name", site=("tool name", shape(kw("name")))))
        description = self.p.text(kw("description"))
        entry = Entry(
            kind="tool",
            name=name if isinstance(name, str) and name else fn.name,
            name_expr=name_expression(self.p, kw("name")),
            path=self.p.path_of(fn.symbol),
            line=fn.line,
            dialect=NAME,
            signature=unpacked_single_object(self.p, signature_of(fn, drop_first=bool(takes_ctx))),
            description_sha256=digest(description if description is not None else fn.doc),
        )
        tool = _Tool(entry, {fn.symbol}, def_conditional=conditional or kw("prepare") is not None)
        self.set_approval(tool, kw("requires_approval"), fn, call)
        self.tools[fn.symbol] = tool
        return fn.symbol

    def set_approval(self, tool: _Tool, expr: Expr | None, fn: FunctionFact | None, call: Call | None = None) -> None:
        """`requires_approval=expr` of `call` (its spreads read); not given where a `**x` that
        cannot be read may give it, unknown."""
        if expr is not None:
            tool.explicit_approval = True
            tool.approval = approval_from(self.p.evaluate(expr), self.p, expr)
        elif (unread := given_through_spread(call, "requires_approval")) is not None:
            tool.explicit_approval = True
            tool.approval = unread
        if fn is not None and any(origin_matches(self.p.origin(r), *_APPROVAL_REQUIRED) for r in fn.raises):
            tool.approval = stricter(tool.approval, "conditional")

    def tool_object(self, call: Call, symbol: str, path: str, conditional: bool) -> str:
        """`Tool(fn, name=..., requires_approval=...)`, assigned (symbol = the variable) or inline."""
        if symbol in self.tools:
            return symbol
        call = self.p.spread_call(call)  # `Tool(refund, **GUARDED)`
        func = call.arg(0, "function")
        fn = self.p.lookup(func.name) if isinstance(func, Ref) else None
        fn = fn if isinstance(fn, FunctionFact) else None
        name = self.p.evaluate(call.kw("name"))
        if not isinstance(name, str) or not name:
            if name is not None:
                self.result.issues.append(issue(path, call.line, "tool name is not a literal; using the function name", site=("tool name", shape(call.kw("name")))))
            name = fn.name if fn else describe(func) if func is not None else "tool"
        takes_ctx = self.p.evaluate(call.kw("takes_ctx"))
        description = self.p.text(call.kw("description"))
        entry = Entry(
            kind="tool",
            name=name,
            name_expr=name_expression(self.p, call.kw("name")),
            path=path,
            line=call.line,
            dialect=NAME,
            signature=unpacked_single_object(self.p, signature_of(fn, drop_first=takes_ctx is True)) if fn else None,
            description_sha256=digest(description if description is not None else (fn.doc if fn else None)),
        )
        tool = _Tool(entry, {symbol}, def_conditional=conditional or call.kw("prepare") is not None)
        self.set_approval(tool, call.kw("requires_approval"), fn, call)
        later = assigned_later(self.p, [symbol], "requires_approval")  # `refund_tool.requires_approval = False` after it
        if later is not None:
            self.set_approval(tool, later, None)
        self.tools[symbol] = tool
        return symbol

    def item_tool(self, expr: Expr, path: str, where: str, line: int) -> str | None:
        """One element of `tools=[...]`: a tool id, or None (reported) when it cannot be resolved."""
        if isinstance(expr, Ref):
            symbol = self.p.canonical(expr.name)
            if symbol in self.tools:
                return symbol
            d = self.p.lookup(symbol)
            if isinstance(d, FunctionFact):
                if foreign_tool(self.p, d):
                    return "foreign:" + symbol
                return self.function_tool(d, None, None, d.conditional)
            if isinstance(d, AssignFact) and self.is_call_of(d.value, _TOOL):
                return self.tool_object(d.value, symbol, self.p.path_of(symbol), d.conditional)  # type: ignore[arg-type]
            library = isinstance(d, AssignFact) and isinstance(d.value, Call) and self.p.is_external(self.p.origin(d.value.func) or "")
            if d is not None and not self.p.is_external(symbol) and not library:
                return "foreign:" + symbol  # another dialect's tool object; the linker resolves it
        if isinstance(expr, Call) and self.is_call_of(expr, _TOOL):
            return self.tool_object(expr, f"{path}:{expr.line}:{describe(expr)}", path, False)
        self.result.issues.append(issue(path, line, f"{where}: tool '{describe(expr)}' could not be resolved statically", site=("tool", shape(expr))))
        return None

    # -- toolsets -------------------------------------------------------------------------------

    def toolset_tools(self, ts: _Toolset) -> list[tuple[str, bool]]:
        if ts.resolved:
            return ts.tools
        ts.resolved = True
        path = self.p.path_of(ts.symbol)
        ts.default_approval = None
        options = self.p.spread_call(ts.call)  # `FunctionToolset(**OPTIONS)`
        default = options.kw("requires_approval")
        if default is not None:
            ts.default_approval = approval_from(self.p.evaluate(default), self.p, default)
        else:
            ts.default_approval = given_through_spread(options, "requires_approval")
        items = self.p.items(options.arg(0, "tools"))
        if isinstance(items, Dynamic):
            self.result.issues.append(issue(path, ts.call.line, f"toolset tools '{items.dynamic}' could not be resolved statically", site=("toolset tools", shape(items.dynamic))))
            items = []
        for it in items:
            tid = self.item_tool(it.expr, path, "toolset", ts.call.line)
            if tid:
                ts.tools.append((tid, it.conditional or ts.conditional))
        for fn, call in ts.decorated:  # @toolset.tool
            ts.tools.append((self.function_tool(fn, call, None, fn.conditional), fn.conditional))
        for method, options, effect in self.curried().get(ts.symbol, []):  # `toolset.tool(requires_approval=True)(refund)`
            target = effect.call.args[0]
            d = self.p.lookup(target.name) if isinstance(target, Ref) else None
            tid = self.function_tool(d, options, None, effect.conditional) if isinstance(d, FunctionFact) else self.item_tool(target, path, "toolset", effect.call.line)
            if tid:
                ts.tools.append((tid, effect.conditional))
        for method, effect in self.p.effects_by_receiver.get(ts.symbol, []):
            c = effect.call
            target = c.arg(0, "func") if method in ("add_function", "tool", "tool_plain") else c.arg(0, "tool") if method == "add_tool" else None
            if target is None:
                continue
            if method == "add_tool":
                tid = self.item_tool(target, path, "toolset", c.line)
            else:
                d = self.p.lookup(target.name) if isinstance(target, Ref) else None
                tid = self.function_tool(d, c, None, effect.conditional) if isinstance(d, FunctionFact) else self.item_tool(target, path, "toolset", c.line)
            if tid:
                ts.tools.append((tid, effect.conditional))
        return ts.tools

    def toolset_item(self, expr: Expr, path: str, line: int) -> list[tuple[str, bool, Any]]:
        """Tools behind one element of `toolsets=[...]`: (tool id, conditional, approval gate)."""
        if isinstance(expr, Ref):
            symbol = self.p.canonical(expr.name)
            if symbol in self.toolsets:
                ts = self.toolsets[symbol]
                return [(t, c, self.toolset_gate(ts, t)) for t, c in self.toolset_tools(ts)]
            value = self.p.value_of(expr)
            if isinstance(value, Call) and value is not expr:
                return self.toolset_item(value, path, line)
        if isinstance(expr, Call):
            if self.is_call_of(expr, _FUNCTION_TOOLSET):
                sym = f"{path}:{expr.line}:{describe(expr)}"
                ts = self.toolsets.setdefault(sym, _Toolset(sym, expr, False))
                return [(t, c, self.toolset_gate(ts, t)) for t, c in self.toolset_tools(ts)]
            if self.is_call_of(expr, _APPROVAL_TOOLSET):
                inner = expr.arg(0, "wrapped")
                gate = self.approval_gate(expr.arg(1, "approval_required_func"))
                return [(t, c, stricter(g, gate)) for t, c, g in self.toolset_item(inner, path, line)] if inner is not None else []
            receiver, method = split_method(expr.func)
            if receiver is not None and method == "approval_required":
                gate = self.approval_gate(expr.arg(0, "approval_required_func"))
                return [(t, c, stricter(g, gate)) for t, c, g in self.toolset_item(receiver, path, line)]
            if receiver is not None and method in _PASSTHROUGH:
                if method in _RENAMING:
                    self.result.issues.append(issue(path, line, f"toolset '{describe(expr)}': tool names are shown without the {method} change", site=("toolset rename", method, shape(expr))))
                return [(t, c or _PASSTHROUGH[method], g) for t, c, g in self.toolset_item(receiver, path, line)]
        self.result.issues.append(issue(path, line, f"toolset '{describe(expr)}' could not be resolved statically", site=("toolset", shape(expr))))
        return []

    def toolset_gate(self, ts: _Toolset, tool_id: str) -> Any:
        tool = self.tools.get(tool_id)
        if ts.default_approval is None or tool is None or tool.explicit_approval:
            return "never"
        return ts.default_approval

    def approval_gate(self, func: Expr | None) -> Any:
        """`approval_required_func`: absent -> every call (always); a function -> per call."""
        if func is None or (isinstance(func, Const) and func.value is None):
            return "always"
        return "conditional"


    # -- agents ---------------------------------------------------------------------------------

    def register(self, agent: _Agent, tool_id: str, conditional: bool, gate: Any = "never") -> None:
        if tool_id.startswith("foreign:"):
            agent.reach.append(tool_id[len("foreign:"):])
            return
        agent.tools.append(tool_id)
        self.tools[tool_id].registrations.append((conditional or agent.entry.conditional, gate))

    def agent_tools(self, agent: _Agent) -> None:
        path, line = agent.entry.path, agent.entry.line
        items = self.p.items(agent.call.kw("tools"))
        if isinstance(items, Dynamic):
            self.result.issues.append(issue(path, line, f"agent '{agent.entry.name}': tools '{items.dynamic}' could not be resolved statically", site=("agent tools", shape(items.dynamic))))
            items = []
        for it in items:
            tid = self.item_tool(it.expr, path, f"agent '{agent.entry.name}'", line)
            if tid:
                self.register(agent, tid, it.conditional)
        toolsets = self.p.items(agent.call.kw("toolsets"))
        if isinstance(toolsets, Dynamic):
            self.result.issues.append(issue(path, line, f"agent '{agent.entry.name}': toolsets '{toolsets.dynamic}' could not be resolved statically", site=("agent toolsets", shape(toolsets.dynamic))))
            toolsets = []
        for it in toolsets:
            for tid, conditional, gate in self.toolset_item(it.expr, path, line):
                self.register(agent, tid, conditional or it.conditional, gate)
        self.provided_tools(agent)
        for method, effect in self.p.effects_by_receiver.get(agent.symbol, []):
            if method in _TOOL_DECORATORS and effect.call.args:
                target = effect.call.args[0]
                d = self.p.lookup(target.name) if isinstance(target, Ref) else None
                if isinstance(d, FunctionFact):
                    self.register(agent, self.function_tool(d, effect.call, _TOOL_DECORATORS[method], effect.conditional), effect.conditional)
        for method, options, effect in self.curried().get(agent.symbol, []):
            target = effect.call.args[0]
            d = self.p.lookup(target.name) if isinstance(target, Ref) else None
            if isinstance(d, FunctionFact):
                self.register(agent, self.function_tool(d, options, _TOOL_DECORATORS[method], effect.conditional), effect.conditional)
            else:
                self.result.issues.append(issue(self.p.path_of(agent.symbol), effect.call.line, f"agent '{agent.entry.name}': {method}(...) applied to "
                                                f"{describe(target)}, which cannot be resolved statically", site=("curried tool", method, shape(target))))

    def curried(self) -> dict[str, list[tuple[str, Call, EffectFact]]]:
        """Receiver symbol -> (method, options, statement) of each decorator called with its options and
        then on a function as a statement: `agent.tool_plain(requires_approval=True)(refund)`."""
        if self._curried is None:
            self._curried = {}
            for _m, effect in self.p.scan("pydantic-ai.curried tools", _curried_tools):
                options = effect.call.func
                receiver, _, method = options.func.name.rpartition(".")  # type: ignore[union-attr]
                self._curried.setdefault(self.p.canonical(receiver), []).append((method, options, effect))  # type: ignore[arg-type]
        return self._curried

    def provided_tools(self, agent: _Agent) -> None:
        """Tools from `capabilities=[WebSearch(), ...]` and `builtin_tools=[WebSearchTool(), ...]`: named as
        PydanticAI names them to the model. A capability that may add tools we cannot name is reported."""
        path, line = agent.entry.path, agent.entry.line
        for kw, table in (("capabilities", _CAPABILITY_TOOLS), ("builtin_tools", _NATIVE_TOOLS)):
            items = self.p.items(agent.call.kw(kw))
            if isinstance(items, Dynamic):
                self.result.issues.append(issue(path, line, f"agent '{agent.entry.name}': {kw} '{items.dynamic}' could not be resolved statically", site=("agent " + kw, shape(items.dynamic))))
                continue
            for it in items:
                value = self.p.value_of(it.expr)
                origin = self.p.origin(value.func) if isinstance(value, Call) else None
                cls = leaf(origin) if origin and origin.startswith("pydantic_ai.") else None
                if isinstance(value, Call) and cls == "NativeTool":  # NativeTool(WebSearchTool())
                    inner = self.p.value_of(value.arg(0, "tool")) if value.arg(0, "tool") is not None else None
                    origin = self.p.origin(inner.func) if isinstance(inner, Call) else None
                    cls, table_here = (leaf(origin) if origin and origin.startswith("pydantic_ai.") else None), _NATIVE_TOOLS
                else:
                    table_here = table
                if isinstance(value, Call) and cls == "Toolset" and kw == "capabilities":
                    for tid, conditional, gate in self.toolset_item(value.arg(0, "toolset") or value, path, line):
                        self.register(agent, tid, conditional or it.conditional, gate)
                    continue
                if cls in _TOOLLESS_CAPABILITIES:
                    continue
                if cls not in table_here:
                    self.result.issues.append(issue(path, line, f"agent '{agent.entry.name}': {kw} item '{describe(it.expr)}' may add tools that are not analysed", site=("agent " + kw + " item", shape(it.expr))))
                    continue
                name, fixed = table_here[cls]
                tid = f"pydantic_ai.{cls}#{name}"
                if tid not in self.tools:
                    entry = Entry(kind="tool", name=name, path=path, line=getattr(value, "line", 0) or line, dialect=NAME, extra={"external": f"pydantic_ai.{cls}"}, **fixed)
                    self.tools[tid] = _Tool(entry, {tid})
                self.register(agent, tid, it.conditional)

    def decorated(self) -> None:
        """`@agent.tool`, `@agent.tool_plain`, `@agent.system_prompt`, `@agent.instructions`."""
        for fn in screened_functions(self.p, "pydantic-ai.decorated", _decorated):
            for dec in fn.decorators:
                func, call = decorator_call(dec, self.p)
                if not isinstance(func, Ref) or "." not in func.name:
                    continue
                receiver, method = func.name.rsplit(".", 1)
                target = self.p.canonical(receiver)
                if target in self.toolsets and method in _TOOL_DECORATORS:
                    self.toolsets[target].decorated.append((fn, call))
                    continue
                agent = self.agents.get(target)
                if agent is None:
                    continue
                if method in _TOOL_DECORATORS:
                    tid = self.function_tool(fn, call, _TOOL_DECORATORS[method], fn.conditional)
                    self.register(agent, tid, fn.conditional)
                elif method in _PROMPT_DECORATORS:
                    agent.prompt_parts.append((self.p.path_of(fn.symbol), fn.line, self.p.function_value(fn)))

    def instructions(self, agent: _Agent) -> str | None:
        parts: list[str | Dynamic] = []
        for kw in ("instructions", "system_prompt"):
            expr = agent.call.kw(kw)
            if expr is None:
                continue
            items = self.p.items(expr) if not isinstance(self.p.evaluate(expr), str) else None
            exprs = [expr] if items is None or isinstance(items, Dynamic) else [i.expr for i in items]
            for e in exprs:
                part = prompt_part(self.p, e)
                if part is not None:
                    parts.append(part)
        parts.extend(text for _, _, text in sorted(agent.prompt_parts, key=lambda t: (t[0], t[1])))
        return instructions_digest([_one_spelling(p) for p in parts])

    # -- result ---------------------------------------------------------------------------------

    def run(self) -> DialectResult:
        self.find_objects()
        self.decorated()
        for agent in self.agents.values():
            self.agent_tools(agent)
        for agent in sorted(self.agents.values(), key=lambda a: a.symbol):
            agent.entry.instructions_sha256 = self.instructions(agent)
            reach = sorted({*agent.tools, *agent.reach})
            self.result.candidates.append(Candidate(agent.entry, {agent.symbol}, reach))
        for tid in sorted(self.tools):
            self.result.candidates.append(self.tools[tid].candidate())
        return self.result


# -- screens (see `base.screened_functions`): pure tests of one item, each a necessary condition of
# what the loop using it goes on to read.


def _is_call_of(p: Program, expr: Expr | None, names: tuple[str, ...]) -> bool:
    return isinstance(expr, Call) and origin_matches(p.origin(expr.func), *names)


def _assigned_object(p: Program, a: AssignFact) -> bool:
    return a.op == "=" and any(_is_call_of(p, a.value, names) for names in (_AGENT, _FUNCTION_TOOLSET, _TOOL))


def _returns_agent_name(p: Program, fn: FunctionFact) -> bool:
    """`return agent` where the name is bound to `Agent(...)`."""
    for r in fn.returns_exprs:
        if isinstance(r, Ref):
            symbol = p.canonical(r.name)
            if symbol.endswith(".<return>") or any(_is_call_of(p, a.value, _AGENT) for a in p.assigned_calls_to(symbol)):
                return True
    return False


def _decorated(p: Program, fn: FunctionFact) -> bool:
    """`@<name>.tool`, `@<name>.system_prompt`, ...: what `decorated` reads, whatever the name is."""
    for dec in fn.decorators:
        func = decorator_call(dec, p)[0]
        if isinstance(func, Ref) and func.name.rpartition(".")[2] in (*_TOOL_DECORATORS, *_PROMPT_DECORATORS) and "." in func.name:
            return True
    return False



def _curried_tools(p: Program, m: ModuleFacts) -> list[EffectFact]:
    """Statements calling a tool decorator with its options, then on a function
    (`agent.tool_plain(requires_approval=True)(refund)`): only effects whose callee is itself a call
    are read (the others' callees are told by the entry without reading them)."""
    out = []
    for e in m.effects:
        if indexed_callee(e) is not None or attribute_callee(e) is not None:
            continue  # a name, a subscript or an attribute: not a call
        func = e.call.func
        if (func.__class__ is Call and e.call.args and func.func.__class__ is Ref  # type: ignore[union-attr]
                and "." in func.func.name and func.func.name.rpartition(".")[2] in _TOOL_DECORATORS):  # type: ignore[union-attr]
            out.append(e)
    return out

def extract(program: Program) -> DialectResult:
    return _Extractor(program).run()
