"""LangChain / LangGraph: `@tool`, `StructuredTool.from_function`, `BaseTool`, `create_agent`,
`create_react_agent`, `HumanInTheLoopMiddleware(interrupt_on=...)` and `interrupt()`.

What is recognised (by import origin: `tool` from `langchain_core.tools` or `langchain.tools`, never
CrewAI's or smolagents' `tool` or a local function of that name; aliases and module imports work):

- Tools: `@tool`, `@tool("name")`, `@tool(description=..., args_schema=..., return_direct=...)`
  (description = `description=` else the docstring), `x = tool(fn)`, `StructuredTool.from_function(
  func=, name=, description=)`, `Tool(name=, func=, description=)` / `Tool.from_function(...)`,
  `BaseTool` subclasses (class attributes `name`/`description`, inherited through classes of the
  repository; signature from `_run`, else `_arun`), a tool a function builds and returns (a tool
  factory: conditional, denoted by the factory too, so publishing it exports the tool and
  `tools=[factory(...)]` reaches it; `from_function` inherited by a repository subclass of
  `StructuredTool` counts as StructuredTool's), and plain functions in an agent's `tools=[...]`
  (LangChain turns callables into tools), and the handoff tools of langgraph_swarm and
  langgraph_supervisor (`create_handoff_tool(agent_name=, name=, description=)`: named
  `transfer_to_<agent>` and described as those libraries default them; no model-visible
  arguments). Injected arguments are not part of the signature:
  `InjectedToolArg`, `InjectedState`, `InjectedStore`, `InjectedToolCallId`, `ToolRuntime`, a
  parameter annotated `RunnableConfig`, and `run_manager` / `callbacks`.
- Agents: `create_agent(model, tools=[...], system_prompt=, middleware=[...], name=)` (langchain v1)
  and `create_react_agent(model, tools, prompt=, name=)` (langgraph.prebuilt), assigned to a
  variable or returned by a factory; name = `name=` if literal, else the variable (or factory) name.
  Roots as for every dialect: public module-level agents, and agents returned by a public
  module-level factory (conditional).
- Approval:
  * `interrupt()` (langgraph.types) called in a tool's body -> `conditional` (the tool decides).
  * `HumanInTheLoopMiddleware(interrupt_on={"tool_name": True | False | {...}})` in `middleware=`:
    True or a config dict -> `always`, a config with a `when` predicate -> `conditional`, False or
    absent -> `never`; the map may be a literal, a module-level dict or a helper function returning
    a literal (`program.evaluate`); keys may also be `some_tool.name`. A map that cannot be known
    (env, parameter) -> Dynamic for every tool of the agent; a Dynamic value -> Dynamic for that tool.
  * `interrupt_before=["tools"]` on either factory -> `always` for all the agent's tools (the graph
    stops before the tools node runs any call). `interrupt_after` is not an approval (the call has
    already run) and `interrupt_before=["model"/"agent"]` gates the model, not the tools: ignored.
  * A middleware class of the repository (subclass of `AgentMiddleware`) whose methods call
    `interrupt()` -> `conditional` for all the agent's tools.
  The agent-level gates patch the TOOL entries (what a tool needs before it runs). A tool used by
  several agents takes the *lowest* approval among them: a reviewer must see the path that runs
  the tool without a human. Tools from other dialects in the list are reached but not patched.
  A key of `interrupt_on` naming none of the agent's tools (all of them resolved) is reported: a
  misspelt key gates nothing.
- deepagents: `create_deep_agent(model, tools, system_prompt=, subagents=, interrupt_on=, backend=,
  middleware=, permissions=, name=)` is an agent as `create_agent` is, `interrupt_on=` its HITL map,
  `permissions=[FilesystemPermission(..., mode="interrupt")]` a conditional gate on the file tools of
  those operations (an `interrupt_on` key wins for its tool, as in deepagents). It reaches the
  tools deepagents gives every deep agent (`ls`, `read_file`, `glob`, `grep` read-only; `write_file`,
  `edit_file`, `delete`, `execute`; `task`), dangerous by its `backend=`: in the agent's state or
  store (the default) none, `FilesystemBackend` the writes (real files), `LocalShellBackend` the
  writes and `execute` (a shell); any other backend is named as their danger (`Dynamic`). Each
  declared subagent (`subagents=[{"name":, "tools":, "interrupt_on":, "model":, "system_prompt":}]`)
  is an agent it reaches, with the deep agent's tools, model and `interrupt_on` unless it sets its
  own; a compiled subagent reaches its `runnable`; a remote one (`graph_id=`) and a spec that cannot
  be read are reported.
- Instructions digest: `system_prompt=` / `prompt=` text (a `SystemMessage(content=...)` counts as
  its content; a function prompt counts as its docstring and return expressions).

- Hand-built graphs (`StateGraph` ... `.compile()`): an agent reaching what its nodes reach: the
  tools of `ToolNode`s, and what node functions (and the repository helpers they call) build or
  invoke: chat models (the graph's `model`; with several, `models` lists each by value), agents and
  compiled graphs, tools (gated only when `interrupt_before` names their node), tools bound to a
  model (`bind_tools`, in the node or on a module-level model the node invokes); an LCEL pipe
  (`prompt | llm | parser`) reaches what each of its parts does.

- The legacy `AgentExecutor(agent=..., tools=[...])` (and `.from_agent_and_tools`): an agent reaching
  its `tools=`, on the model of the classic agent it runs (`create_tool_calling_agent(llm, ...)` and
  the other `create_*_agent(llm, ...)`); its instructions are the system messages of the prompt
  template that agent was built with (`ChatPromptTemplate.from_messages([("system", ...), ...])`).

Not an agent by itself: a model with tools bound (`llm.bind_tools([...])`) that no graph node or agent
invokes (a helper previewing tool calls): it reaches nothing. Not recognised: legacy `initialize_agent`, tool classes from libraries
(`TavilySearch()`: reported as unresolved, their names live in the library), `args_schema` given
as a JSON-schema dict or a model outside the tree (the signature stays the function's),
`interrupt()` reached only through a helper function. An `args_schema` model of the tree joins
the signature's schemas (its fields compared, see receipt.schemas).
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field
from typing import Any

from receipt.dialects._agentkit import GatedTool, builds_root, foreign_tool, instructions_digest, prompt_part, qualified_model, replaces
from receipt.dialects.base import (
    Candidate,
    DialectResult,
    decorator_call,
    digest,
    issue,
    name_expression,
    shape,
    leaf,
    origin_matches,
    screened_assigned_calls,
    screened_classes,
    screened_effects,
    screened_functions,
    tops,
    signature_of,
    split_method,
    stricter,
    given_through_spread,
)
from receipt.extract.facts import PIPE, AssignFact, Call, ClassFact, Const, Dyn, Expr, FunctionFact, Map, Ref, Seq
from receipt.extract.program import Item, Program, describe
from receipt.models import Dynamic, Entry, Signature
from receipt.schemas import with_args_schema

NAME = "langchain"

_TOOL_DECORATOR = ("langchain_core.tools.tool", "langchain.tools.tool")
_SIMPLE_TOOL = ("langchain_core.tools.Tool", "langchain.tools.Tool", "langchain.agents.Tool")
# `StructuredTool.from_function` / `Tool.from_function`, wherever LangChain re-exports them.
_FROM_FUNCTION = tuple(f"{pkg}.tools.{cls}.from_function" for pkg in ("langchain_core", "langchain") for cls in ("StructuredTool", "Tool"))
_BASE_TOOL = ("langchain_core.tools.BaseTool", "langchain.tools.BaseTool")
# LangGraph's multi-agent libraries build a handoff tool from an agent's name: `transfer_to_<agent>`
# (whitespace runs as "_", lower case) unless `name=`, described "Ask agent '<agent>' for help"
# unless `description=`; its arguments are all injected (the graph state, the call id).
_WHITESPACE = re.compile(r"\s+")
_HANDOFF_TOOL = tuple(f"{pkg}{mod}.create_handoff_tool" for pkg in ("langgraph_swarm", "langgraph_supervisor") for mod in ("", ".handoff"))
_TOOL_PACKAGES = ("langchain_core", "langchain")
_CREATE_AGENT = ("langchain.agents.create_agent",)
# deepagents (LangChain's harness on create_agent): `create_deep_agent(model, tools, *, system_prompt=,
# middleware=, subagents=, interrupt_on=, backend=, name=)`.
_DEEP_AGENT = ("deepagents.create_deep_agent", "deepagents.graph.create_deep_agent")
_REACT_AGENT = ("langgraph.prebuilt.create_react_agent",)
# The legacy executor (`langchain_classic`, `langchain.agents` before 1.0): `AgentExecutor(agent=,
# tools=[...])` runs the tools it is given for an agent built by one of the classic factories, all of
# which take the chat model first (`create_tool_calling_agent(llm, tools, prompt)`).
_AGENT_EXECUTOR = ("langchain_classic.agents.AgentExecutor", "langchain.agents.AgentExecutor")
_CLASSIC_AGENT_PACKAGES = ("langchain_classic.agents", "langchain.agents")
_HITL = ("langchain.agents.middleware.HumanInTheLoopMiddleware",)
_MIDDLEWARE_BASE = ("langchain.agents.middleware.AgentMiddleware",)
_INTERRUPT = ("langgraph.types.interrupt",)
_SYSTEM_MESSAGE = ("langchain_core.messages.SystemMessage", "langchain.messages.SystemMessage")
# A classic agent's prompt template (`create_tool_calling_agent(llm, tools, prompt)`): its system
# messages are the agent's instructions (`_Extractor.template_prompt`).
_CHAT_TEMPLATE = ("langchain_core.prompts.ChatPromptTemplate", "langchain.prompts.ChatPromptTemplate")
_TEMPLATE_FROM_MESSAGES = tuple(f"{t}.from_messages" for t in _CHAT_TEMPLATE)
_SINGLE_TEMPLATE = (
    *(f"{t}.from_template" for t in _CHAT_TEMPLATE),
    "langchain_core.prompts.PromptTemplate.from_template", "langchain.prompts.PromptTemplate.from_template",
    "langchain_core.prompts.PromptTemplate", "langchain.prompts.PromptTemplate",
)
_SYSTEM_TEMPLATE = (
    "langchain_core.prompts.SystemMessagePromptTemplate.from_template",
    "langchain.prompts.SystemMessagePromptTemplate.from_template",
)
# Messages of `from_messages([...])` that are the run's input, not instructions; any other call
# (a helper, a template read from a file) may be a system message and is dynamic.
_NOT_SYSTEM_MESSAGE = (
    *(f"{pkg}.messages.{m}" for pkg in ("langchain_core", "langchain") for m in ("HumanMessage", "AIMessage", "ToolMessage")),
    *(
        f"{pkg}.prompts.{m}{how}"
        for pkg in ("langchain_core", "langchain")
        for m in ("HumanMessagePromptTemplate", "AIMessagePromptTemplate")
        for how in ("", ".from_template")
    ),
    "langchain_core.prompts.MessagesPlaceholder", "langchain.prompts.MessagesPlaceholder",
)
# Bound on `.partial` chains and references followed by `_Extractor.template_prompt`.
_TEMPLATE_DEPTH = 24
# How a template spells its placeholders (`template_format=`): what `.partial(name=...)` fills.
_TEMPLATE_FORMATS = ("f-string", "jinja2", "mustache")
_LITERAL = "literal"  # a message given as a `SystemMessage`: its text is never formatted
_TEMPLATE_TAG = re.compile(r"\{\{(.*?)\}\}|\{%(.*?)%\}", re.S)
_IDENTIFIER = re.compile(r"(?<![.\w])[A-Za-z_]\w*")
_NOT_ARGUMENTS = frozenset({"run_manager", "callbacks"})
_MIDDLEWARE_PACKAGE = "langchain.agents.middleware"
# Built-in middleware that gives the agent tools (langchain/agents/middleware/*: `self.tools = [...]`):
# class -> (tool name, the keyword that renames it or None, fixed attributes). Every other built-in
# middleware adds none; middleware from another library may, and is reported.
_MIDDLEWARE_TOOLS: dict[str, tuple[tuple[str, str | None, dict[str, Any]], ...]] = {
    "ShellToolMiddleware": (("shell", "tool_name", {"dangerous": True}),),
    "FilesystemFileSearchMiddleware": (("glob_search", None, {"read_only": True}), ("grep_search", None, {"read_only": True})),
    "TodoListMiddleware": (("write_todos", None, {}),),
}
# The tools every deep agent is given (deepagents 0.7 graph.py: FilesystemMiddleware, SubAgentMiddleware),
# by what they touch: "read" (the backend's files, read), "write" (changed), "execute" (a shell
# command), "delegate" (a subagent).
_DEEP_AGENT_TOOLS: tuple[tuple[str, str], ...] = (
    ("ls", "read"), ("read_file", "read"), ("write_file", "write"), ("edit_file", "write"), ("delete", "write"),
    ("glob", "read"), ("grep", "read"), ("execute", "execute"), ("task", "delegate"),
)
# What a `backend=` reaches (deepagents.backends), by class name. Absent, the files live in the
# agent's state (StateBackend). Only a shell backend runs `execute`; the others answer it with an
# error. Any other backend (a sandbox, a composite, a factory, a parameter) is not known: its write
# and execute tools are dangerous by whatever it is, named (`Dynamic`).
_DEEP_BACKENDS: dict[str, frozenset[str]] = {
    "StateBackend": frozenset(),
    "StoreBackend": frozenset(),
    "FilesystemBackend": frozenset({"write"}),
    "LocalShellBackend": frozenset({"write", "execute"}),
}
# Runnable methods that wrap an agent in another Runnable running the same graph with the same tools.
_RUNNABLE_WRAPPERS = frozenset({"with_config", "with_retry", "with_fallbacks", "with_listeners", "with_alisteners", "with_types", "bind"})
_STATE_GRAPH = ("langgraph.graph.StateGraph", "langgraph.graph.state.StateGraph")
_TOOL_NODE = ("langgraph.prebuilt.ToolNode", "langgraph.prebuilt.tool_node.ToolNode")
_PARTIAL = ("functools.partial",)
_INIT_CHAT_MODEL = ("langchain.chat_models.init_chat_model", "langchain.chat_models.base.init_chat_model")
# Chat model integrations: `Chat*` / `AzureChat*` classes of a provider package (`langchain_openai`,
# `langchain_anthropic`, ...) or of `langchain_community.chat_models`. langchain_core's `Chat*` names
# are prompts, messages and histories, never models.
_NOT_MODEL_PACKAGES = ("langchain_core", "langchain_text_splitters", "langchain")
# Methods of a chat model that return the same model configured differently (what a node invokes).
_MODEL_WRAPPERS = _RUNNABLE_WRAPPERS | {"bind_tools", "with_structured_output"}
_NODE_DEPTH = 4  # repository helpers a node function calls, followed this deep


def tool_signature(fn: FunctionFact) -> Signature:
    """LangChain's schema: injected arguments, a RunnableConfig and callback plumbing are not arguments."""
    drop = {p.name for p in fn.params if p.name in _NOT_ARGUMENTS or "RunnableConfig" in (p.annotation or "")}
    return signature_of(fn, drop_names=drop)


@dataclass
class _Agent:
    symbol: str
    entry: Entry
    call: Call
    react: bool
    tools: list[str] = field(default_factory=list)
    reach: list[str] = field(default_factory=list)
    aliases: set[str] = field(default_factory=set)  # `x.with_config(...)` and the like denote the same agent
    tool_items: list[Item] | None = None  # a hand-built graph: the tools of its ToolNodes
    nodes: list[tuple[str | None, Item]] | None = None  # a hand-built graph: (node name, what `add_node` / `add_sequence` were given)
    # Tools a graph's node functions run (node name, tool, False) or offer to a model through
    # `bind_tools` (None, tool, True: whichever node executes the model's calls runs them).
    direct_tools: list[tuple[str | None, Item, bool]] = field(default_factory=list)
    deep: bool = False  # create_deep_agent, or one of its declared subagents
    subagent: bool = False  # one of a deep agent's `subagents=`
    resolved: bool = True  # every tool it is given was read (`agent_tools`)
    gate_maps: list[dict[str, Any] | Dynamic] = field(default_factory=list)  # its HITL maps (`agent_gates`), kept by `agent_tools`


def _placeholders(text: str, fmt: str) -> frozenset[str] | None:
    """The variables a template text of format `fmt` reads (what `.partial` can fill), by their
    top-level name; None when the text cannot be read in that format (LangChain would refuse it:
    whatever a partial names may be read)."""
    if fmt == _LITERAL:
        return frozenset()
    if fmt == "f-string":
        names: set[str] = set()
        pending = [text]
        try:
            while pending:
                for _lit, field_name, spec, _conv in string.Formatter().parse(pending.pop()):
                    if field_name is not None:
                        names.add(re.split(r"[.\[]", field_name, maxsplit=1)[0])
                    if spec and "{" in spec:  # `{x:{width}}`: a nested field
                        pending.append(spec)
        except ValueError:
            return None
        return frozenset(names)
    # A mustache set-delimiter tag (`{{=<% %>=}}`) makes the rest of the text use other tags, which
    # the default ones below would not see: the text cannot be read (whatever a partial names may be).
    if fmt == "mustache" and re.search(r"\{\{\s*=", text):
        return None
    # jinja2 and mustache: the names used inside `{{ ... }}` (and jinja's `{% ... %}`), not after a dot
    # (`{{ user.name }}` reads `user`). A mustache comment `{{! ... }}` reads nothing.
    found: set[str] = set()
    for expr, stmt in _TEMPLATE_TAG.findall(text):
        body = expr if expr else stmt
        if fmt == "mustache" and body.lstrip("{").lstrip().startswith("!"):
            continue
        found.update(_IDENTIFIER.findall(body))
    return frozenset(found)


def _fills(system: list[tuple[str | Dynamic, str]], name: str) -> bool:
    """True when a value `.partial(name=...)` gives may be read by one of the system texts."""
    for text, fmt in system:
        if isinstance(text, Dynamic):
            return True
        names = _placeholders(text, fmt)
        if names is None or name in names:
            return True
    return False


class _Extractor:
    def __init__(self, program: Program):
        self.p = program
        self.result = DialectResult()
        self.tools: dict[str, GatedTool] = {}
        self.factories: dict[str, str] = {}  # a tool factory's symbol -> the tool it returns (`returned_tools`)
        self.agents: dict[str, _Agent] = {}

    # -- helpers --------------------------------------------------------------------------------

    def origin(self, expr: Expr | None) -> str | None:
        return self.p.origin(expr.func if isinstance(expr, Call) else expr)

    def calls_interrupt(self, fn: FunctionFact) -> bool:
        return any(origin_matches(self.p.origin(c.func), *_INTERRUPT) for c in fn.calls)

    def add(self, tid: str, entry: Entry, symbols: set[str], fn: FunctionFact | None, conditional: bool) -> str:
        tool = GatedTool(entry, symbols, def_conditional=conditional)
        if fn is not None and self.calls_interrupt(fn):
            tool.approval = "conditional"
        self.tools[tid] = tool
        return tid

    def function_entry(self, fn: FunctionFact | None, name: Any, description: Any, path: str, line: int, fallback: str,
                       name_src: Expr | None = None) -> Entry:
        if name is not None and not isinstance(name, str):
            self.result.issues.append(issue(path, line, f"tool name '{describe_value(name)}' is not a literal; using '{fallback}'", site=("tool name", shape(name_src if name_src is not None else describe_value(name)))))
        return Entry(
            kind="tool",
            name=name if isinstance(name, str) and name else fallback,
            name_expr=name_expression(self.p, name_src) if name is not None else None,
            path=path,
            line=line,
            dialect=NAME,
            signature=tool_signature(fn) if fn is not None else None,
            description_sha256=digest(description if description is not None else (fn.doc if fn else None)),
        )

    # -- tool declarations ----------------------------------------------------------------------

    def decorated_tools(self) -> None:
        for fn in screened_functions(self.p, "langchain.decorated tools", _decorated_tool, _TOOL_DECORATOR_TOPS):
            for dec in fn.decorators:
                func, call = decorator_call(dec, self.p)
                if not origin_matches(self.p.origin(func), *_TOOL_DECORATOR):
                    continue
                name_src = call.arg(0, "name_or_callable") if call is not None else None
                name = self.p.evaluate(name_src)
                description = self.p.text(call.kw("description")) if call is not None else None
                entry = self.function_entry(fn, name, description, self.p.path_of(fn.symbol), fn.line, fn.name, name_src)
                entry.signature = with_args_schema(self.p, entry.signature, call.kw("args_schema") if call else None)
                self.add(fn.symbol, entry, {fn.symbol}, fn, fn.conditional)
                break

    def tool_call(self, call: Call, tid: str, path: str, conditional: bool) -> str | None:
        """`tool(fn)`, `StructuredTool.from_function(...)`, `Tool(name=, func=, description=)`."""
        if tid in self.tools:
            return tid
        origin = _tool_origin(self.p, call.func)
        if origin_matches(origin, *_TOOL_DECORATOR):
            first = call.arg(0, "name_or_callable")
            name_src: Expr | None = None
            if isinstance(first, Const) and isinstance(first.value, str):
                func, name = call.arg(1, "runnable"), first.value
            else:
                func, name = first, None
            description = self.p.text(call.kw("description"))
        elif origin_matches(origin, *_FROM_FUNCTION):
            func, name_src = call.arg(0, "func"), call.arg(2, "name")
            description = self.p.text(call.arg(3, "description"))
            if "StructuredTool" not in (origin or ""):  # Tool.from_function(func, name, description)
                name_src, description = call.arg(1, "name"), self.p.text(call.arg(2, "description"))
            name = self.p.evaluate(name_src)
        elif origin_matches(origin, *_HANDOFF_TOOL):
            return self.handoff_tool(call, tid, path, conditional)
        elif origin_matches(origin, *_SIMPLE_TOOL):
            func, name_src = call.arg(1, "func"), call.arg(0, "name")
            name = self.p.evaluate(name_src)
            description = self.p.text(call.arg(2, "description"))
        else:
            return None
        if func is None and origin_matches(origin, *_FROM_FUNCTION):
            func = call.arg(1, "coroutine")
        if func is None:
            return None  # `tool("name")` alone is a decorator, not a tool
        fn = self.p.lookup(func.name) if isinstance(func, Ref) else None
        fn = fn if isinstance(fn, FunctionFact) else None
        fallback = fn.name if fn else describe(func) if func is not None else "tool"
        entry = self.function_entry(fn, name, description, path, call.line, fallback, name_src)
        entry.signature = with_args_schema(self.p, entry.signature, call.kw("args_schema"))
        return self.add(tid, entry, {tid}, fn, conditional)

    def handoff_tool(self, call: Call, tid: str, path: str, conditional: bool) -> str:
        """`create_handoff_tool(agent_name=..., name=..., description=...)` (see `_HANDOFF_TOOL`)."""
        agent = self.p.evaluate(call.kw("agent_name"))
        name_src = call.kw("name")
        name: Any = self.p.evaluate(name_src) if name_src is not None else None
        if name is None:
            name_src = call.kw("agent_name")
            name = f"transfer_to_{_WHITESPACE.sub('_', agent.strip()).lower()}" if isinstance(agent, str) else agent
        described = call.kw("description")
        description = self.p.text(described) if described is not None else f"Ask agent '{agent}' for help" if isinstance(agent, str) else describe(call)
        entry = self.function_entry(None, name, description, path, call.line, "transfer_to_agent", name_src)
        entry.signature = Signature()
        return self.add(tid, entry, {tid}, None, conditional)

    def assigned_tools(self) -> None:
        for a in screened_assigned_calls(self.p, "langchain.assigned tools", _assigned_tool, _ASSIGNED_TOOL_TOPS):
            if a.op == "=" and isinstance(a.value, Call):
                self.tool_call(a.value, a.target, self.p.path_of(a.target), a.conditional)

    def returned_tools(self) -> None:
        """A tool a function builds and returns: a tool factory (LangMem's
        `create_search_memory_tool(...)` returns `StructuredTool.from_function(...)`). The tool is
        made only when a caller calls the factory: conditional, and denoted by the factory's symbol
        as well, so a package that publishes the factory exports it (link.py `published`), and an
        agent listing `tools=[factory(...)]` reaches it (`item_tool`)."""
        # Every module's functions: a return is not among the callees `Program.calls_into` knows.
        for fn in screened_functions(self.p, "langchain.returned tools", _returns_tool):
            path = self.p.path_of(fn.symbol)
            for ret in fn.returns_exprs:
                tid: str | None = None
                if isinstance(ret, Call):
                    tid = self.tool_call(ret, f"{fn.symbol}.<return>", path, True)
                elif isinstance(ret, Ref) and ret.name.startswith(fn.symbol + ".<locals>.") and ret.name in self.tools:
                    tid = ret.name  # `@tool def inner(...)` ... `return inner`
                if tid is not None:
                    tool = self.tools[tid]
                    tool.symbols.add(fn.symbol)
                    tool.def_conditional = True
                    self.factories.setdefault(fn.symbol, tid)

    def class_attr(self, cls: ClassFact, attr: str, depth: int = 0) -> Expr | None:
        if attr in cls.attrs:
            return cls.attrs[attr]
        for base in cls.bases:
            parent = self.p.classes.get(self.p.origin(base) or "")
            if parent is not None and depth < 16:
                found = self.class_attr(parent, attr, depth + 1)
                if found is not None:
                    return found
        return None

    def class_tools(self) -> None:
        for cls in screened_classes(self.p, "langchain.tool classes", _tool_class):
            if not any(origin_matches(b, *_BASE_TOOL) for b in self.p.class_bases(cls)):
                continue
            name_expr = self.class_attr(cls, "name")
            if name_expr is None:
                continue  # an abstract base of the repository's own tools
            methods = {m.rsplit(".", 1)[-1]: self.p.functions[m] for m in cls.methods if m in self.p.functions}
            run = methods.get("_run") or methods.get("_arun")
            path = self.p.path_of(cls.symbol)
            entry = self.function_entry(None, self.p.evaluate(name_expr), self.p.text(self.class_attr(cls, "description")), path, cls.line, cls.name, name_expr)
            entry.signature = with_args_schema(self.p, tool_signature(run) if run is not None else None, self.class_attr(cls, "args_schema"))
            tid = self.add(cls.symbol, entry, {cls.symbol}, None, cls.conditional)
            if any(self.calls_interrupt(m) for m in methods.values()):
                self.tools[tid].approval = "conditional"

    def library_object(self, d: Any) -> bool:
        """A variable holding an object built by a library (`TavilySearch()`): not resolvable here."""
        if not isinstance(d, AssignFact) or not isinstance(d.value, Call):
            return False
        origin = self.p.origin(d.value.func)
        return origin is not None and self.p.is_external(origin)

    def item_tool(self, expr: Expr, path: str, agent: str, line: int) -> str | None:
        """One element of `tools=[...]`: a tool id, "foreign:<symbol>", or None (reported)."""
        if isinstance(expr, Ref):
            symbol = self.p.canonical(expr.name)
            if symbol in self.tools:
                return symbol
            d = self.p.lookup(symbol)
            if isinstance(d, FunctionFact):
                if foreign_tool(self.p, d):
                    return "foreign:" + symbol
                entry = self.function_entry(d, None, None, self.p.path_of(d.symbol), d.line, d.name)
                return self.add(d.symbol, entry, {d.symbol}, d, d.conditional)
            if isinstance(d, AssignFact) and isinstance(d.value, Call):
                found = self.tool_call(d.value, symbol, self.p.path_of(symbol), d.conditional)
                if found:
                    return found
            if d is not None and not self.p.is_external(symbol) and not self.library_object(d):
                return "foreign:" + symbol  # another dialect's tool: the linker resolves it
            if self.library_object(d):
                held = describe(d.value)  # type: ignore[union-attr]
                self.result.issues.append(issue(path, line, f"agent '{agent}': tool '{describe(expr)}' = {held} comes from a library and could not be resolved statically", site=("library tool", shape(expr), shape(held))))
                return None
        elif isinstance(expr, Call):
            cls = self.p.origin(expr.func)
            if cls in self.tools:  # an instance of a BaseTool subclass of the repository
                return cls
            found = self.tool_call(expr, f"{path}:{expr.line}:{describe(expr)}", path, False)
            if found:
                return found
            if cls in self.factories:  # a tool factory of the repository, called (`returned_tools`)
                return self.factories[cls]
            if cls in self.p.classes:
                return "foreign:" + cls
        self.result.issues.append(issue(path, line, f"agent '{agent}': tool '{describe(expr)}' could not be resolved statically", site=("agent tool", shape(expr))))
        return None

    # -- agents ---------------------------------------------------------------------------------

    @staticmethod
    def unwrap(expr: Expr | None) -> Expr | None:
        """`create_agent(...).with_config(...)` (or `.with_retry()`, ...) -> `create_agent(...)`;
        `agent.with_config(...)` -> `agent`."""
        while isinstance(expr, Call):
            receiver, method = split_method(expr.func)
            if method not in _RUNNABLE_WRAPPERS or receiver is None:
                break
            expr = receiver
        return expr

    def kind_of(self, expr: Expr | None) -> bool | None:
        """True for create_react_agent, False for create_agent, None for anything else."""
        return _agent_kind(self.p, expr)

    @staticmethod
    def executor(origin: str | None) -> bool:
        """`AgentExecutor(...)` or `AgentExecutor.from_agent_and_tools(...)`."""
        return origin_matches(origin, *_AGENT_EXECUTOR) or origin_matches(origin, *(f"{e}.from_agent_and_tools" for e in _AGENT_EXECUTOR))

    def executor_model(self, call: Call) -> str | Dynamic | None:
        """The chat model of the classic agent an `AgentExecutor` runs (`agent=create_..._agent(llm, ...)`).
        Any other agent (a parameter, a factory of the repository's, a custom class) has a model
        this cannot see: dynamic, never "no model" (an executor has no default model)."""
        given = call.arg(0, "agent")
        if given is None:
            return None
        agent = self.p.value_of(given)
        if not isinstance(agent, Call) or not self.classic_factory(agent):
            return Dynamic(dynamic=describe(agent if agent is not None else given))
        return qualified_model(self.p, agent.arg(0, "llm"))

    def add_agent(self, symbol: str, call: Call, react: bool, conditional: bool, hint: str, path: str, graph: bool = False) -> None:
        known = self.agents.get(symbol)
        if known is not None and _runs_alike(known.call, call):
            # `if fast_api: graph = b.compile(checkpointer=m) else: graph = b.compile()`: one agent
            # either way (where its state is kept is no part of what it can do), said once.
            known.entry.conditional = known.entry.conditional and conditional
            return
        if not replaces(known, conditional, self.result, path, call.line):
            return
        given = self._renamed(symbol, call) or call.kw("name")
        name = self.p.evaluate(given)
        entry = Entry(
            kind="agent",
            name=name if isinstance(name, str) and name else hint,
            name_expr=name_expression(self.p, given),
            path=path,
            line=call.line,
            dialect=NAME,
            conditional=conditional,
            root=builds_root(self.p, symbol),
            # A compiled graph's first argument is its checkpointer: its models are its nodes' (graph_reach).
            model=None if graph else (self.executor_model(call) if self.executor(self.p.origin(call.func)) else qualified_model(self.p, call.arg(0, "model"))),
        )
        self.agents[symbol] = _Agent(symbol, entry, call, react, deep=origin_matches(self.p.origin(call.func), *_DEEP_AGENT))

    def _renamed(self, symbol: str, call: Call) -> Expr | None:
        """`graph = builder.compile(); graph.name = "ReAct Agent"`: the name set on the agent's variable
        after it is built, the same as `compile(name="ReAct Agent")` (one unconditional assignment;
        a name set under a condition, or several, leaves the agent as it was built)."""
        written = [a for a in self.p.assigns.get(f"{symbol}.name", ()) if a.op == "=" and a.line > call.line]
        return written[0].value if len(written) == 1 and not written[0].conditional else None

    def find_agents(self) -> None:
        self.find_graphs()
        for a in screened_assigned_calls(self.p, "langchain.agents", _assigned_agent, _AGENT_TOPS):
            react = self.kind_of(a.value) if a.op == "=" else None
            if react is not None:
                self.add_agent(a.target, self.unwrap(a.value), react, a.conditional, a.target.rsplit(".", 1)[-1], self.p.path_of(a.target))  # type: ignore[arg-type]
        for a in screened_assigned_calls(self.p, "langchain.wrapped", _wrapped_name):  # `served = agent.with_config(...)`: the same agent
            inner = self.unwrap(a.value) if a.op == "=" and isinstance(a.value, Call) else None
            if isinstance(inner, Ref) and inner is not a.value:
                target = self.agents.get(self.p.canonical(inner.name))
                if target is not None and a.target not in self.agents:
                    target.aliases.add(a.target)
                    target.entry.root = target.entry.root or builds_root(self.p, a.target)
        for fn in screened_functions(self.p, "langchain.returned agents", _returns_agent_or_name):
            for ret in fn.returns_exprs:
                react = self.kind_of(ret)
                inner = self.unwrap(ret)
                if react is not None:
                    sym = f"{fn.symbol}.<return>"
                    self.add_agent(sym, inner, react, True, fn.name, self.p.path_of(fn.symbol))  # type: ignore[arg-type]
                    self.agents[sym].entry.root = builds_root(self.p, fn.symbol)
                elif isinstance(inner, Ref) and self.p.canonical(inner.name) in self.agents and builds_root(self.p, fn.symbol):
                    self.agents[self.p.canonical(inner.name)].entry.root = True

    def find_graphs(self) -> None:
        """A hand-built LangGraph: `b = StateGraph(...)`, `b.add_node(...)` / `b.add_sequence([...])`,
        `graph = b.compile(...)`. The compiled graph is an agent; its nodes are what it reaches:
        a `ToolNode`'s tools directly, a node function through what it calls (`graph_reach`), a
        node that is an agent or another compiled graph as that agent. `compile(interrupt_before=
        ["tools"])` gates the tools as for the prebuilt agents."""
        p = self.p
        builders = {a.target for a in screened_assigned_calls(p, "langchain.graph builders", _graph_builder, tops(_STATE_GRAPH))}
        if not builders:
            return
        tools: dict[str, list[Item]] = {b: [] for b in builders}
        nodes: dict[str, list[tuple[str | None, Item]]] = {b: [] for b in builders}
        for m, e in screened_effects(p, "langchain.graph nodes", _adds_node):
            receiver, method = split_method(e.call.func)
            if method not in ("add_node", "add_sequence") or not isinstance(receiver, Ref) or p.canonical(receiver.name) not in builders:
                continue
            builder = p.canonical(receiver.name)
            if method == "add_node":  # add_node(action) or add_node(name, action)
                action = e.call.arg(1, "action")
                given = [[a for a in (e.call.arg(0, "node"), action, e.call.kw("error_handler")) if a is not None]]
                if action is not None:
                    given[0][0] = Const(p.evaluate(given[0][0]) if isinstance(p.evaluate(given[0][0]), str) else None)
            else:  # add_sequence([f, ("name", g), ...])
                listed = p.items(e.call.arg(0, "nodes"))
                if isinstance(listed, Dynamic):
                    self.result.issues.append(issue(m.path, e.call.line, f"graph nodes '{listed.dynamic}' could not be resolved statically", site=("graph nodes", shape(listed.dynamic))))
                    continue
                given = [list(v.items) if isinstance(v := p.value_of(i.expr), Seq) else [i.expr] for i in listed]
            for node_args in given:
                named = p.evaluate(node_args[0]) if node_args else None
                fallback = leaf(node_args[0].name) if node_args and isinstance(node_args[0], Ref) else None
                self.graph_node(builder, named if isinstance(named, str) else fallback, node_args, e.conditional, m.path, e.call.line, tools, nodes)

        def compiled(expr: Expr | None) -> tuple[Call, str] | None:
            if not isinstance(expr, Call):
                return None
            receiver, method = split_method(expr.func)
            if method == "compile" and isinstance(receiver, Ref) and p.canonical(receiver.name) in builders:
                return expr, p.canonical(receiver.name)
            return None

        for a in screened_assigned_calls(p, "langchain.compiled", lambda _p, a: a.op == "=" and _compiles(a.value)):
            found = compiled(self.unwrap(a.value)) if a.op == "=" else None
            if found is not None:
                self.add_agent(a.target, found[0], True, a.conditional, a.target.rsplit(".", 1)[-1], p.path_of(a.target), graph=True)
                self.agents[a.target].tool_items = tools[found[1]]
                self.agents[a.target].nodes = nodes[found[1]]
        for fn in screened_functions(p, "langchain.returned compiled", lambda _p, fn: any(_compiles(r) for r in fn.returns_exprs)):
            for ret in fn.returns_exprs:
                found = compiled(self.unwrap(ret))
                if found is not None:
                    sym = f"{fn.symbol}.<return>"
                    self.add_agent(sym, found[0], True, True, fn.name, p.path_of(fn.symbol), graph=True)
                    self.agents[sym].entry.root = builds_root(p, fn.symbol)
                    self.agents[sym].tool_items = tools[found[1]]
                    self.agents[sym].nodes = nodes[found[1]]

    def graph_node(self, builder: str, name: str | None, args: list[Expr], conditional: bool, path: str, line: int,
                   tools: dict[str, list[Item]], nodes: dict[str, list[tuple[str | None, Item]]]) -> None:
        """One `add_node(name, action)` (or `add_node(action)`, a sequence element): a `ToolNode`'s
        tools join the graph's tools, anything else is read later by `graph_reach`."""
        expanded: list[Expr] = []
        for arg in args:
            looped = self.p.iterated(arg.name, line) if isinstance(arg, Ref) else None
            if isinstance(looped, Dynamic):
                self.result.issues.append(issue(path, line, f"graph node '{leaf(arg.name)}' taken from '{looped.dynamic}' could not be resolved statically", site=("graph node", shape(looped.dynamic))))  # type: ignore[union-attr]
            elif looped is not None:  # `for name, node in NODES: add_node(name, node)`: every node it takes
                expanded.extend(i.expr for i in looped)
            else:
                expanded.append(arg)
        for arg in expanded:
            node = self.p.value_of(arg)
            if isinstance(node, Const):
                continue  # the node's name
            if isinstance(node, Call) and origin_matches(self.p.origin(node.func), *_TOOL_NODE):
                got = self.p.items(node.arg(0, "tools"))
                if isinstance(got, Dynamic):
                    self.result.issues.append(issue(path, line, f"ToolNode tools '{got.dynamic}' could not be resolved statically", site=("ToolNode tools", shape(got.dynamic))))
                    continue
                tools[builder].extend(Item(i.expr, i.conditional or conditional) for i in got)
            else:
                nodes[builder].append((name, Item(arg, conditional)))

    # -- what a graph's nodes reach -------------------------------------------------------------

    def chat_model(self, call: Call) -> bool:
        """A chat model built here: `ChatOpenAI(...)`, `init_chat_model(...)` (see _NOT_MODEL_PACKAGES)."""
        origin = self.p.origin(call.func)
        if origin_matches(origin, *_INIT_CHAT_MODEL):
            return True
        if not origin or not self.p.is_external(origin) or "." not in origin:
            return False
        package, name = origin.split(".", 1)[0], leaf(origin)
        if not package.startswith("langchain_") or package in _NOT_MODEL_PACKAGES:
            return False
        if package == "langchain_community" and ".chat_models" not in origin:
            return False
        return name.startswith(("Chat", "AzureChat")) and name[name.index("Chat") + 4 : name.index("Chat") + 5].isupper()

    def node_values(self, expr: Expr | None, _depth: int = 0, _seen: frozenset[str] = frozenset()) -> list[tuple[str, Any]]:
        """What a name used by a node holds: ("model", id), ("agent", symbol), ("tool", id); a pipe
        (`prompt | llm | parser`) holds what each of its parts holds. Configuring a model
        (`llm.bind_tools(...)`, `.with_structured_output(...)`) keeps it the model; `bind_tools` also
        hands it tools (returned by `bound_tools`)."""
        for _ in range(_NODE_DEPTH * 2):
            if isinstance(expr, Ref):
                symbol = self.p.canonical(expr.name)
                if symbol in self.agents:
                    return [("agent", symbol)]
                if symbol in self.tools:
                    return [("tool", symbol)]
                bound = [d.value for d in self.p.assigns.get(symbol, ()) if d.op == "="]
                if len(bound) > 1:  # `if ...: model = a else: model = b`, `llm = llm.bind_tools(...)`: any of them
                    if symbol in _seen or _depth > _NODE_DEPTH * 4:
                        return []
                    return [found for v in bound for found in self.node_values(v, _depth + 1, _seen | {symbol})]
                value = self.p.value_of(expr)
                if value is expr or value is None:
                    return []
                expr = value
                continue
            if not isinstance(expr, Call):
                return []
            if isinstance(expr.func, Ref) and expr.func.name == PIPE:
                if _depth > _NODE_DEPTH * 4:
                    return []
                return [found for part in expr.args for found in self.node_values(part, _depth + 1, _seen)]
            built = f"{self.p.origin(expr.func)}.<return>"  # an agent factory of the repository, called
            if built in self.agents:
                return [("agent", built)]
            if self.chat_model(expr):
                return [("model", qualified_model(self.p, expr))]
            receiver, method = split_method(expr.func)
            if method not in _MODEL_WRAPPERS or receiver is None:
                return []
            expr = receiver
        return []

    def bound_tools(self, call: Call) -> list[Item]:
        """`llm.bind_tools([a, b])` anywhere in a receiver chain: the tools the model is offered."""
        out: list[Item] = []
        expr: Expr | None = call
        for _ in range(_NODE_DEPTH * 2):
            if not isinstance(expr, Call):
                break
            receiver, method = split_method(expr.func)
            if method == "bind_tools":
                got = self.p.items(expr.arg(0, "tools"))
                if isinstance(got, Dynamic):
                    return [Item(Dyn(got.dynamic, "expression"))]
                out.extend(got)
            expr = receiver
            if isinstance(expr, Ref) and self.p.canonical(expr.name) not in self.agents:
                expr = self.p.value_of(expr)
        return out

    def graph_reach(self, agent: _Agent) -> None:
        """Models, agents and tools a hand-built graph reaches through its nodes: a node function and
        the repository functions it calls (to _NODE_DEPTH) are read for chat models they build or
        invoke, agents or compiled graphs they invoke, tools they invoke or bind to a model. A node
        that is an agent is reached as that agent. A node that cannot be read is reported."""
        p, path, line = self.p, agent.entry.path, agent.entry.line
        models: list[str | Dynamic] = []

        def use(found: list[tuple[str, Any]], node: str | None, conditional: bool) -> bool:
            for kind, value in found:
                if kind == "model":
                    models.append(value)
                elif kind == "agent":
                    if value != agent.symbol:
                        agent.reach.append(value)
                else:
                    agent.direct_tools.append((node, Item(Ref(value), conditional), False))
            return bool(found)

        def read(fn: FunctionFact, node: str | None, conditional: bool, depth: int, seen: set[str]) -> None:
            if fn.symbol in seen or depth > _NODE_DEPTH:
                return
            seen.add(fn.symbol)
            for call in fn.calls:
                if self.chat_model(call):
                    models.append(qualified_model(p, call))
                    continue
                agent.direct_tools.extend((None, Item(i.expr, conditional), True) for i in self.bound_tools(call))
                origin = p.origin(call.func)
                if origin in p.functions:
                    read(p.functions[origin], node, conditional, depth + 1, seen)
                    continue
                receiver, method = split_method(call.func)
                if receiver is not None and method is not None:
                    use(self.node_values(receiver), node, conditional)

        for name, node in agent.nodes or ():
            target = p.value_of(node.expr)
            if isinstance(target, Call) and origin_matches(p.origin(target.func), *_PARTIAL):  # partial(fn, agent=x)
                parts = [*target.args, *(v for _, v in target.kwargs)]
            else:
                parts = [node.expr]
            for i, part in enumerate(parts):
                fn = p.lookup(part.name) if isinstance(part, Ref) else None
                if isinstance(fn, FunctionFact):
                    read(fn, name, node.conditional, 0, set())
                elif not use(self.node_values(part), name, node.conditional) and i == 0:
                    self.result.issues.append(issue(path, line, f"graph '{agent.entry.name}': node '{describe(part)}' could not be resolved statically; what it reaches is not in the surface", site=("graph node", shape(part))))
        if models:
            texts = sorted({m.dynamic if isinstance(m, Dynamic) else m for m in models})
            joined = ", ".join(texts)
            agent.entry.model = Dynamic(dynamic=joined) if any(isinstance(m, Dynamic) for m in models) else joined
            # Each model by value too, so a node moving to a model of its own reads as the graph now
            # also using it, not as every model of the graph changing (Entry puts them in normal form).
            agent.entry.models = models

    def prompt(self, agent: _Agent) -> str | None:
        if self.executor(self.p.origin(agent.call.func)):
            return instructions_digest(self.executor_prompt(agent.call))
        keys = ("prompt", "state_modifier", "messages_modifier") if agent.react else ("system_prompt",)
        parts: list[str | Dynamic] = []
        for key in keys:
            expr = agent.call.kw(key)
            if expr is None:
                continue
            value = self.p.value_of(expr)  # a prompt function is a reference, never a SystemMessage call
            if isinstance(value, Call) and origin_matches(self.p.origin(value.func), *_SYSTEM_MESSAGE):
                content = self.p.text(value.arg(0, "content"))
                parts.append(content if isinstance(content, (str, Dynamic)) else Dynamic(dynamic=describe(value)))
            else:
                part = prompt_part(self.p, expr)
                if part is not None:
                    parts.append(part)
        return instructions_digest(parts)

    def executor_prompt(self, call: Call) -> list[str | Dynamic]:
        """The instructions of the classic agent an `AgentExecutor` runs: the system messages of the
        prompt template it was built with (`create_*_agent(llm, tools, prompt)`, in place or returned
        by a factory of the repository given the template). An agent this cannot see (a parameter, a
        custom class) has instructions set at run time."""
        given = call.arg(0, "agent")
        if given is None:
            # `AgentExecutor(**kw)`: the agent, so its prompt, is given at run time.
            return [Dynamic(dynamic=self.p.render(call))] if call.star else []
        made = self.classic_agent(self.p.value_of(given))
        if made is None:
            return [Dynamic(dynamic=self.p.render(given))]
        create, bound = made
        prompt = create.arg(2, "prompt")
        if isinstance(prompt, Dyn) and prompt.why == "parameter" and bound is not None:
            prompt = bound.get(prompt.src)  # the factory's parameter: what its caller gave
            if prompt is None:
                return [Dynamic(dynamic=self.p.render(given))]
        if prompt is None:
            # `create_*_agent(llm, tools, **KW)`: a prompt may be among what is not seen.
            return [Dynamic(dynamic=self.p.render(create))] if create.star else []
        return self.template_prompt(prompt)

    def classic_agent(self, agent: Expr | None) -> tuple[Call, dict[str, Expr] | None] | None:
        """The `create_*_agent(...)` call that builds `agent`: the call itself, or the one return of a
        repository factory it calls, with the factory's parameters bound to the call's arguments
        (parameters left to their default map to it); None when it is neither."""
        if not isinstance(agent, Call):
            return None
        if self.classic_factory(agent):
            return agent, None
        fn = self.p.lookup(self.p.origin(agent.func) or "")
        if not isinstance(fn, FunctionFact) or len(fn.returns_exprs) != 1 or agent.star:
            return None
        made = self.p.value_of(fn.returns_exprs[0])
        if not isinstance(made, Call) or not self.classic_factory(made):
            return None
        positional = [q.name for q in fn.params if q.kind in ("posonly", "pos")]
        if positional[:1] in (["self"], ["cls"]):
            positional = positional[1:]
        bound: dict[str, Expr] = {q.name: q.default_expr for q in fn.params if q.default_expr is not None}
        bound.update(zip(positional, agent.args))
        bound.update(agent.kwargs)
        return made, bound

    def classic_factory(self, call: Call) -> bool:
        origin = self.p.origin(call.func) or ""
        return any(origin.startswith(f"{pkg}.create_") for pkg in _CLASSIC_AGENT_PACKAGES)

    def template_prompt(self, expr: Expr) -> list[str | Dynamic]:
        """A prompt template's instructions: the text of each system message of
        `ChatPromptTemplate.from_messages([...])` (a `("system", text)` pair, a `SystemMessage`, a
        `SystemMessagePromptTemplate.from_template(text)`), in order; the whole text of a single
        template (`from_template(text)`); then the values `.partial(...)` fills into those system
        texts. The human turn and placeholders are the run's input, not instructions. A template
        that cannot be read (`hub.pull(...)`, a parameter, a message built by a helper, a variable
        reassigned, a chain of `.partial` that loops) is dynamic."""
        system, filled = self._template(expr, 0)
        return [*(text for text, _fmt in system), *filled]

    def _format(self, call: Call, position: int | None) -> str | None:
        """The `template_format=` of a template-building call (a positional argument at `position`
        where the signature has one): f-string when not given, None when it is not a known literal
        (a variable set at run time, a `**kwargs` that may carry it): never guessed."""
        given = call.arg(position, "template_format") if position is not None else call.kw("template_format")
        if given is None:
            return None if call.star else "f-string"
        fmt = self.p.evaluate(given)
        return fmt if isinstance(fmt, str) and fmt in _TEMPLATE_FORMATS else None

    def _template(self, expr: Expr | None, depth: int) -> tuple[list[tuple[str | Dynamic, str]], list[str | Dynamic]]:
        """(system texts with their template format, values `.partial` fills into them) of the
        template `expr`."""
        dynamic: tuple[list[tuple[str | Dynamic, str]], list[str | Dynamic]] = ([(Dynamic(dynamic=self.p.render(expr)), _LITERAL)], [])
        if depth > _TEMPLATE_DEPTH or self._reassigned(expr):
            # `a = b.partial(); b = a.partial()` loops; `prompt = prompt.partial(x=...)` after
            # `prompt = ChatPromptTemplate(...)` is read by value_of as the first assignment only.
            return dynamic
        value = self.p.value_of(expr)
        receiver, method = split_method(value.func) if isinstance(value, Call) else (None, None)
        if isinstance(value, Call) and method == "partial" and receiver is not None:
            # `template.partial(format_instructions=...)`: the template, with those values filled in.
            system, filled = self._template(receiver, depth + 1)
            filled = list(filled)
            if value.star:  # `.partial(**RULES)`: which values are filled is not seen
                filled.append(Dynamic(dynamic=self.p.render(value)))
            for name, v in sorted(value.kwargs, key=lambda kv: kv[0]):
                # A value filled into the human turn only is the run's input, not an instruction.
                if _fills(system, name):
                    t = self.p.text(v)
                    filled.append(t if isinstance(t, (str, Dynamic)) else Dynamic(dynamic=self.p.render(value)))
            return system, filled
        origin = self.p.origin(value.func) if isinstance(value, Call) else None
        if isinstance(value, Call) and origin_matches(origin, *_SINGLE_TEMPLATE):
            fmt = self._format(value, None)
            if fmt is None:
                return dynamic
            text = self.p.text(value.arg(0, "template"))
            single: list[tuple[str | Dynamic, str]] = [(text if isinstance(text, (str, Dynamic)) else Dynamic(dynamic=describe(value)), fmt)]
            return single, self._partial_variables(value, single)
        from_messages = isinstance(value, Call) and origin_matches(origin, *_TEMPLATE_FROM_MESSAGES)
        if not isinstance(value, Call) or not (from_messages or origin_matches(origin, *_CHAT_TEMPLATE)):
            return dynamic
        # `from_messages(messages, template_format)`; `ChatPromptTemplate(messages, *, template_format)`.
        outer = self._format(value, 1 if from_messages else None)
        messages = self.p.items(value.arg(0, "messages"))
        if isinstance(messages, Dynamic) or value.star and value.arg(0, "messages") is None:
            return [(Dynamic(dynamic=self.p.render(value)), _LITERAL)], []
        parts: list[tuple[str | Dynamic, str]] = []
        filled: list[str | Dynamic] = []
        for item in messages:
            message = self.p.value_of(item.expr)
            text: Any = None
            fmt: str | None = _LITERAL
            if isinstance(message, Seq) and len(message.items) == 2:
                role = self.p.evaluate(message.items[0])
                if role == "system":
                    text, fmt = self.p.text(message.items[1]), outer
                elif not isinstance(role, str):
                    text = Dynamic(dynamic=self.p.render(message))  # a role known at run time only
            elif isinstance(message, Call) and origin_matches(self.p.origin(message.func), *_SYSTEM_MESSAGE):
                text = self.p.text(message.arg(0, "content"))
            elif isinstance(message, Call) and origin_matches(self.p.origin(message.func), *_SYSTEM_TEMPLATE):
                # `SystemMessagePromptTemplate.from_template(template, template_format="f-string", partial_variables=None)`
                text, fmt = self.p.text(message.arg(0, "template")), self._format(message, 1)
                if isinstance(text, (str, Dynamic)) and fmt is not None:
                    filled += self._partial_variables(message, [(text, fmt)], 2)
            elif isinstance(message, Call) and origin_matches(self.p.origin(message.func), *_NOT_SYSTEM_MESSAGE):
                pass  # a human/AI/tool turn or a placeholder: the run's input
            elif not isinstance(message, (Seq, Const)):  # a bare string is a human turn
                # A helper returning `("system", TEXT)`, a template built from a file or another
                # template: a message this cannot read may be a system one.
                text = Dynamic(dynamic=self.p.render(item.expr))
            if text is None:
                continue
            if not isinstance(text, (str, Dynamic)) or fmt is None:
                # Text not readable, or placeholders spelt in a format not known: what `.partial`
                # fills into it cannot be told.
                text, fmt = Dynamic(dynamic=self.p.render(item.expr)), _LITERAL
            parts.append((text, fmt))
        if not from_messages:  # `ChatPromptTemplate(messages, partial_variables={...})`
            filled += self._partial_variables(value, parts)
        return parts, filled

    def _partial_variables(self, call: Call, system: list[tuple[str | Dynamic, str]], position: int | None = None) -> list[str | Dynamic]:
        """The values `partial_variables={...}` gives a template at construction, as `.partial(...)`
        would: those its system texts may read, by name; a mapping that cannot be read is dynamic."""
        given = call.arg(position, "partial_variables") if position is not None else call.kw("partial_variables")
        if given is None:
            # `ChatPromptTemplate([...], **OPTIONS)`: the spread arguments may hold partial_variables,
            # which the system texts may read; what they fill is not seen.
            return [Dynamic(dynamic=self.p.render(call))] if call.star else []
        mapping = self.p.value_of(given)
        if not isinstance(mapping, Map):
            return [Dynamic(dynamic=self.p.render(given))]
        named: list[tuple[str, Expr]] = []
        for k, v in mapping.items:
            key = self.p.evaluate(k)
            if not isinstance(key, str):  # `**more` or a computed key: which values are filled is not seen
                return [Dynamic(dynamic=self.p.render(given))]
            named.append((key, v))
        out: list[str | Dynamic] = []
        for name, v in sorted(named, key=lambda kv: kv[0]):
            if _fills(system, name):
                t = self.p.text(v)
                out.append(t if isinstance(t, (str, Dynamic)) else Dynamic(dynamic=self.p.render(v)))
        return out

    def _reassigned(self, expr: Expr | None) -> bool:
        """True when `expr` reaches, through plain references, a variable assigned more than once:
        `value_of` would read its first assignment only."""
        for _ in range(_TEMPLATE_DEPTH):
            if not isinstance(expr, Ref):
                return False
            d = self.p.lookup(expr.name)
            if not isinstance(d, AssignFact):
                return False
            if self.p._assigned_more_than_once(d.target):
                return True
            expr = d.value
        return True

    def interrupt_map(self, expr: Expr | None) -> dict[str, Any] | Dynamic:
        """`interrupt_on` as {tool name: value}; keys may be literals or `some_tool.name`."""
        if expr is None:
            return {}
        value = self.p.value_of(expr)
        if isinstance(value, Map) and value is not expr:
            # a dict constant changed in place after it was built (`INTERRUPTS.pop("refund")`,
            # `del INTERRUPTS[...]`, `.update(...)`): what the middleware is given is the changed dict
            changed = self.p.evaluate(expr)
            if changed != self.p.evaluate(value):
                return changed if isinstance(changed, (dict, Dynamic)) else Dynamic(dynamic=describe(expr))
        if isinstance(value, Map):
            out: dict[str, Any] = {}
            for k, v in value.items:
                key = self.p.evaluate(k)
                if isinstance(k, Ref) and k.name.endswith(".name"):
                    tool = self.tools.get(self.p.canonical(k.name[: -len(".name")]))
                    key = tool.entry.name if tool else key
                if isinstance(k, Const) and k.value is None:  # **spread
                    inner = self.p.evaluate(v)
                    if not isinstance(inner, dict):
                        return Dynamic(dynamic=describe(expr))
                    out.update(inner)
                    continue
                if not isinstance(key, str):
                    return Dynamic(dynamic=describe(expr))
                if isinstance(v, Call) and (self.p.origin(v.func) or "").endswith(".InterruptOnConfig") and not v.star:
                    out[key] = {kw: self.p.evaluate(e) for kw, e in v.kwargs}  # the TypedDict spelled as a call
                else:
                    out[key] = self.p.evaluate(v)
            return out
        result = self.p.evaluate(expr)
        return result if isinstance(result, (dict, Dynamic)) else Dynamic(dynamic=describe(expr))

    def gate_value(self, value: Any) -> Any:
        if isinstance(value, Dynamic):
            return value
        if value is None or value is False:
            return "never"
        if value is True:
            return "always"
        if isinstance(value, dict):
            return "conditional" if "when" in value else "always"
        return Dynamic(dynamic=repr(value)[:120])

    def agent_gates(self, agent: _Agent, node: str | None = "tools") -> tuple[list[dict[str, Any] | Dynamic], Any]:
        """The HITL maps of the agent, and the gate every one of its tools run by graph node `node`
        goes through (the prebuilt agents run their tools in the node "tools"; None: a node whose
        name is not known)."""
        maps: list[dict[str, Any] | Dynamic] = []
        everyone: Any = "never"
        path, line = agent.entry.path, agent.entry.line
        middleware = self.p.items(agent.call.kw("middleware")) if not agent.react else []
        if isinstance(middleware, Dynamic):
            self.result.issues.append(issue(path, line, f"agent '{agent.entry.name}': middleware '{middleware.dynamic}' could not be resolved statically", site=("middleware", shape(middleware.dynamic))))
            everyone = middleware
            middleware = []
        for it in middleware:
            m = self.p.value_of(it.expr)
            if not isinstance(m, Call):
                continue
            origin = self.p.origin(m.func)
            if origin_matches(origin, *_HITL):
                m = self.p.spread_call(m)  # `HumanInTheLoopMiddleware(**GATES)`: read by value
                given = m.arg(0, "interrupt_on") or m.kw("tool_configs")  # tool_configs: pre-1.0 name
                unread = given_through_spread(m, "interrupt_on") if given is None else None
                maps.append(unread if unread is not None else self.interrupt_map(given))
            elif origin in self.p.classes and any(origin_matches(b, *_MIDDLEWARE_BASE) for b in self.p.class_bases(self.p.classes[origin])):
                cls = self.p.classes[origin]
                if any(self.calls_interrupt(self.p.functions[s]) for s in cls.methods if s in self.p.functions):
                    everyone = stricter(everyone, "conditional")
        if agent.deep:  # deepagents builds the HITL middleware itself: its permissions' gates, then interrupt_on's
            given = agent.call.kw("interrupt_on")
            user = self.interrupt_map(given) if given is not None else {}
            fs = self.permission_gates(agent)
            merged = user if isinstance(user, Dynamic) else {**fs, **user}  # an interrupt_on key wins (deepagents.graph)
            if merged:
                maps.append(merged)
        before = agent.call.kw("interrupt_before")
        if before is not None:
            nodes = self.p.evaluate(before)
            if isinstance(nodes, Dynamic):
                everyone = stricter(everyone, nodes)
            elif nodes == "*" or (isinstance(nodes, list) and node in nodes):
                everyone = "always"
            elif isinstance(nodes, list) and node is None and nodes:
                everyone = stricter(everyone, Dynamic(dynamic=describe(before)))  # is the unnamed node among them?
        return maps, everyone

    def middleware_tools(self, agent: _Agent) -> list[tuple[str, bool]]:
        """Tools the agent's middleware adds: LangChain's built-ins (by class), a middleware class of the
        repository with a `tools = [...]` attribute; middleware from another library is reported."""
        path, line = agent.entry.path, agent.entry.line
        middleware = self.p.items(agent.call.kw("middleware")) if not agent.react else []
        out: list[tuple[str, bool]] = self.deep_agent_tools(agent) if agent.deep else []
        for it in middleware if not isinstance(middleware, Dynamic) else []:
            m = self.p.value_of(it.expr)
            origin = self.p.origin(m.func) if isinstance(m, Call) else None
            if not isinstance(m, Call) or origin is None:
                continue
            cond = it.conditional or agent.entry.conditional
            cls = self.p.classes.get(origin)
            if cls is not None:
                listed = self.class_attr(cls, "tools")
                got = self.p.items(listed) if listed is not None else []
                for item in got if not isinstance(got, Dynamic) else []:
                    tid = self.item_tool(item.expr, path, agent.entry.name, line)
                    if tid is not None:
                        out.append((tid, cond))
                if isinstance(got, Dynamic):
                    self.result.issues.append(issue(path, line, f"agent '{agent.entry.name}': tools of middleware '{describe(m)}' could not be resolved statically", site=("middleware tools", shape(m))))
                continue
            if not origin.startswith(_MIDDLEWARE_PACKAGE + "."):
                if self.p.is_external(origin) and not origin.startswith(("langchain.", "langchain_core.", "langgraph.")):
                    self.result.issues.append(issue(path, line, f"agent '{agent.entry.name}': middleware '{describe(m.func)}' from a library may add tools that are not analysed", site=("library middleware", shape(m.func))))
                continue
            for name, rename, fixed in _MIDDLEWARE_TOOLS.get(leaf(origin), ()):
                value = self.p.evaluate(m.kw(rename)) if rename and m.kw(rename) is not None else name
                if not isinstance(value, str):
                    self.result.issues.append(issue(path, m.line, f"agent '{agent.entry.name}': {leaf(origin)} tool name '{describe(m.kw(rename))}' could not be resolved statically", site=("middleware tool name", leaf(origin), shape(m.kw(rename)))))
                    continue
                tid = f"{_MIDDLEWARE_PACKAGE}.{leaf(origin)}#{value}"
                if tid not in self.tools:
                    entry = Entry(kind="tool", name=value, path=path, line=m.line or line, dialect=NAME, extra={"external": f"{_MIDDLEWARE_PACKAGE}.{leaf(origin)}"}, **fixed)
                    self.add(tid, entry, {tid}, None, False)
                out.append((tid, cond))
        return out

    def deep_agent_tools(self, agent: _Agent) -> list[tuple[str, bool]]:
        """The tools deepagents gives every deep agent, dangerous by what its `backend=` lets them do."""
        given = agent.call.kw("backend")
        backend = self.p.value_of(given) if given is not None else None
        origin = (self.p.origin(backend.func) or "") if isinstance(backend, Call) else ""
        known: frozenset[str] | None = None
        if given is None:
            where, known = "StateBackend", _DEEP_BACKENDS["StateBackend"]
        elif origin.startswith("deepagents.") and leaf(origin) in _DEEP_BACKENDS:
            where, known = leaf(origin), _DEEP_BACKENDS[leaf(origin)]
        else:
            where = "backend " + describe(given)
        out = []
        for name, does in _DEEP_AGENT_TOOLS:
            if does == "delegate" and agent.subagent:
                continue  # a declared subagent delegates to none
            if known is not None:
                danger: Any = does in known
            else:
                danger = Dynamic(dynamic=f"the backend {describe(given)}") if does in ("write", "execute") else False
            fixed: dict[str, Any] = {"dangerous": danger}
            if does == "read":
                fixed["read_only"] = True
            # One set per module of deep agents: a deep agent added in another file brings its own,
            # and never moves these to where it is.
            tid = f"deepagents.{where}#{name}@{agent.entry.path}"
            if tid not in self.tools:
                entry = Entry(kind="tool", name=name, path=agent.entry.path, line=agent.call.line or agent.entry.line, dialect=NAME, extra={"external": "deepagents.create_deep_agent"}, **fixed)
                self.add(tid, entry, {tid}, None, False)
            out.append((tid, agent.entry.conditional))
        return out

    def permission_gates(self, agent: _Agent) -> dict[str, Any]:
        """What a deep agent's `permissions=[FilesystemPermission(operations=, paths=, mode="interrupt")]`
        gate: each file tool of an interrupted operation asks a human when the call's path matches
        (a `when` predicate: conditional). Rules only restrict, so a rule that cannot be read makes
        the tools it might gate dynamic only where no readable rule gates them already."""
        files = [(name, does) for name, does in _DEEP_AGENT_TOOLS if does in ("read", "write")]
        listed = self.p.items(agent.call.kw("permissions"))
        if isinstance(listed, Dynamic):
            return {name: listed for name, _ in files}
        gated: dict[str, Any] = {}
        unknown: dict[str, Any] = {}
        for it in listed:
            rule = self.p.value_of(it.expr)
            ops = mode = None
            if isinstance(rule, Call) and leaf(self.p.origin(rule.func) or "") == "FilesystemPermission" and not rule.star:
                ops = self.p.evaluate(rule.arg(0, "operations"))
                mode = self.p.evaluate(rule.arg(2, "mode")) if rule.arg(2, "mode") is not None else "allow"
            if isinstance(mode, str) and isinstance(ops, list):
                if mode == "interrupt":
                    gated.update((name, {"when": "permissions"}) for name, does in files if does in ops)
                continue
            unread = Dynamic(dynamic=describe(it.expr))
            for name, _ in files:
                unknown.setdefault(name, unread)
        return {**unknown, **gated}

    def subagents(self, agent: _Agent) -> None:
        """`subagents=[{"name":, "tools":, "interrupt_on":, "model":, "system_prompt":, ...}, ...]`: each
        an agent the deep agent reaches through its `task` tool, its tools gated by its own
        `interrupt_on` else the deep agent's (deepagents.graph); a compiled subagent reaches its
        `runnable`. A spec that cannot be read is reported."""
        listed = self.p.items(agent.call.kw("subagents"))
        path, line = agent.entry.path, agent.entry.line
        if isinstance(listed, Dynamic):
            self.result.issues.append(issue(path, line, f"agent '{agent.entry.name}': subagents '{listed.dynamic}' could not be resolved statically", site=("subagents", shape(listed.dynamic))))
            return
        inherited = dict(agent.call.kwargs)
        gated = [agent]  # the agents the deep agent's own interrupt_on gates
        readable = True  # every subagent read: only then is a key naming none of their tools misspelt
        for n, it in enumerate(listed):
            spec = self.p.value_of(it.expr)
            if isinstance(spec, Call) and leaf(self.p.origin(spec.func) or "") in ("SubAgent", "CompiledSubAgent", "dict") and not spec.star:
                spec = Map(tuple((Const(k), v) for k, v in spec.kwargs))  # the TypedDict spelled as a call
            keys = {self.p.evaluate(k): v for k, v in spec.items} if isinstance(spec, Map) else None
            if keys is None or not all(isinstance(k, str) for k in keys):
                self.result.issues.append(issue(path, getattr(it.expr, "line", 0) or line, f"agent '{agent.entry.name}': subagent '{describe(it.expr)}' could not be resolved statically", site=("subagent", shape(it.expr))))
                readable = False
                continue
            if "graph_id" in keys:  # AsyncSubAgent: a graph on a LangGraph server, run in the background
                remote = describe_value(self.p.evaluate(keys["graph_id"]))
                self.result.issues.append(issue(path, getattr(it.expr, "line", 0) or line, f"agent '{agent.entry.name}': subagent graph {remote} runs on a LangGraph server; what it reaches is not analysed", site=("remote subagent", shape(remote))))
                readable = False
                continue
            runnable = keys.get("runnable")
            if runnable is not None:  # CompiledSubAgent: a graph of its own
                target = self.p.value_of(runnable)
                ref = self.unwrap(runnable)
                if isinstance(ref, Ref) and self.p.canonical(ref.name) in self.agents:
                    agent.reach.append(self.p.canonical(ref.name))
                else:
                    readable = False
                    self.result.issues.append(issue(path, line, f"agent '{agent.entry.name}': subagent runnable '{describe(target if target is not None else runnable)}' could not be resolved statically", site=("subagent runnable", shape(runnable))))
                continue
            name = self.p.evaluate(keys.get("name"))
            label = name if isinstance(name, str) and name else f"{agent.entry.name} subagent {n + 1}"
            kwargs = {k: v for k, v in inherited.items() if k in ("tools", "interrupt_on", "backend", "model", "permissions")}
            kwargs.update({k: v for k, v in keys.items() if k in ("tools", "interrupt_on", "model", "system_prompt", "middleware", "permissions")})
            kwargs["name"] = Const(label)
            call = Call(agent.call.func, (), tuple(sorted(kwargs.items())), getattr(it.expr, "line", 0) or agent.call.line)
            symbol = f"{agent.symbol}.<subagent {label}>"
            entry = Entry(
                kind="agent", name=label, path=path, line=call.line, dialect=NAME, conditional=agent.entry.conditional or it.conditional,
                model=qualified_model(self.p, call.kw("model")),
            )
            self.agents[symbol] = sub = _Agent(symbol, entry, call, False, deep=True, subagent=True)
            agent.reach.append(symbol)
            self.agent_tools(sub)
            if "interrupt_on" in keys:
                self.unknown_gate_keys(sub, [sub])
            else:
                gated.append(sub)
            sub.entry.instructions_sha256 = self.prompt(sub)
            self.result.candidates.append(Candidate(sub.entry, {symbol}, sorted({*sub.tools, *sub.reach})))
        if readable:
            self.unknown_gate_keys(agent, gated)

    def agent_tools(self, agent: _Agent) -> None:
        path, line = agent.entry.path, agent.entry.line
        listed = agent.tool_items if agent.tool_items is not None else self.p.items(agent.call.arg(1, "tools"))
        items = listed
        if isinstance(items, Dynamic):
            self.result.issues.append(issue(path, line, f"agent '{agent.entry.name}': tools '{items.dynamic}' could not be resolved statically", site=("agent tools", shape(items.dynamic))))
            items = []
        maps, everyone = self.agent_gates(agent)
        resolved = not isinstance(listed, Dynamic)
        added = self.middleware_tools(agent)
        for tid, cond in added:
            agent.tools.append(tid)
            gate = everyone
            for m in maps:
                gate = stricter(gate, m if isinstance(m, Dynamic) else self.gate_value(m.get(self.tools[tid].entry.name)))
            self.tools[tid].registrations.append((cond, gate))
        for it in items:
            tid = self.item_tool(it.expr, path, agent.entry.name, line)
            if tid is None or tid.startswith("foreign:"):
                resolved = False
                if tid:
                    agent.reach.append(tid[len("foreign:"):])
                continue
            agent.tools.append(tid)
            gate = everyone
            for m in maps:
                gate = stricter(gate, m if isinstance(m, Dynamic) else self.gate_value(m.get(self.tools[tid].entry.name)))
            self.tools[tid].registrations.append((it.conditional or agent.entry.conditional, gate))
        def same(expr: Expr) -> Expr | str:
            return self.p.canonical(expr.name) if isinstance(expr, Ref) else expr

        in_tool_nodes = {same(i.expr) for i in agent.tool_items or ()}
        for node, it, bound in agent.direct_tools:  # run by a node function: gated only when that node is interrupted before
            if bound and same(it.expr) in in_tool_nodes:
                continue  # offered to the model, run by a ToolNode: gated as the ToolNode's
            tid = self.item_tool(it.expr, path, agent.entry.name, line)
            if tid is None or tid.startswith("foreign:"):
                if tid:
                    agent.reach.append(tid[len("foreign:"):])
                continue
            agent.tools.append(tid)
            gate = self.agent_gates(agent, node)[1]
            for m in maps:
                gate = stricter(gate, m if isinstance(m, Dynamic) else self.gate_value(m.get(self.tools[tid].entry.name)))
            self.tools[tid].registrations.append((it.conditional or agent.entry.conditional, gate))
        agent.resolved, agent.gate_maps = resolved, maps
        if not agent.deep:  # a deep agent's map gates its subagents' tools too: checked once they are read
            self.unknown_gate_keys(agent, [agent])

    def unknown_gate_keys(self, agent: _Agent, gated: list[_Agent]) -> None:
        """A misspelt key of `agent`'s maps gates nothing: say so while every tool name of the agents
        they gate is known."""
        if not all(a.resolved for a in gated):
            return
        names = {self.tools[t].entry.name for a in gated for t in a.tools}
        for m in agent.gate_maps:
            for key in sorted(set(m) - names) if isinstance(m, dict) else ():
                self.result.issues.append(
                    issue(agent.entry.path, agent.entry.line, f"agent '{agent.entry.name}': interrupt_on names '{key}', which is not one of its tools; no approval is attached to it", "hitl-unknown-tool", ("interrupt_on", key))
                )

    # -- result ---------------------------------------------------------------------------------

    def run(self) -> DialectResult:
        self.decorated_tools()
        self.assigned_tools()
        self.class_tools()
        self.returned_tools()
        self.find_agents()
        for agent in sorted(self.agents.values(), key=lambda a: a.symbol):
            if agent.nodes is not None:
                self.graph_reach(agent)
            self.agent_tools(agent)
            if agent.deep and not agent.subagent:
                self.subagents(agent)
            agent.entry.instructions_sha256 = self.prompt(agent)
            self.result.candidates.append(Candidate(agent.entry, {agent.symbol, *agent.aliases}, sorted({*agent.tools, *agent.reach})))
        for tid in sorted(self.tools):
            self.result.candidates.append(self.tools[tid].candidate())
        return self.result


# -- screens (see `base.screened_functions`): pure tests of one item, each a necessary condition of
# what the loop using it goes on to read.


# What each screen's origins must start with (see `base.tops`): modules calling nothing there are passed over.
_TOOL_DECORATOR_TOPS = tops(_TOOL_DECORATOR)
_ASSIGNED_TOOL_TOPS = tops(_TOOL_DECORATOR, _FROM_FUNCTION, _SIMPLE_TOOL, _HANDOFF_TOOL)
_AGENT_TOPS = tops(_CREATE_AGENT, _DEEP_AGENT, _REACT_AGENT, _AGENT_EXECUTOR)


def _decorated_tool(p: Program, fn: FunctionFact) -> bool:
    return any(origin_matches(p.origin(decorator_call(dec, p)[0]), *_TOOL_DECORATOR) for dec in fn.decorators)


def _assigned_tool(p: Program, a: AssignFact) -> bool:
    return a.op == "=" and isinstance(a.value, Call) and _is_tool_call(p, a.value)


def _tool_origin(p: Program, func: Expr) -> str | None:
    """The origin of a callee, a repository subclass's inherited `from_function` spelt as the
    library's (`_ToolWithRequired.from_function(...)`, `class _ToolWithRequired(StructuredTool)`:
    LangMem's): the subclass builds its tool as StructuredTool's classmethod does."""
    origin = p.origin(func)
    if origin is None or not origin.endswith(".from_function"):
        return origin
    cls = p.classes.get(origin[: -len(".from_function")])
    if cls is None or f"{cls.symbol}.from_function" in p.functions:
        return origin  # the repository's own `from_function`: what it builds is its own
    bases = p.class_bases(cls)
    return next((spelt for spelt in _FROM_FUNCTION if spelt.removesuffix(".from_function") in bases), origin)


def _is_tool_call(p: Program, call: Call) -> bool:
    origin = _tool_origin(p, call.func)
    return origin_matches(origin, *_TOOL_DECORATOR) or origin_matches(origin, *_FROM_FUNCTION) or origin_matches(origin, *_SIMPLE_TOOL)


def _returns_tool(p: Program, fn: FunctionFact) -> bool:
    """A return of a tool built in place (`return StructuredTool.from_function(...)`), or of a name
    of the function's own bound to one (a decorated function, an assigned tool call): a function
    returning a module-level tool hands out that tool, it does not make one."""
    for r in fn.returns_exprs:
        if r.__class__ is Ref and r.name.startswith(fn.symbol + ".<locals>."):  # type: ignore[union-attr]
            d = p.lookup(r.name)  # type: ignore[union-attr]
            if (isinstance(d, FunctionFact) and _decorated_tool(p, d)) or (isinstance(d, AssignFact) and _assigned_tool(p, d)):
                return True
        if r.__class__ is Call and _is_tool_call(p, r):  # type: ignore[arg-type]
            return True
    return False


def _tool_class(p: Program, cls: ClassFact) -> bool:
    return any(origin_matches(b, *_BASE_TOOL) for b in p.class_bases(cls))


def _agent_kind(p: Program, expr: Expr | None) -> bool | None:
    """True for create_react_agent (and the legacy AgentExecutor), False for create_agent, None for anything else."""
    expr = _Extractor.unwrap(expr)
    if not isinstance(expr, Call):
        return None
    origin = p.origin(expr.func)
    if origin_matches(origin, *_CREATE_AGENT, *_DEEP_AGENT):
        return False
    if origin_matches(origin, *_REACT_AGENT) or _Extractor.executor(origin):
        return True
    return None


def _assigned_agent(p: Program, a: AssignFact) -> bool:
    return a.op == "=" and _agent_kind(p, a.value) is not None


def _wrapped_name(_p: Program, a: AssignFact) -> bool:
    """`served = agent.with_config(...)`: a name wrapped in runnable wrappers."""
    if a.op != "=" or not isinstance(a.value, Call):
        return False
    inner = _Extractor.unwrap(a.value)
    return isinstance(inner, Ref) and inner is not a.value


def _returns_agent_or_name(p: Program, fn: FunctionFact) -> bool:
    """A return of an agent built in place, or of a name bound to one (an agent or a compiled graph)."""
    for r in fn.returns_exprs:
        if r.__class__ is Call:  # (neither test below can hold of anything else, nor unwrap change it)
            if _agent_kind(p, r) is not None:
                return True
            r = _Extractor.unwrap(r)
        if r.__class__ is Ref:
            symbol = p.canonical(r.name)  # type: ignore[union-attr]
            if symbol.endswith(".<return>") or any(_agent_kind(p, a.value) is not None or _compiles(a.value) for a in p.assigned_calls_to(symbol)):
                return True
    return False


def _graph_builder(p: Program, a: AssignFact) -> bool:
    return a.op == "=" and isinstance(a.value, Call) and origin_matches(p.origin(a.value.func), *_STATE_GRAPH)


def _adds_node(_p: Program, e: Any) -> bool:
    receiver, method = split_method(e.call.func)
    return method in ("add_node", "add_sequence") and isinstance(receiver, Ref)


# Keywords of an agent factory or `compile()` that say where its state is kept or how it is
# debugged, not what it can do: two builds differing only in them are one agent.
_STATE_KEYWORDS = frozenset({"checkpointer", "store", "cache", "debug"})


def _runs_alike(a: Call, b: Call) -> bool:
    """Two builds of an agent alike but for `_STATE_KEYWORDS` (and where they are written)."""
    def kept(c: Call) -> Call:
        return Call(c.func, c.args, tuple((k, v) for k, v in c.kwargs if k not in _STATE_KEYWORDS), 0, c.star, c.spread)

    return not a.star and not b.star and describe(kept(a)) == describe(kept(b))


def _compiles(expr: Expr | None) -> bool:
    """`<name>.compile(...)` (seen through runnable wrappers)."""
    expr = _Extractor.unwrap(expr)
    if not isinstance(expr, Call):
        return False
    receiver, method = split_method(expr.func)
    return method == "compile" and isinstance(receiver, Ref)


def describe_value(value: Any) -> str:
    return value.dynamic if isinstance(value, Dynamic) else repr(value)[:80]


def extract(program: Program) -> DialectResult:
    return _Extractor(program).run()
