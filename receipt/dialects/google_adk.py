"""Google Agent Development Kit (`google.adk`).

Recognised (by import origin, aliases and re-export paths included):
- `LlmAgent(name=, model=, instruction=, global_instruction=, static_instruction=, description=,
  tools=[...], sub_agents=[...])` and its alias `Agent` (`google.adk.agents` or `google.adk`);
  `SequentialAgent` / `ParallelAgent` / `LoopAgent(sub_agents=...)`, `ManagedAgent(agent_id=, instruction=,
  tools=)` (ADK 2); local subclasses of these or
  of `BaseAgent`. Name: `name=` (else the variable). Instructions digest over instruction,
  global_instruction and static_instruction; an instruction *provider* (a function) is dynamic.
  Model: a literal, `LiteLlm(model=...)`, or dynamic. `before_tool_callback=` is noted in `extra`.
  `code_executor=`: recorded in `extra["code_execution"]`; `UnsafeLocalCodeExecutor` (the model's
  code runs in the agent's process) makes the agent `dangerous`, sandboxed executors do not, an
  executor not known statically makes it dynamic.
- Tools: plain functions in `tools=[...]` (ADK wraps them as `FunctionTool`: name = function name,
  description = docstring; a bare `FunctionTool(func=f)` is that same tool),
  `FunctionTool(func, require_confirmation=True | False | callable)`
  (a callable or lambda -> approval `conditional`), `LongRunningFunctionTool(func)`,
  `AuthenticatedFunctionTool(func=, auth_config=)` (its `credential` parameter dropped),
  `AgentTool(agent=...)` (a tool named after the agent that reaches it). `tool_context: ToolContext`
  and `input_stream` are dropped from signatures.
- ADK's own tool objects (`google_search`, `VertexAiSearchTool(...)`, ...) become external tool
  entries named after the object. `McpToolset(tool_filter=[...], tool_name_prefix=,
  require_confirmation=)`: one entry per filtered tool name (else one `*` entry), confirmation as
  approval, danger dynamic (the server's annotations are only listed at run time). Other toolsets
  (`OpenAPIToolset`, ...) whose tools are only known at runtime are reported as issues.
- Roots: public module-level agents (so the `root_agent` convention is covered) and agents
  returned by public module-level factories (conditional). Sub-agents and tools are reached.

Not recognised: confirmation requested from inside a tool body (`tool_context.request_confirmation`),
callbacks as approval gates, custom `BaseTool` subclasses (reported), agents from YAML config.
"""

from __future__ import annotations

from receipt.dialects._agentkit import Kit, builds_root, Site, from_package, has_external_decorator, model_value, text_digest
from receipt.dialects.base import DialectResult, approval_from, digest, given_through_spread, leaf, name_expression, shape, signature_of, trust_from
from receipt.extract.facts import Call, Dyn, Expr, FunctionFact, Ref
from receipt.extract.program import Program, describe
from receipt.models import Dynamic, Param, Signature

NAME = "google-adk"
_PKG = ("google.adk",)
_AGENTS = ("LlmAgent", "Agent", "SequentialAgent", "ParallelAgent", "LoopAgent", "ManagedAgent")
_WORKFLOW = ("SequentialAgent", "ParallelAgent", "LoopAgent")
_MCP_TOOLSETS = ("McpToolset", "MCPToolset")
_DROPPED = ("tool_context", "input_stream")
# Tools made from a repository function (`func=`), named after it; AuthenticatedFunctionTool also
# hands the function its `credential`.
_FUNCTION_TOOLS = ("FunctionTool", "LongRunningFunctionTool", "AuthenticatedFunctionTool")
# `code_executor=` (google/adk/code_executors): where the code the model writes runs. Only the
# unsafe local executor runs it in the agent's own process; the others run it in the model
# provider's, Vertex AI's, Agent Engine's, a container's or a GKE sandbox.
_CODE_EXECUTORS = {
    "UnsafeLocalCodeExecutor": True,
    "BuiltInCodeExecutor": False,
    "VertexAiCodeExecutor": False,
    "AgentEngineSandboxCodeExecutor": False,
    "ContainerCodeExecutor": False,
    "GkeCodeExecutor": False,
}


# Connection settings that tune the transport, not which MCP server it reaches (google.adk.tools.
# mcp_tool's StdioConnectionParams, SseConnectionParams, StreamableHTTPConnectionParams; mcp's
# StdioServerParameters): a new timeout is no change of the tools that server lists.
_MCP_TRANSPORT_TUNING = frozenset({"timeout", "sse_read_timeout", "terminate_on_close", "encoding", "encoding_error_handler", "httpx_client_factory"})


def _mcp_server(p: Program, expr: Expr) -> str:
    """The MCP server a toolset's `connection_params` reach, as its tools' danger names it: what
    decides the server (command, args, env, cwd; url, headers), in keyword order, the params class
    by its own name (ADK re-exports mcp's `StdioServerParameters`), transport tuning left out, and
    `StdioConnectionParams(server_params=X, timeout=5)` read as X. Anything else is as written."""
    if not isinstance(expr, Call) or expr.star or not isinstance(expr.func, Ref):
        return describe(expr)
    kind = leaf(p.canonical(expr.func.name))
    if kind == "StdioConnectionParams":
        inner = expr.arg(0, "server_params")
        if inner is not None:
            return _mcp_server(p, inner)
    settings = sorted((k, describe(v)) for k, v in expr.kwargs if k not in _MCP_TRANSPORT_TUNING)
    return f"{kind}({', '.join([*map(describe, expr.args), *(f'{k}={v}' for k, v in settings)])})"


class _Adk:
    def __init__(self, program: Program):
        self.program = program
        self.kit = Kit(program, NAME, self.is_agent, self.agent)

    # -- classification -------------------------------------------------------------------------

    def is_agent(self, origin: str | None) -> bool:
        return self.kit.is_class(origin, _PKG, _AGENTS, "BaseAgent")

    def tool_kind(self, origin: str | None) -> str | None:
        if from_package(origin, _PKG, *_FUNCTION_TOOLS):
            return "function"
        if from_package(origin, _PKG, "AgentTool"):
            return "agent"
        return None

    # -- agents ---------------------------------------------------------------------------------

    def agent(self, call: Call, identity: str, site: Site, fallback: str) -> str:
        if self.kit.get(identity) is not None:
            return identity
        p = self.program
        origin = p.origin(call.func) or ""
        name = p.evaluate(call.kw("name"))
        workflow = from_package(origin, _PKG, *_WORKFLOW)
        parts = []
        setting = lambda key: self.kit.setting(call, identity, key)  # noqa: E731 - what is set after construction counts
        for key in ("instruction", "global_instruction", "static_instruction"):
            expr = setting(key)
            if expr is not None:
                parts.append((key, self.instruction_text(expr)))
        extra = {}
        callback = setting("before_tool_callback")
        if callback is not None:
            extra["before_tool_callback"] = describe(callback)
        if workflow:
            extra["workflow"] = leaf(origin)
        dangerous = self.code_execution(setting("code_executor"), extra)
        if call.star and call.kw("code_executor") is None:  # `**EXTRA` may carry a code executor
            extra["code_execution"] = {"executor": "**kwargs"}
            dangerous = Dynamic(dynamic=f"code executor from the keyword arguments of {describe(call)}")
        entry = self.kit.entry(
            "agent",
            name if isinstance(name, str) and name else fallback,
            site,
            name_expr=name_expression(p, call.kw("name")),
            model=None if workflow else model_value(p, setting("model")),
            instructions_sha256=text_digest(parts),
            description_sha256=digest(p.text(call.kw("description"))) if call.kw("description") is not None else None,
            dangerous=dangerous,
            extra=extra,
        )
        cand = self.kit.add(identity, entry)
        reach: list[str] = []
        for item in self.kit.items(call.kw("tools"), site, "tools", identity, "tools"):
            reach += self.tool_item(item.expr, item.conditional, site)
        for item in self.kit.items(call.kw("sub_agents"), site, "sub_agents", identity, "sub_agents"):
            reach += self.kit.agent_item(item.expr, item.conditional, site, "sub-agent")
        cand.reach.extend(reach)
        return identity

    def code_execution(self, expr: Expr | None, extra: dict[str, object]) -> bool | Dynamic:
        """The agent is dangerous when the code its model writes runs in its own process (recorded in
        `extra["code_execution"]`); an executor not known here (a custom class, a parameter) may."""
        p = self.program
        if expr is None or p.evaluate(expr) is None:
            return False
        value = p.value_of(expr)
        origin = p.origin(value.func) if isinstance(value, Call) and not isinstance(value.func, Call) else None
        kind = leaf(origin) if origin and from_package(origin, _PKG, *_CODE_EXECUTORS) else None
        if kind is not None:
            extra["code_execution"] = {"executor": kind}
            if kind == "ContainerCodeExecutor" and isinstance(value, Call):
                return self.container_network(value, extra["code_execution"])
            return _CODE_EXECUTORS[kind]
        shown = describe(expr)
        extra["code_execution"] = {"executor": shown}
        return Dynamic(dynamic=f"code executor {shown}")

    def container_network(self, call: Call, record: dict[str, object]) -> bool | Dynamic:
        """ADK's container starts without networking (its guard against model-written code reaching
        the cloud metadata endpoint) unless `network_enabled=True` (a keyword only: it goes through
        `**data`); an executor given a network is dangerous, an unseen value may be."""
        given = call.kw("network_enabled")
        if given is None:
            return Dynamic(dynamic="ContainerCodeExecutor network_enabled given through **kwargs") if call.star else False
        enabled = self.program.evaluate(given)
        if isinstance(enabled, bool):
            if enabled:
                record["network_enabled"] = True
            return enabled
        return Dynamic(dynamic=f"ContainerCodeExecutor network_enabled={describe(given)}")

    def instruction_text(self, expr: Expr) -> object:
        target = self.program.canonical(expr.name) if isinstance(expr, Ref) else None
        if target in self.program.functions:  # an instruction provider: what it returns, by value
            return self.program.function_value(self.program.functions[target])
        if isinstance(expr, Dyn) and expr.why == "lambda":
            return Dynamic(dynamic=f"instruction provider {expr.src}")
        return self.program.text(expr)

    # -- tools ----------------------------------------------------------------------------------

    def function_entry(self, fn: FunctionFact, identity: str, site: Site, call: Call | None) -> str:
        if self.kit.get(identity) is not None:
            return identity
        approval: object = "never"
        extra = {}
        dropped = _DROPPED
        if call is not None:
            approval = self.confirmation(call, identity)
            wrapper = leaf(self.program.origin(call.func) or "") if self.tool_kind(self.program.origin(call.func)) == "function" else None
            if wrapper == "LongRunningFunctionTool":
                extra["long_running"] = True
            elif wrapper == "AuthenticatedFunctionTool":
                dropped = (*_DROPPED, "credential")  # ADK passes the credential in; the model never sees it
        entry = self.kit.entry(
            "tool",
            fn.name,
            site,
            signature=signature_of(fn, drop_names=dropped),
            description_sha256=digest(fn.doc),
            approval=approval,
            trust_tier=trust_from(approval),  # type: ignore[arg-type]
            extra=extra,
        )
        self.kit.add(identity, entry)
        return identity

    def wrapper(self, call: Call, identity: str, site: Site) -> list[str]:
        p = self.program
        kind = self.tool_kind(p.origin(call.func))
        if kind == "function":
            target = call.arg(0, "func")
            fn = p.functions.get(p.canonical(target.name)) if isinstance(target, Ref) else None
            if fn is None:
                self.kit.warn(site.path, call.line, f"tool {describe(call)}: wrapped function not found in the repository", ("wrapped function", shape(call)))
                return []
            if not call.star and len(call.args) + len(call.kwargs) == 1 and leaf(p.origin(call.func) or "") == "FunctionTool":
                # `FunctionTool(func=f)` is what ADK makes of `f` itself in `tools=[f]`: the same tool
                # (wrapping it, or unwrapping it, is no change), named and placed by the function.
                identity, site = fn.symbol, Site(p.path_of(fn.symbol), fn.line, fn.conditional or site.conditional)
            if not site.conditional and fn.conditional:
                site = Site(site.path, site.line, True, site.root)
            return [self.function_entry(fn, identity, site, call)]
        # AgentTool: a tool named after the agent, reaching it.
        if self.kit.get(identity) is None:
            agent_expr = call.arg(0, "agent")
            reach = self.kit.agent_item(agent_expr, site.conditional, site, "sub-agent") if agent_expr is not None else []
            value, var = self.kit.follow(agent_expr) if agent_expr is not None else (None, None)
            name, description = None, None
            if isinstance(value, Call):
                name = p.evaluate(value.kw("name"))
                description = p.text(value.kw("description")) if value.kw("description") is not None else None
            entry = self.kit.entry(
                "tool",
                name if isinstance(name, str) and name else (leaf(var) if var else describe(call)),
                site,
                name_expr=name_expression(p, value.kw("name")) if isinstance(value, Call) else None,
                signature=Signature(params=[Param(name="request", type="str")]),
                description_sha256=digest(description),
                extra={"agent_tool": True},
            )
            self.kit.add(identity, entry, reach=reach)
        return [identity]

    def tool_item(self, expr: Expr, conditional: bool, owner: Site) -> list[str]:
        p = self.program
        value, var = self.kit.follow(expr)
        if isinstance(value, Ref) and value.name in p.functions:
            fn = p.functions[value.name]
            if not has_external_decorator(p, fn):
                site = Site(p.path_of(fn.symbol), fn.line, fn.conditional)
                self.function_entry(fn, fn.symbol, site, None)
                self.kit.attach(fn.symbol, conditional)
            return [fn.symbol]
        if isinstance(value, Call):
            origin = p.origin(value.func)
            if self.tool_kind(origin):
                identity = var or self.kit.inline_identity(owner, value)
                site = (self.kit.site_of(var) if var else None) or Site(owner.path, value.line, conditional)
                out = self.wrapper(value, identity, site)
                for i in out:
                    self.kit.attach(i, conditional)
                return out
            if from_package(origin, _PKG, "LangchainTool", "CrewaiTool"):
                # ADK adapters around another framework's tool: the wrapped tool is what is reached.
                inner = value.arg(0, "tool")
                inner_value, _ = self.kit.follow(inner) if inner is not None else (None, None)
                if isinstance(inner_value, Ref):
                    return [inner_value.name]
                if isinstance(inner_value, Call) and p.origin(inner_value.func):
                    return [p.origin(inner_value.func) or ""]
                self.kit.warn(owner.path, value.line, f"tool {describe(value)}: wrapped tool not statically known", ("wrapped tool", shape(value)))
                return []
            if from_package(origin, _PKG, *_MCP_TOOLSETS):
                return self.mcp_toolset(value, owner, conditional, var)
            if origin and from_package(origin, _PKG):
                return self.external(origin, value.line, owner, conditional, var)
            if origin and origin in p.classes:
                self.kit.warn(owner.path, value.line, f"tool {describe(value)}: custom tool classes are not analysed", ("custom tool class", shape(value)))
            elif origin and p.is_external(origin):
                self.kit.warn(owner.path, value.line, f"tool {describe(value)} from outside the repository is not analysed", ("external tool", shape(value)))
            return [origin] if origin else []
        if isinstance(value, Ref) and from_package(value.name, _PKG):
            return self.external(value.name, owner.line, owner, conditional, var)
        return self.kit.named_tool(value, expr, owner)

    def confirmation(self, call: Call, var: str | None) -> object:
        """The approval a `FunctionTool` / `McpToolset` asks for: its `require_confirmation=` (a
        callable decides per call), unless the variable holding it has its `_require_confirmation`
        set after construction (or the list item holding it, built inline), where both keep the
        flag and read it on every call (`refund_tool._require_confirmation = False` switches it off)."""
        p = self.program
        built = call  # built inline in a list, its item may be changed (`root_agent.tools[0]._require_confirmation = False`)
        call = p.spread_call(call)  # `FunctionTool(refund, **CONFIRM)`
        rc = call.kw("require_confirmation")
        later = self.kit.set_later(built, var, "_require_confirmation")
        if later is not None:
            rc = later
        if rc is None:
            return given_through_spread(call, "require_confirmation") or "never"
        if isinstance(rc, Dyn) and rc.why == "lambda":
            return "conditional"
        return approval_from(p.evaluate(rc), p, rc)

    def mcp_toolset(self, call: Call, owner: Site, conditional: bool, var: str | None) -> list[str]:
        """`McpToolset(connection_params=, tool_filter=, tool_name_prefix=, require_confirmation=)`: the
        server lists its tools at run time; a literal `tool_filter` names the ones the agent gets
        (prefixed as ADK's `BaseToolset` prefixes them), else one `*` entry stands for them all.
        `require_confirmation` applies to every tool of the toolset (a callable decides per call)."""
        p = self.program
        approval = self.confirmation(call, var)
        prefix = p.evaluate(call.kw("tool_name_prefix")) if call.kw("tool_name_prefix") is not None else None
        listed = p.evaluate(call.kw("tool_filter")) if call.kw("tool_filter") is not None else None
        # ADK's `_is_tool_selected` lets every tool through when the filter is falsy (`[]`, `None`).
        names = sorted(set(listed)) if isinstance(listed, list) and listed and all(isinstance(n, str) for n in listed) else ["*"]
        if prefix is not None and not isinstance(prefix, str):
            self.kit.warn(owner.path, call.line, f"MCP toolset {describe(call)}: tool_name_prefix is not statically known; tools are shown unprefixed", ("mcp toolset prefix", shape(call)))
            prefix = None
        home = var or self.kit.inline_identity(owner, call)
        # By the MCP spec an unannotated tool is destructive; whether the server annotates its tools
        # is only known when it lists them (named by its connection: another server is another value).
        server = call.kw("connection_params")
        danger = Dynamic(dynamic=f"tools of the MCP server {_mcp_server(p, server) if server is not None else '?'} (listed at run time)")
        out: list[str] = []
        for name in names:
            shown = f"{prefix}_{name}" if prefix and name != "*" else name
            identity = f"mcp:{home}:{shown}"
            if self.kit.get(identity) is None:
                entry = self.kit.entry(
                    "tool", shown, Site(owner.path, call.line, conditional),
                    approval=approval, trust_tier=trust_from(approval),  # type: ignore[arg-type]
                    dangerous=danger, open_world=True, scope=prefix or "",
                )
                self.kit.add(identity, entry, symbols=[var] if var else [])
            self.kit.attach(identity, conditional)
            out.append(identity)
        return out

    def external(self, origin: str, line: int, owner: Site, conditional: bool, var: str | None) -> list[str]:
        name = leaf(origin)
        if name.endswith("Toolset") or name.endswith("ToolSet"):
            self.kit.warn(owner.path, line, f"toolset {name}: its tools are only known at runtime and are not analysed", ("toolset", origin))
            return []
        return self.kit.external(origin, line, owner, conditional, var, name)

    # -- driver ---------------------------------------------------------------------------------

    def run(self) -> DialectResult:
        p = self.program
        for a in p.iter_assigns():
            if a.op != "=" or not isinstance(a.value, Call):
                continue
            origin = p.origin(a.value.func)
            site = Site(p.path_of(a.target), a.line, a.conditional, builds_root(p, a.target))
            if self.is_agent(origin):
                self.agent(a.value, a.target, site, leaf(a.target))
            elif self.tool_kind(origin):
                self.wrapper(a.value, a.target, Site(site.path, site.line, site.conditional))
        for fn in p.iter_functions():
            for r in fn.returns_exprs:
                self.kit.returned(fn, r)
        self.kit.bind_factory_results()
        return self.kit.result()


def extract(program: Program) -> DialectResult:
    return _Adk(program).run()
