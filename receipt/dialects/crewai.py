"""CrewAI.

Recognised (by import origin, aliases and re-export paths included):
- `@tool`, `@tool("Name")`, `@tool(result_as_answer=True)` from `crewai.tools` (or the older
  `crewai_tools`): name = the string, else the function name; description = docstring; signature
  from the function. `crewai.project.tool` is a different decorator and is not taken for it.
- `BaseTool` subclasses (transitively): class attributes `name`, `description`, `args_schema`
  (a model of the tree joins the signature's schemas, its fields compared; else noted in
  `extra`); signature from `_run` (else `_arun`).
- `Agent(role=, goal=, backstory=, tools=[...], llm=, allow_delegation=, allow_code_execution=,
  code_execution_mode=, config=)`: name = role (else the variable or method name); instructions
  digest over role + goal + backstory (dynamic when they come from `config=` / YAML); model from
  `llm=` (a literal, `LLM(model=...)`, or dynamic). `allow_code_execution=True` is recorded in
  `extra["code_execution"]`; with `code_execution_mode="unsafe"` (no Docker sandbox) the agent is
  `dangerous`. An agent with `allow_delegation=True` reaches the other agents of its crews.
- `Crew(agents=[...], tasks=[...], manager_agent=...)`: a crew built at module level (or in a
  public module-level function) makes its agents exported; the manager reaches every member.
- `Task(agent=..., tools=[...])`: task tools are reached by the task's agent.
  `Task(human_input=True)` asks a human to review the task's *final answer*; it gates no tool
  call, so it is not mapped to tool approval (it is noted as `extra["human_input"]` on the agent).
- `@CrewBase` classes: `@agent` methods returning `Agent(...)` are exported agents named by role
  (else the method name); `self.<method>()` references between methods are followed;
  `Crew(agents=self.agents, tasks=self.tasks)` in such a class has its `@agent` methods as members
  (what CrewBase fills `self.agents` with), so delegation and a manager reach them.
- Approval hooks: `@before_tool_call` (bare or `(tools=[...], agents=[...])`), `@on(
  InterceptionPoint.PRE_TOOL_CALL, tools=[...])`, `register_before_tool_call_hook(fn)` and
  `register_hook(InterceptionPoint.PRE_TOOL_CALL, fn)` from `crewai.hooks`. A hook that can block
  a call (it raises, or returns something other than None/True) makes the tools it filters on
  (names compared the way CrewAI sanitises them; every CrewAI tool when there is no filter)
  `approval="conditional"`. Hooks that only observe change nothing.
- Roots: public module-level agents, agents of module-level crews, agents returned by public
  module-level factories (conditional).
- Library tools (`FileReadTool()`): one entry per class, named as the library names it
  (`_crewai_tool_names.py`: "Read a file's content"), whichever module path imports it.

Not recognised: agents/tasks defined only in YAML (their text is dynamic), an `args_schema`
model outside the tree, library tools newer than the name table (named after their class), LLM hooks.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from receipt.dialects._agentkit import (
    Kit,
    builds_root,
    Site,
    can_block,
    from_package,
    model_value,
    self_method,
    text_digest,
)
from receipt.dialects._crewai_tool_names import TOOL_NAMES
from receipt.dialects.base import DialectResult, as_bool, decorator_call, digest, leaf, module_level_public, name_expression, shape, signature_of, trust_from
from receipt.extract.facts import Call, ClassFact, Const, Dyn, Expr, FunctionFact, Ref
from receipt.extract.program import Program, describe
from receipt.models import Dynamic
from receipt.schemas import with_args_schema

NAME = "crewai"
_TOOL_PKGS = ("crewai.tools", "crewai_tools")
_BASE_TOOL_PKGS = ("crewai.tools", "crewai_tools", "crewai")
_AGENTS = ("Agent",)
_HOOKS = ("crewai.hooks",)


def sanitize_tool_name(name: str) -> str:
    """CrewAI's tool-name normalisation (hook filters and LLM-facing names are compared this way)."""
    name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    name = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", name)
    name = re.sub(r"([a-z])([A-Z])", r"\1_\2", name)
    name = name.lower()
    name = re.sub(r"['\"]+", "", name)
    name = re.sub(r"[^a-zA-Z0-9]+", "_", name)
    return re.sub(r"_+", "_", name).strip("_")


class _Crew:
    def __init__(self, program: Program):
        self.program = program
        self.kit = Kit(program, NAME, self.is_agent, self.agent)
        self.crews: list[tuple[list[str], str | None]] = []  # (member identities, manager identity)
        self.tool_ids: set[str] = set()

    # -- classification -------------------------------------------------------------------------

    def is_agent(self, origin: str | None) -> bool:
        if from_package(origin, ("crewai",), *_AGENTS) and not from_package(origin, ("crewai.project",)):
            return True
        cls = self.kit.class_of(origin)
        return cls is not None and self.kit.subclass_of(cls, ("crewai",), "Agent", "BaseAgent")

    def is_tool_decorator(self, dec: Expr) -> Call | None | bool:
        func, call = decorator_call(dec)
        origin = self.program.origin(func)
        if from_package(origin, _TOOL_PKGS, "tool") or origin == "crewai.tool":
            return call if call is not None else True
        return False

    def is_tool_class(self, cls: ClassFact) -> bool:
        """A BaseTool subclass, also through a library tool class (`class Docs(RagTool)`: every tool class
        `crewai_tools` exports is a BaseTool)."""
        return self.kit.subclass_of(cls, _BASE_TOOL_PKGS, "BaseTool") or any(
            from_package(b, ("crewai_tools",)) and leaf(b).endswith("Tool") for b in self.program.class_bases(cls)
        )

    # -- tool declarations ----------------------------------------------------------------------

    def decorated(self, fn: FunctionFact, call: Call | None) -> None:
        p = self.program
        name: Any = fn.name
        extra: dict[str, Any] = {}
        if call is not None:
            if call.args:
                given = p.evaluate(call.args[0])
                if isinstance(given, str) and given:
                    name = given
                else:
                    self.kit.warn(p.path_of(fn.symbol), fn.line, f"tool {fn.name}: name {describe(call.args[0])} not statically known; using the function name", ("tool name", shape(call.args[0])))
            for key in ("result_as_answer", "max_usage_count"):
                if call.kw(key) is not None:
                    v = p.evaluate(call.kw(key))
                    if v not in (False, None):
                        extra[key] = v.model_dump() if isinstance(v, Dynamic) else v
        site = Site(p.path_of(fn.symbol), fn.line, fn.conditional)
        entry = self.kit.entry("tool", name, site, signature=signature_of(fn), description_sha256=digest(fn.doc), extra=extra,
                               name_expr=name_expression(p, call.args[0]) if call is not None and call.args else None)
        self.kit.add(fn.symbol, entry)
        self.tool_ids.add(fn.symbol)

    def tool_class(self, cls: ClassFact) -> None:
        p = self.program
        name = p.evaluate(cls.attrs.get("name")) if "name" in cls.attrs else None
        description = p.text(cls.attrs.get("description")) if "description" in cls.attrs else cls.doc
        run = p.functions.get(f"{cls.symbol}._run") or p.functions.get(f"{cls.symbol}._arun")
        extra: dict[str, Any] = {}
        library = sorted(b for b in p.class_bases(cls) if from_package(b, ("crewai_tools",)))
        if library:
            extra["base"] = library[0]
            if not isinstance(name, str):
                self.kit.warn(p.path_of(cls.symbol), cls.line, f"tool class {cls.name}: its name is inherited from {library[0]}, which is not analysed; using the class name", ("inherited tool name", library[0]))
        # An args_schema model of the tree joins the signature (its fields compared); one that
        # cannot be read stays recorded by its expression.
        args_schema = cls.attrs.get("args_schema")
        signature = with_args_schema(p, signature_of(run) if run is not None else None, args_schema)
        if args_schema is not None and not (signature and signature.schemas):
            extra["args_schema"] = describe(args_schema)
        site = Site(p.path_of(cls.symbol), cls.line, cls.conditional)
        entry = self.kit.entry(
            "tool",
            name if isinstance(name, str) and name else cls.name,
            site,
            name_expr=name_expression(p, cls.attrs.get("name")),
            signature=signature,
            description_sha256=digest(description),
            extra=extra,
        )
        self.kit.add(cls.symbol, entry)
        self.tool_ids.add(cls.symbol)

    # -- agents ---------------------------------------------------------------------------------

    def agent(self, call: Call, identity: str, site: Site, fallback: str) -> str:
        if self.kit.get(identity) is not None:
            return identity
        p = self.program
        if call.spread:  # what the kit could not read through (a parameter, a computed dict)
            self.kit.warn(site.path, call.line, f"agent {fallback}: {', '.join('**' + describe(s) for s in call.spread)} passed to Agent(...) cannot be resolved statically; its tools and settings there are not analysed", ("agent kwargs",))
        config = call.kw("config")
        texts: dict[str, Any] = {}
        for key in ("role", "goal", "backstory"):
            expr = call.kw(key)
            if expr is not None:
                texts[key] = p.text(expr)
            elif config is not None:
                texts[key] = Dynamic(dynamic=f"{describe(config)}[{key!r}]")
        role = texts.get("role")
        extra: dict[str, Any] = {}
        dangerous: Any = False
        delegation = as_bool(p.evaluate(call.kw("allow_delegation")), False)
        if delegation is not False:
            extra["allow_delegation"] = delegation.model_dump() if isinstance(delegation, Dynamic) else delegation
        code = as_bool(p.evaluate(call.kw("allow_code_execution")), False)
        if code is not False:
            mode = p.evaluate(call.kw("code_execution_mode")) if call.kw("code_execution_mode") is not None else "safe"
            extra["code_execution"] = {
                "enabled": code.model_dump() if isinstance(code, Dynamic) else code,
                "mode": mode.model_dump() if isinstance(mode, Dynamic) else mode,
            }
            if isinstance(mode, Dynamic):
                dangerous = mode
            elif mode == "unsafe":
                dangerous = code
        entry = self.kit.entry(
            "agent",
            role if isinstance(role, str) and role else fallback,
            site,
            name_expr=name_expression(p, call.kw("role")),
            model=model_value(p, call.kw("llm")),
            instructions_sha256=text_digest([(k, texts.get(k)) for k in ("role", "goal", "backstory")]),
            dangerous=dangerous,
            extra=extra,
        )
        cand = self.kit.add(identity, entry)
        for item in self.kit.items(call.kw("tools"), site, "tools"):
            cand.reach.extend(self.tool_item(item.expr, item.conditional, site))
        return identity

    def agent_item(self, expr: Expr, conditional: bool, owner: Site, fn: FunctionFact | None = None) -> list[str]:
        method = self_method(self.program, fn, expr)
        if method is not None:
            return [method]
        return self.kit.agent_item(expr, conditional, owner, "agent")

    def tool_item(self, expr: Expr, conditional: bool, owner: Site) -> list[str]:
        p = self.program
        value, var = self.kit.follow(expr)
        if isinstance(value, Ref) and value.name in p.functions:
            return self.kit.attached(value.name, conditional)
        if isinstance(value, Call):
            origin = p.origin(value.func) or ""
            if origin in p.classes:
                return self.kit.attached(origin, conditional)
            if origin in p.functions:
                return [origin]
            if from_package(origin, ("crewai_tools", "crewai")) and leaf(origin)[:1].isupper():
                return self.external(origin, value.line, owner, conditional, var)
            if origin:
                self.kit.warn(owner.path, value.line, f"tool {describe(value)} from outside the repository is not analysed", ("external tool", shape(value)))
                return [origin]
        return self.kit.named_tool(value, expr, owner)

    def external(self, origin: str, line: int, owner: Site, conditional: bool, var: str | None) -> list[str]:
        name = TOOL_NAMES.get(leaf(origin), leaf(origin)) if from_package(origin, ("crewai_tools",)) else leaf(origin)
        ids = self.kit.external(origin, line, owner, conditional, var, name, public="crewai_tools")
        self.tool_ids.update(ids)
        return ids

    # -- crews and tasks ------------------------------------------------------------------------

    def crew(self, call: Call, site: Site, fn: FunctionFact | None) -> None:
        call = self.program.spread_call(call)
        members: list[str] = []
        declared = self.crewbase_members(fn, call.kw("agents"), "agents")
        if declared is not None:
            members += declared
        else:
            for item in self.kit.items(call.kw("agents"), site, "crew agents"):
                members += self.agent_item(item.expr, item.conditional, site, fn)
        manager = None
        if call.kw("manager_agent") is not None:
            got = self.agent_item(call.kw("manager_agent"), site.conditional, site, fn)
            manager = got[0] if got else None
        # CrewBase's `self.tasks`: its `@task` methods, whose Tasks are read where they are built.
        tasks = call.kw("tasks") if self.crewbase_members(fn, call.kw("tasks"), "tasks") is None else None
        for item in self.kit.items(tasks, site, "crew tasks"):
            value, _ = self.kit.follow(item.expr)
            if isinstance(value, Call) and from_package(self.program.origin(value.func), ("crewai",), "Task"):
                self.task(value, Site(site.path, value.line, item.conditional), fn)
        self.crews.append((members, manager))
        if site.root:
            for m in [*members, *([manager] if manager else [])]:
                cand = self.kit.by_symbol(m)
                if cand is not None and cand.entry.kind == "agent":
                    cand.entry.root = True

    def task(self, call: Call, site: Site, fn: FunctionFact | None) -> None:
        call = self.program.spread_call(call)
        agent_expr = call.kw("agent")
        if agent_expr is None:
            return
        targets = self.agent_item(agent_expr, site.conditional, site, fn)
        cand = self.kit.by_symbol(targets[0]) if targets else None
        tools = call.kw("tools")
        if cand is None:
            if tools is not None:
                self.kit.warn(site.path, call.line, f"task tools attached to agent {describe(agent_expr)}, which is not statically known", ("task agent", shape(agent_expr)))
            return
        for item in self.kit.items(tools, site, "task tools"):
            cand.reach.extend(self.tool_item(item.expr, item.conditional, site))
        human = self.program.evaluate(call.kw("human_input")) if call.kw("human_input") is not None else False
        if human is True:
            cand.entry.extra["human_input"] = True
        elif isinstance(human, Dynamic):
            cand.entry.extra["human_input"] = human.model_dump()

    def delegation(self) -> None:
        for members, manager in self.crews:
            for m in members:
                cand = self.kit.by_symbol(m)
                if cand is not None and "allow_delegation" in cand.entry.extra:
                    cand.reach.extend(x for x in members if x != m)
            if manager is not None:
                cand = self.kit.by_symbol(manager)
                if cand is not None:
                    cand.reach.extend(members)

    # -- hooks ----------------------------------------------------------------------------------

    def hooks(self) -> None:
        p = self.program
        gated: set[str] = set()
        gate_all = False
        for fn in p.iter_functions():
            for dec in fn.decorators:
                func, call = decorator_call(dec)
                origin = p.origin(func)
                if from_package(origin, _HOOKS, "before_tool_call"):
                    pass
                elif from_package(origin, _HOOKS, "on") and call is not None and call.args and (p.origin(call.args[0]) or "").endswith("PRE_TOOL_CALL"):
                    pass
                else:
                    continue
                if not can_block(fn):
                    continue
                names = self.hook_filter(fn, call)
                if names is None:
                    gate_all = True
                else:
                    gated |= names
        for effect in p.iter_effects():
            c = effect.call
            origin = p.origin(c.func)
            hook: Expr | None = None
            if from_package(origin, _HOOKS, "register_before_tool_call_hook") and c.args:
                hook = c.args[0]
            elif (from_package(origin, _HOOKS, "register_hook") or origin == "crewai.hooks.dispatch.register") and len(c.args) > 1 and (
                p.origin(c.args[0]) or ""
            ).endswith("PRE_TOOL_CALL"):
                hook = c.args[1]  # `register_hook(InterceptionPoint.PRE_TOOL_CALL, fn)`: the generic API
            if isinstance(hook, Ref):
                fn = p.functions.get(p.canonical(hook.name))
                if fn is not None and can_block(fn):
                    gate_all = True
        if not gate_all and not gated:
            return
        for identity in sorted(self.tool_ids):
            cand = self.kit.get(identity)
            if cand is None or cand.entry.approval != "never":
                continue
            if gate_all or sanitize_tool_name(cand.entry.name) in gated:
                cand.entry.approval = "conditional"
                cand.entry.trust_tier = trust_from("conditional")  # type: ignore[assignment]

    def hook_filter(self, fn: FunctionFact, call: Call | None) -> set[str] | None:
        """Sanitised tool names a hook is limited to; None when it applies to every tool."""
        expr = call.kw("tools") if call is not None else None
        if expr is None or (isinstance(expr, Const) and expr.value is None):
            return None
        names = self.program.evaluate(expr)
        if isinstance(names, list) and all(isinstance(n, str) for n in names):
            return {sanitize_tool_name(n) for n in names}
        self.kit.warn(self.program.path_of(fn.symbol), fn.line, f"hook {fn.name}: tool filter not statically known ({describe(expr)})", ("hook tool filter", shape(expr)))
        return set()

    # -- driver ---------------------------------------------------------------------------------

    def crewbase_class(self, fn: FunctionFact | None) -> ClassFact | None:
        """The `@CrewBase` class a method belongs to, if it does."""
        if fn is None or fn.owner_class is None:
            return None
        cls = self.program.classes.get(fn.owner_class)
        if cls is None or not any(from_package(self.program.origin(decorator_call(d)[0]), ("crewai.project", "crewai"), "CrewBase") for d in cls.decorators):
            return None
        return cls

    def crewbase_agent(self, fn: FunctionFact) -> bool:
        """An `@agent` method of a `@CrewBase` class (the crew's declared members)."""
        if self.crewbase_class(fn) is None:
            return False
        return any(from_package(self.program.origin(decorator_call(d)[0]), ("crewai.project",), "agent") for d in fn.decorators)

    def crewbase_members(self, fn: FunctionFact | None, expr: Expr | None, attr: str) -> list[str] | None:
        """`Crew(agents=self.agents)` in a `@CrewBase` method: CrewBase fills `self.agents` with what
        its `@agent` methods return (`self.tasks`: its `@task` methods), so the members are known.
        None when `expr` is not that attribute of such a class."""
        cls = self.crewbase_class(fn)
        if cls is None or not isinstance(expr, (Ref, Dyn)):
            return None
        spelt = expr.name if isinstance(expr, Ref) else expr.src
        if spelt not in (f"self.{attr}", f"{cls.symbol}.{attr}"):
            return None
        if attr != "agents":
            return []
        return [m.symbol for m in self.program.iter_functions() if m.owner_class == cls.symbol and self.crewbase_agent(m) and self.kit.by_symbol(m.symbol) is not None]

    def run(self) -> DialectResult:
        p = self.program
        for fn in p.iter_functions():
            for dec in fn.decorators:
                found = self.is_tool_decorator(dec)
                if found is not False:
                    self.decorated(fn, found if isinstance(found, Call) else None)
                    break
        for cls in p.iter_classes():
            if self.is_tool_class(cls):
                self.tool_class(cls)
        self.kit.assigned_agents()
        for fn in p.iter_functions():
            for r in fn.returns_exprs:
                self.returned(fn, r)
        self.kit.bind_factory_results()
        self.crews_and_tasks()
        self.delegation()
        self.hooks()
        return self.kit.result()

    def returned(self, fn: FunctionFact, expr: Expr) -> None:
        """A factory's agent, or a CrewBase `@agent` method's: exported and conditional with its class."""
        if self.crewbase_agent(fn):
            cls = self.program.classes[fn.owner_class or ""]
            self.kit.returned(fn, expr, module_level_public(self.program, cls.symbol), cls.conditional)
        else:
            self.kit.returned(fn, expr)

    def crews_and_tasks(self) -> None:
        """Crews and tasks wherever they are built: module level, factories, CrewBase methods."""
        p = self.program
        seen: set[tuple[str, int, str]] = set()

        def visit(call: Call, site: Site, fn: FunctionFact | None) -> None:
            origin = p.origin(call.func)
            is_crew = from_package(origin, ("crewai",), "Crew")
            if not is_crew and not from_package(origin, ("crewai",), "Task"):
                return  # most calls are neither: skip rendering them as text for the seen-key
            key = (site.path, call.line, describe(call))
            if key in seen:
                return
            if is_crew:
                seen.add(key)
                self.crew(call, site, fn)
            elif from_package(origin, ("crewai",), "Task"):
                seen.add(key)
                self.task(call, site, fn)

        for m in p.modules.values():
            for a in m.assigns:
                if "<locals>" not in a.target and isinstance(a.value, Call):
                    visit(a.value, Site(m.path, a.line, a.conditional, True), None)
            for e in m.effects:
                visit(e.call, Site(m.path, e.call.line, e.conditional, True), None)
        for fn in p.iter_functions():
            public = builds_root(p, fn.symbol)
            for c in fn.calls:
                visit(c, Site(p.path_of(fn.symbol), c.line, True, public), fn)
            for r in fn.returns_exprs:  # calls whose callee is `self.x` are not in fn.calls
                if isinstance(r, Call):
                    visit(r, Site(p.path_of(fn.symbol), r.line, True, public), fn)


def extract(program: Program) -> DialectResult:
    return _Crew(program).run()
