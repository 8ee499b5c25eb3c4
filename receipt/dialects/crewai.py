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
  `dangerous`. An agent with `allow_delegation=True` reaches the other agents of its crews. A
  repository subclass of Agent gives every field the call leaves out its class default, looked up
  in the class's C3 method resolution order; a base whose attributes cannot be read (unresolved,
  another library's class) makes a field it may set dynamic, as does `config=` beside a default.
  A repository class of that order whose `__init__`, `model_post_init` or pydantic validator may
  set fields (anything but passing its keywords to `super().__init__` unchanged and reading), or
  whose methods assign `self.allow_code_execution` / `self.code_execution_mode`, makes those two
  fields dynamic whatever the call passes: what that code sets is not read.
- `Crew(agents=[...], tasks=[...], manager_agent=...)`: a crew built at module level (or in a
  public module-level function) makes its agents exported; the manager reaches every member.
- `Task(agent=..., tools=[...])`: task tools are reached by the task's agent.
  `Task(human_input=True)` asks a human to review the task's *final answer*; it gates no tool
  call, so it is not mapped to tool approval (it is noted as `extra["human_input"]` on the agent).
- `@CrewBase` classes: `@agent` methods returning `Agent(...)` are exported agents named by role
  (else the method name); `self.<method>()` references between methods are followed;
  `Crew(agents=self.agents, tasks=self.tasks)` in such a class has its `@agent` methods as members
  (what CrewBase fills `self.agents` with), so delegation and a manager reach them.
- Approval hooks, by every path CrewAI registers a PRE_TOOL_CALL hook (`crewai.hooks`):
  `@before_tool_call` (bare or `(tools=[...], agents=[...])`, or called on a function),
  `@on(point, tools=[...])`, `register_before_tool_call_hook(fn)`, `register_hook(point, fn)`
  (also `dispatch.register`, `register_scoped`), at module level or inside a function. The point
  is compared by value (`InterceptionPoint.PRE_TOOL_CALL`, an alias or variable of it, the string
  "pre_tool_call"). CrewAI blocks a call only when a hook returns the object `False` or raises
  `HookAborted` (other exceptions are swallowed; an async hook never runs), so only such a hook
  makes the tools it filters on (names compared the way CrewAI sanitises them; every CrewAI tool
  when the filter is absent or empty) `approval="conditional"`; one whose return value, raised
  exception, callable, point or filter is not statically known makes them `dynamic`. Hooks that
  only observe (or return a payload, or raise another exception) change nothing. A hook's
  `agents=` filter runs it only when the calling agent's `role` is in it (compared by value, as
  CrewAI tests `role not in agents`; a falsy filter filters nothing): a tool is `conditional` only
  when the hook covers every agent of the repository that calls it (own or task tools); an agent
  it does not cover leaves the tool `never`; a role or filter not statically known (`config=`, a
  `{placeholder}` filled from the kickoff inputs), or a tool no agent of the repository calls,
  makes it `dynamic`. A hook counts where CrewAI really registers it: a registration in a function
  nothing calls registers nothing; under a condition (or in a function only other functions call)
  it makes the approval `dynamic`; a `(self, context)` method outside a `@CrewBase` class is never
  registered. An unregister of the hooks API in the repository makes the hook it names `dynamic`
  (every hook when the one it names is not statically known, or named by a name bound more than
  once: `trace = approve`); a clear makes every hook `dynamic`, unless it names another
  interception point than PRE_TOOL_CALL; so does any hold on the live hook list
  (`get_global_hook_list(point)`, `tool_hooks._before_tool_call_hooks`, changed in place), and any
  remover whose arguments are not read: called with `*args`, passed on (`partial`, `map`), in a
  lambda's body, or possibly fetched by `getattr` from CrewAI's hooks modules. A def carrying a
  decorator other than CrewAI's hook decorators or a repository function returning its parameter
  is what that decorator returns: a blocking hook so wrapped is `dynamic`, and an unregister naming
  such a def may name any hook. A return
  or raise of a def in the hook's body is merged into the hook's by the facts (dynamic then), and
  a HookAborted raised in a `try` whose own except may catch it is `dynamic` (a re-raise is not seen).
- Roots: public module-level agents, agents of module-level crews, agents returned by public
  module-level factories (conditional).
- Library tools (`FileReadTool()`): one entry per class, named as the library names it
  (`_crewai_tool_names.py`: "Read a file's content"), whichever module path imports it.

Not recognised: agents/tasks defined only in YAML (their text is dynamic), an `args_schema`
model outside the tree, library tools newer than the name table (named after their class), LLM hooks.
"""

from __future__ import annotations

import ast
import re
import unicodedata
from typing import Any, Callable, NamedTuple

from receipt.dialects._agentkit import (
    Kit,
    builds_root,
    Site,
    from_package,
    model_value,
    self_method,
    text_digest,
)
from receipt.dialects._crewai_tool_names import TOOL_NAMES
from receipt.dialects.base import DialectResult, as_bool, decorator_call, digest, leaf, module_level_public, name_expression, shape, signature_of, trust_from
from receipt.extract.facts import Attr, Call, ClassFact, Const, Dyn, Expr, FunctionFact, Map, ModuleFacts, Ref, Seq, Splat, nodes_in
from receipt.extract.program import Program, describe
from receipt.models import Dynamic, Signature
from receipt.schemas import with_args_schema

NAME = "crewai"
_TOOL_PKGS = ("crewai.tools", "crewai_tools")
_BASE_TOOL_PKGS = ("crewai.tools", "crewai_tools", "crewai")
_AGENTS = ("Agent",)
_HOOKS = ("crewai.hooks",)


_OBSERVES, _MAY_BLOCK, _BLOCKS = 0, 1, 2  # what a before-tool-call hook can do to the call
# What removes a before-tool-call hook (crewai.hooks, hooks/tool_hooks.py, hooks/dispatch.py; crewai.hooks
# re-exports dispatch's unregister/clear/clear_all as unregister_hook/clear_hooks/clear_all_hooks), by
# what it removes: the hook it is given (and the point it names, when it takes one), every hook at the
# point it names, or every before-tool-call hook.
_REMOVES_HOOK = {"unregister_before_tool_call_hook": None, "unregister": 0, "unregister_hook": 0}  # -> index of the point
_REMOVES_AT_POINT = ("clear", "clear_hooks")
_REMOVES_ALL = ("clear_before_tool_call_hooks", "clear_all_tool_call_hooks", "clear_all_global_hooks", "clear_all", "clear_all_hooks")
_REMOVERS = (*_REMOVES_HOOK, *_REMOVES_AT_POINT, *_REMOVES_ALL)
# CrewAI's live hook lists, changed in place by whoever holds them (hooks/dispatch.py, tool_hooks.py).
_LIVE_LISTS = frozenset({"get_global_hook_list", "_before_tool_call_hooks", "_global_hooks"})
_SUBSCRIPTED = re.compile(r"([A-Za-z_][\w.]*)\[")
# Bases of an Agent subclass that set no Agent field (anything else a class derives from may).
_PLAIN_BASES = frozenset({"builtins.object", "abc.ABC", "typing.Generic", "pydantic.BaseModel", "pydantic.main.BaseModel"})
# Agent fields a method of a repository subclass may set as the agent is built, which then reads
# as dynamic: those that make it run code outside the Docker sandbox.
_SET_IN_METHODS = ("allow_code_execution", "code_execution_mode")
_FIELD_SETTERS = frozenset({"__init__", "__new__", "model_post_init", "__setattr__"})
# pydantic's validators; the last two validate only the fields they name (what `field_setter` reads).
_VALIDATORS = ("model_validator", "root_validator", "field_validator", "validator")
_HOOK_DEPTH = 4  # repository helpers a hook calls, followed this deep
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_\-]*)}")  # crewai.utilities.string_utils._VARIABLE_PATTERN


def _text_verdict(src: str, name: Callable[[str], Any] = lambda _: Dynamic(dynamic="")) -> int:
    """What an expression the facts keep only as text (`None if ok else False`, a lambda, a
    comparison) may return, read from that text: the object False (a literal, a name whose value
    `name` knows to be False, or a comparison or `not`, which give a bool), never it (another
    known value, an f-string, a container), or unknown."""
    try:
        node = ast.parse(src, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return _MAY_BLOCK  # cut short, or odd: not known

    def of(n: ast.AST, depth: int) -> int:
        if depth > 16:
            return _MAY_BLOCK
        if isinstance(n, ast.Constant):
            return _BLOCKS if n.value is False else _OBSERVES
        if isinstance(n, ast.Name):
            value = name(n.id)
            return _BLOCKS if value is False else _MAY_BLOCK if isinstance(value, Dynamic) else _OBSERVES
        if isinstance(n, ast.Compare) or isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not):
            return _BLOCKS
        if isinstance(n, ast.IfExp):
            return max(of(n.body, depth + 1), of(n.orelse, depth + 1))
        if isinstance(n, ast.BoolOp):  # `a and b` is one of its operands
            return max(of(v, depth + 1) for v in n.values)
        if isinstance(n, ast.Lambda):
            return of(n.body, depth + 1)
        if isinstance(n, (ast.JoinedStr, ast.List, ast.Tuple, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)):
            return _OBSERVES
        return _MAY_BLOCK

    return of(node, 0)


def sanitize_tool_name(name: str) -> str:
    """CrewAI's tool-name normalisation (hook filters and LLM-facing names are compared this way)."""
    name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    name = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", name)
    name = re.sub(r"([a-z])([A-Z])", r"\1_\2", name)
    name = name.lower()
    name = re.sub(r"['\"]+", "", name)
    name = re.sub(r"[^a-zA-Z0-9]+", "_", name)
    return re.sub(r"_+", "_", name).strip("_")


class _Gate(NamedTuple):
    names: set[str] | None  # sanitised tool names it is limited to; None: every tool
    agents: Any  # roles it is limited to (list, tuple or str); None: every agent; Dynamic: not known
    verdict: int
    why: str
    hook: str | None = None  # the repository function registered (what an unregister names); None: not known
    # The modules of the processes it is registered in (`_Crew.process_modules`); None: any.
    modules: frozenset[str] | None = None


class _Crew:
    def __init__(self, program: Program):
        self.program = program
        self.kit = Kit(program, NAME, self.is_agent, self.agent)
        self.crews: list[tuple[list[str], str | None]] = []  # (member identities, manager identity)
        self.tool_ids: set[str] = set()
        self.roles: dict[str, str | Dynamic] = {}  # agent identity -> its role at run time

    # -- classification -------------------------------------------------------------------------

    def is_agent(self, origin: str | None) -> bool:
        if from_package(origin, ("crewai",), *_AGENTS) and not from_package(origin, ("crewai.project",)):
            return True
        cls = self.kit.class_of(origin)
        return cls is not None and self.kit.subclass_of(cls, ("crewai",), "Agent", "BaseAgent")

    def is_tool_decorator(self, dec: Expr) -> Call | None | bool:
        func, call = decorator_call(dec, self.program)
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
        entry = self.kit.entry("tool", name, site, signature=_fields_of(signature_of(fn)), description_sha256=digest(fn.doc), extra=extra,
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
        signature = with_args_schema(p, _fields_of(signature_of(run)) if run is not None else None, args_schema)
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
        setting = self.settings(call, p.origin(call.func), identity)
        for key in ("role", "goal", "backstory"):
            expr = setting(key)
            if expr is not None:
                texts[key] = p.text(expr)
            elif config is not None:
                texts[key] = Dynamic(dynamic=f"{describe(config)}[{key!r}]")
        role = texts.get("role")
        # What a hook's `agents=` filter is compared with at run time (`context.agent.role`): a
        # `{placeholder}` in it is replaced from the kickoff inputs first (BaseAgent.interpolate_inputs).
        self.roles[identity] = role if isinstance(role, str) and not _PLACEHOLDER.search(role) else Dynamic(
            dynamic=f"agent {fallback}'s role " + ("is filled from the kickoff inputs" if isinstance(role, str) else "not statically known"))
        extra: dict[str, Any] = {}
        dangerous: Any = False
        delegation = as_bool(p.evaluate(setting("allow_delegation")), False)
        if delegation is not False:
            extra["allow_delegation"] = delegation.model_dump() if isinstance(delegation, Dynamic) else delegation
        code = as_bool(p.evaluate(setting("allow_code_execution")), False)
        if code is not False:
            mode = p.evaluate(setting("code_execution_mode")) if setting("code_execution_mode") is not None else "safe"
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
            model=model_value(p, setting("llm")),
            instructions_sha256=text_digest([(k, texts.get(k)) for k in ("role", "goal", "backstory")]),
            dangerous=dangerous,
            extra=extra,
        )
        cand = self.kit.add(identity, entry)
        # A class default is read where the class says it: what cannot be read there is noted there
        # (a pull request editing only the class is shown it), and inline tools are placed there.
        where = site if call.kw("tools") is not None or config is not None else self.default_site(p.origin(call.func), "tools", site)
        for item in self.kit.items(setting("tools"), where, "tools", identity, "tools"):
            found = self.tool_item(item.expr, item.conditional, where)
            cand.reach.extend(found)
            if where.path != site.path:
                cand.listed_at.update((r, (where.path, where.line)) for r in found)
        return identity

    def default_site(self, origin: str | None, key: str, site: Site) -> Site:
        """Where the class default of `key` an agent of class `origin` takes is written: the class
        attribute (`class Researcher(Agent): tools = ...`), or the repository class deriving from
        a base whose attributes cannot be read (a base of another library); `site` (the
        constructor call) when no repository class gives it. Same `conditional` and `root`."""
        last: ClassFact | None = None
        for cls in self.agent_mro(origin):
            if isinstance(cls, str):  # `class_default` reads it as "key of <base>": noted at `last`
                return site if last is None else Site(self.program.path_of(last.symbol), last.line, site.conditional, site.root)
            if key in cls.attrs:
                return Site(self.program.path_of(cls.symbol), cls.attr_lines.get(key, cls.line), site.conditional, site.root)
            last = cls
        return site

    def settings(self, call: Call, origin: str | None, owner: str | None = None) -> Callable[[str], Expr | None]:
        """What an Agent field is set to: what is set on the agent after construction (`owner`: its
        variable; `Kit.set_later`), else the constructor's keyword, else the default a repository
        subclass gives it (`class Researcher(Agent): tools: list = [search]`, a pydantic field's
        default), else None (CrewAI's own default). With `config=`, a field the call leaves out
        comes from the config when it names it (crewai.utilities.config.process_config), so a
        class default is then only one of two values: not known."""
        config = call.kw("config")
        mro = self.agent_mro(origin)
        setter = self.field_setter(mro)

        def setting(key: str) -> Expr | None:
            later = self.kit.set_later(call, owner, key)
            if later is not None:
                return later
            if setter is not None and key in _SET_IN_METHODS:
                return Dyn(f"{key} as {setter} leaves it", "set in a method")
            expr = call.kw(key)
            if expr is not None:
                return expr
            found = self.class_default(mro, key)
            if found is not None and config is not None:
                return Dyn(f"{describe(config)}[{key!r}] or {describe(found)}", "config")
            return found

        return setting

    def agent_mro(self, origin: str | None) -> list[ClassFact | str]:
        """The method resolution order (C3, as Python computes it) of a repository subclass of
        Agent, as far as the repository shows it: its classes, and in place of a base whose class
        attributes cannot be read (not resolved, or a class of another library than CrewAI) the
        base's text. CrewAI's own classes are passed over: pydantic reads a field's default as the
        class attribute the whole order resolves, and CrewAI's models keep none. A hierarchy
        whose order cannot be computed (too deep, or inconsistent) is one unreadable entry."""
        p = self.program

        def linear(symbol: str, depth: int) -> list[str] | None:
            cls = p.classes.get(symbol)
            if cls is None:
                return [symbol]
            if depth > 16:
                return None
            bases = [p.origin(b) or f"?{describe(b)}" for b in cls.bases]
            seqs = []
            for b in bases:
                got = linear(b, depth + 1)
                if got is None:
                    return None
                seqs.append(got)
            seqs.append(list(bases))
            out = [symbol]
            while any(seqs):
                seqs = [s for s in seqs if s]
                head = next((s[0] for s in seqs if not any(s[0] in t[1:] for t in seqs)), None)
                if head is None:
                    return None  # Python refuses such a class (TypeError): nothing is known
                out.append(head)
                seqs = [s[1:] if s[0] == head else s for s in seqs]
            return out

        if origin is None or origin not in p.classes:
            return []
        order = linear(origin, 0)
        if order is None:
            return [f"the bases of {leaf(origin)}"]
        out: list[ClassFact | str] = []
        for symbol in order:
            cls = p.classes.get(symbol)
            if cls is not None:
                out.append(cls)
            elif from_package(symbol, ("crewai",)):
                # CrewAI's Agent, BaseAgent: pydantic keeps no class attribute for their fields, so
                # a field's default is looked up further on (`class R(Agent, Mixin)`: Mixin's).
                continue
            elif symbol not in _PLAIN_BASES:
                out.append(symbol.removeprefix("?"))
        return out

    def field_setter(self, mro: list[ClassFact | str]) -> str | None:
        """`Class.method` of the first repository class in the order whose code may set any field
        when the agent is built (`__init__` rewriting its keywords, `model_post_init`, a pydantic
        model or field validator on a field it may name): None when there is none. What such code
        sets is not read."""
        p = self.program
        for cls in mro:
            if isinstance(cls, str):
                continue
            for key in _SET_IN_METHODS:  # `self.allow_code_execution = True` in any method
                if any(a.conditional for a in p.assigns.get(f"{cls.symbol}.{key}", ())):
                    return f"a method of {cls.name} assigning self.{key}"
            for symbol in cls.methods:
                fn = p.functions.get(symbol)
                if fn is None or self.passes_through(fn, cls):
                    continue
                if fn.name in _FIELD_SETTERS:
                    return f"{cls.name}.{fn.name}"
                for dec in fn.decorators:
                    func, call = decorator_call(dec, p)
                    origin = p.origin(func)
                    if from_package(origin, ("pydantic",), *_VALIDATORS):
                        named = [p.evaluate(a) for a in call.args] if call is not None and leaf(origin or "") in _VALIDATORS[2:] else None
                        if named is None or call is None or call.star or not all(isinstance(n, str) and n not in _SET_IN_METHODS and n != "*" for n in named):
                            return f"{cls.name}.{fn.name}"
        return None

    def passes_through(self, fn: FunctionFact, cls: ClassFact) -> bool:
        """Whether a method certainly sets no field: it changes none of its parameters in place,
        returns only a parameter as it came (a validator's `data` or `self`), hands its keyword
        parameters unchanged to `super().__init__`, and gives neither `self` nor a parameter to
        any other call nor calls a method of its own (`log.info(...)`, `self.role` read: fine)."""
        if fn.mutates or fn.indirect or any(not (isinstance(r, Dyn) and r.why == "parameter" and r.src.isidentifier()) for r in fn.returns_exprs):
            return False
        params = {q.name for q in fn.params}
        for c in fn.calls:
            func = c.func
            if isinstance(func, Ref) and self.program.origin(func) == "builtins.super":
                continue
            if isinstance(func, Attr) and func.attr == "__init__" and isinstance(func.value, Call) and self.program.origin(func.value.func) == "builtins.super":
                if any(k in _SET_IN_METHODS for k, _ in c.kwargs) or not all(
                        isinstance(a, Dyn) and a.why == "parameter" and a.src in params or isinstance(a, Splat) and isinstance(a.value, Dyn) and a.value.src in params
                        for a in (*c.args, *(v for _, v in c.kwargs), *c.spread)):
                    return False
                continue
            if isinstance(func, Ref) and func.name.startswith(f"{cls.symbol}.") and "." not in func.name[len(cls.symbol) + 1:]:
                return False  # `self.enable()`: a method of the class, which may set anything
            for node in nodes_in(c, (Dyn,)):
                root = re.match(r"[A-Za-z_]\w*", node.src) if node.why == "parameter" else None  # type: ignore[union-attr]
                if root is not None and root.group(0) in params:
                    return False
        return True

    @staticmethod
    def class_default(mro: list[ClassFact | str], key: str) -> Expr | None:
        """The class attribute `key` as the agent's class resolves it; a Dyn when a base that
        cannot be read comes first."""
        for cls in mro:
            if isinstance(cls, str):
                return Dyn(f"{key} of {cls}", "inherited")
            if key in cls.attrs:
                return cls.attrs[key]
        return None

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
            value, var = self.kit.follow(item.expr)
            if isinstance(value, Call) and from_package(self.program.origin(value.func), ("crewai",), "Task"):
                self.task(value, Site(site.path, value.line, item.conditional), fn, var)
        self.crews.append((members, manager))
        if site.root:
            for m in [*members, *([manager] if manager else [])]:
                cand = self.kit.by_symbol(m)
                if cand is not None and cand.entry.kind == "agent":
                    cand.entry.root = True

    def task(self, call: Call, site: Site, fn: FunctionFact | None, var: str | None = None) -> None:
        """`var`: the variable holding the task, when it is one (what is set on it later counts)."""
        built = call
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
        # `refund_task.human_input = False` after construction (or on the crew's list item) is what runs
        asked = self.kit.set_later(built, var, "human_input") or call.kw("human_input")
        human = self.program.evaluate(asked) if asked is not None else False
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
    #
    # What CrewAI does with a PRE_TOOL_CALL hook (crewai/hooks/tool_hooks.py, dispatch.py): every
    # registration path feeds one queue run through `before_tool_call_reducer`, which blocks the
    # call only when the hook returns the very object `False` (`result is False`: not None, not
    # 0, not a string) or raises `HookAborted`; any other exception is swallowed (fail-open). An
    # async hook is never awaited: its coroutine is not False, and nothing in its body runs.

    def hooks(self) -> None:
        p = self.program
        gates: list[_Gate] = []

        def gate(hook: Expr | FunctionFact, names: set[str] | None | Dynamic, point: bool | Dynamic = True, agents: Any = None, when: str | None = None,
                 site: str | None = None) -> None:
            """`site`: the path of the registration (a global hook gates the calls of the process it runs in)."""
            if point is False:
                return
            verdict, why = self.hook_verdict(hook) if not isinstance(hook, FunctionFact) else self.function_verdict(hook, 0)
            if verdict == _OBSERVES:
                return
            if when is not None:  # registered only on some runs
                verdict, why = _MAY_BLOCK, when
            if isinstance(point, Dynamic):
                verdict, why = _MAY_BLOCK, f"interception point {point.dynamic} not statically known"
            if isinstance(names, Dynamic):
                verdict, why, names = _MAY_BLOCK, f"tool filter {names.dynamic} not statically known", None
            modules = self.process_modules(site) if site is not None else None
            gates.append(_Gate(names, agents, verdict, why, hook.symbol if isinstance(hook, FunctionFact) else self.hook_symbol(hook), modules))

        for fn in p.iter_functions():
            for at, dec in enumerate(fn.decorators):
                func, call = decorator_call(dec, p)
                origin = p.origin(func)
                is_hook = from_package(origin, _HOOKS, "before_tool_call")
                if not is_hook and not (from_package(origin, _HOOKS, "on") and call is not None):
                    continue
                # CrewAI's decorators register nothing for a function whose first of two or more
                # parameters is `self` (hooks/decorators.py, dispatch.on: `is_method`); CrewBase
                # registers such methods of its classes when the crew is built.
                if len(fn.params) >= 2 and fn.params[0].name == "self" and self.crewbase_class(fn) is None:
                    continue
                when = f"hook {fn.name} is defined (so registered) only on some runs" if fn.conditional and fn.owner_class is None else None
                wrapper = self.wrapped_by(fn, at + 1)  # applied first: CrewAI registers what it returns
                if wrapper is not None:
                    when = f"hook {fn.name} is wrapped by {describe(wrapper)}, which may not return what it returns"
                point = True if is_hook else self.pre_tool_call(call.arg(0, "point"))  # type: ignore[union-attr]
                gate(fn, self.hook_filter(fn, call), point, self.agent_filter(fn, call), when, p.path_of(fn.symbol))
        def relevant(c: Call) -> bool:
            return isinstance(c.func, Call) or from_package(p.origin(c.func), _HOOKS)

        # (call, path, when, the function whose body makes it). A module's calls include those of
        # its function bodies (flagged conditional): those are read with their function instead.
        sites: list[tuple[Call, str, str | None, FunctionFact | None]] = []
        for fn in p.iter_functions():
            for c in fn.calls:
                if relevant(c):
                    sites.append((c, p.path_of(fn.symbol), None, fn))
        in_bodies = {c for c, _, _, _ in sites}
        for c, conditional, m in p.iter_calls():
            if relevant(c) and c not in in_bodies:
                sites.append((c, m.path, f"registered under a condition ({m.path}:{c.line})" if conditional else None, None))
        registering = {caller.symbol for _, _, _, caller in sites if caller is not None}
        called: dict[str, list[bool]] = {}  # function -> how it is called: True at module level unconditionally
        if registering:
            body_calls = {c for fn in p.iter_functions() for c in fn.calls}
            for c, conditional, _ in p.iter_calls():
                if (target := p.origin(c.func)) in registering:
                    called.setdefault(target, []).append(not conditional and c not in body_calls)
            for fn in p.iter_functions():
                for c in fn.calls:
                    if (target := p.origin(c.func)) in registering:
                        called.setdefault(target, []).append(False)
        removed: list[tuple[str | None, str]] = self.live_list_uses()  # (the hook removed, None: any; where)
        removed += [(None, f"{what} at {m.path}:{line}") for m, (line, what) in p.scan("crewai.remover values", _remover_values)]
        for c, path, when, caller in sites:
            origin = p.origin(c.func)
            if origin and _LIVE_LISTS & set(origin.split(".")[:-1]):
                continue  # a method of the live list (`get_global_hook_list(point).clear()`): live_list_uses
            if from_package(origin, _HOOKS, *_REMOVERS):
                removal = self.removal(c, leaf(origin or ""))
                if removal is not False:
                    removed.append((removal, f"{leaf(origin or '')} at {path}:{c.line}"))
                continue
            if caller is not None:
                # Registered when the function runs: never, if nothing of the repository calls it;
                # on the runs that call it otherwise (unless a module body calls it unconditionally).
                how = called.get(caller.symbol, [])
                if not how:
                    continue
                if not any(how):
                    when = f"registered only when {caller.name} runs"
            if from_package(origin, _HOOKS, "register_before_tool_call_hook") and c.arg(0, "hook") is not None:
                gate(c.arg(0, "hook"), None, when=when, site=path)  # type: ignore[arg-type]
            elif from_package(origin, _HOOKS, "register_hook", "register", "register_scoped") and c.arg(1, "hook") is not None:
                gate(c.arg(1, "hook"), None, self.pre_tool_call(c.arg(0, "point")), when=when, site=path)  # type: ignore[arg-type]
            elif from_package(origin, _HOOKS, "before_tool_call") and c.args and not isinstance(c.func, Call):
                # the decorator called on a function, its filters beside it: `before_tool_call(fn, tools=...)`
                gate(c.args[0], self.hook_filter(None, c), True, self.agent_filter(None, c), when, path)
            elif isinstance(c.func, Call) and c.args:  # `before_tool_call(tools=...)(fn)`, `on(point)(fn)`
                inner = c.func
                inner_origin = p.origin(inner.func)
                if from_package(inner_origin, _HOOKS, "before_tool_call"):
                    gate(c.args[0], self.hook_filter(None, inner), True, self.agent_filter(None, inner), when, path)
                elif from_package(inner_origin, _HOOKS, "on"):
                    gate(c.args[0], self.hook_filter(None, inner), self.pre_tool_call(inner.arg(0, "point")), self.agent_filter(None, inner), when, path)
        if removed:
            # A hook unregistered or cleared somewhere: whether it is still there when a tool is
            # called depends on what ran before. An unregister naming another hook removes not this one.
            def removing(g: _Gate) -> list[str]:
                return sorted({where for hook, where in removed if hook is None or g.hook is None or hook == g.hook})

            gates = [g._replace(verdict=_MAY_BLOCK, why="hooks are removed at run time (" + ", ".join(r) + ")") if (r := removing(g)) else g
                     for g in gates]
        if not gates:
            return
        # A hook limited to some agents gates a tool only when the calling agent's role is among
        # them; a tool's approval is what holds whichever agent of the repository calls it.
        callers: dict[int, list[str | Dynamic]] = {}
        for identity, cand in sorted(self.kit.cands.items()):
            if cand.entry.kind != "agent":
                continue
            role = self.roles.get(identity, Dynamic(dynamic=f"agent {cand.entry.name}'s role not statically known"))
            for r in sorted(set(cand.reach)):
                tool = self.kit.get(r) or self.kit.by_symbol(r)
                if tool is not None and tool.entry.kind == "tool":
                    callers.setdefault(id(tool), []).append(role)
        for identity in sorted(self.tool_ids):
            cand = self.kit.get(identity)
            if cand is None or cand.entry.approval != "never":
                continue
            name = sanitize_tool_name(cand.entry.name)
            module = p.module_at(cand.entry.path)
            covering = [g for g in gates if (g.names is None or name in g.names) and (g.modules is None or module in g.modules)]
            if not covering:
                continue
            # No agent of the repository reaches it: whoever calls it is not known.
            roles: list[str | Dynamic | None] = list(callers.get(id(cand), [])) or [None]
            verdicts = [self.caller_verdict(covering, role) for role in roles]
            if any(v == _OBSERVES for v, _ in verdicts):
                continue  # some agent calls it with no hook able to stop the call
            if all(v == _BLOCKS for v, _ in verdicts):
                approval: Any = "conditional"
            else:
                approval = Dynamic(dynamic="a before-tool-call hook may block it: " + "; ".join(sorted({w for v, why in verdicts if v == _MAY_BLOCK for w in why})))
            cand.entry.approval = approval
            cand.entry.trust_tier = trust_from(approval)  # type: ignore[assignment]

    @staticmethod
    def caller_verdict(gates: list[_Gate], role: str | Dynamic | None) -> tuple[int, set[str]]:
        """What the hooks covering a tool can do to a call made by an agent of `role` (None: not
        known who calls), with the reasons when that is not known. CrewAI's filter skips the hook
        when `agents` is truthy and `context.agent.role not in agents` (a list compares roles by
        equality, a string by substring)."""
        best, whys = _OBSERVES, set()
        for g in gates:
            verdict, why = g.verdict, g.why
            if g.agents is not None:
                if isinstance(g.agents, Dynamic):
                    verdict, why = _MAY_BLOCK, f"agent filter {g.agents.dynamic} not statically known"
                elif role is None:
                    verdict, why = _MAY_BLOCK, "its hook is limited to some agents and no agent of the repository reaches it"
                elif isinstance(role, Dynamic):
                    verdict, why = _MAY_BLOCK, role.dynamic
                elif role not in g.agents:
                    continue
            if verdict == _MAY_BLOCK:
                whys.add(why)
            best = max(best, verdict)
        return best, (whys if best == _MAY_BLOCK else set())

    def agent_filter(self, fn: FunctionFact | None, call: Call | None) -> Any:
        """The roles a hook is limited to (a list, tuple or string, as CrewAI tests `role not in
        agents`); None when it applies to every agent (no filter, or a falsy one: `if agents:`);
        Dynamic when the filter is not statically known."""
        expr = call.kw("agents") if call is not None else None
        if expr is None:
            return None
        value = self.program.evaluate(expr)
        if not isinstance(value, Dynamic) and not value:
            return None
        if isinstance(value, str) or isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
            return value
        if fn is not None:
            self.kit.warn(self.program.path_of(fn.symbol), fn.line, f"hook {fn.name}: agent filter not statically known ({describe(expr)})", ("hook agent filter", shape(expr)))
        return Dynamic(dynamic=describe(expr))

    def pre_tool_call(self, expr: Expr | None) -> bool | Dynamic:
        """Whether an interception point is PRE_TOOL_CALL, by value: `InterceptionPoint` is a str enum,
        so its member, an alias or variable holding it, its value "pre_tool_call" (or another str
        enum's member of that value) all register there."""
        p = self.program
        if expr is None:
            return False
        value = p.value_of(expr)
        origin = p.origin(value) if isinstance(value, Ref) else None
        if origin:
            owner, _, attr = origin.removesuffix(".value").rpartition(".")
            if from_package(owner, ("crewai",), "InterceptionPoint"):
                return attr == "PRE_TOOL_CALL"
        if isinstance(value, Call) and from_package(p.origin(value.func), ("crewai",), "InterceptionPoint") and len(value.args) == 1:
            value = value.args[0]  # `InterceptionPoint("pre_tool_call")`
        got = p.evaluate(value)
        if isinstance(got, str):
            return got == "pre_tool_call"
        return Dynamic(dynamic=describe(expr))

    def process_modules(self, path: str) -> frozenset[str] | None:
        """The modules a process running the code at `path` can hold: those of its project (the
        layout's: a folder with its own pyproject.toml in a monorepo of separate apps) and every
        repository module they import, to any depth. None when the tree is one project: any
        module. A hook registered in one app gates no call of another app's process."""
        p = self.program
        own = p.module_at(path)
        if own is None or len({p.project_of(name) for name in p.modules}) < 2:
            return None
        project = p.project_of(own)
        memo: dict[str, frozenset[str]] = self.__dict__.setdefault("_process_modules", {})
        if project not in memo:
            todo = [name for name in p.modules if p.project_of(name) == project]
            seen = set(todo)
            while todo:
                m = p.modules[todo.pop()]
                for origin in [*m.imports.values(), *m.star_imports]:
                    split = p.module_split(origin)
                    if split is not None and split[0] not in seen and split[0] in p.modules:
                        seen.add(split[0])
                        todo.append(split[0])
            memo[project] = frozenset(seen)
        return memo[project]

    def hook_function(self, hook: Expr | None, decorated: bool = False) -> FunctionFact | None:
        """The repository function a hook expression certainly denotes (registered, or named by an
        unregister): followed through names bound once; None when a name on the way is bound more
        than once (`def trace(...)` and `trace = approve`, or a rebinding under a condition), as
        which function it holds then depends on what ran, and for a def with a decorator that may
        return another object (unless `decorated`: the def itself, its decorators left to the caller)."""
        p = self.program
        expr = p.uncast(hook)
        for _ in range(16):
            if not isinstance(expr, Ref):
                return None
            symbol = p.canonical(expr.name)
            assigns = p.assigns.get(symbol, ())
            fn = p.functions.get(symbol)
            if fn is not None:
                # A decorated def's name holds what its decorators return, which may be another object.
                return fn if not assigns and (decorated or self.wrapped_by(fn) is None) else None
            if len(assigns) != 1 or assigns[0].op != "=":
                return None
            expr = p.uncast(assigns[0].value)
        return None

    def wrapped_by(self, fn: FunctionFact, below: int = 0) -> Expr | None:
        """The first of `fn`'s decorators (from index `below` on: those applied before it) that may
        return another object than the function (a wrapper dropping its False, a replacement); None
        when each is CrewAI's own hook decorator or a repository function returning its parameter."""
        p = self.program
        for dec in fn.decorators[below:]:
            func, call = decorator_call(dec, p)
            origin = p.origin(func)
            if from_package(origin, _HOOKS):
                continue  # CrewAI's hook decorators mark and register the function, and return it
            helper = p.functions.get(origin or "") if call is None else None
            if helper is not None and helper.params and helper.returns_exprs and self.nested_exits(helper) is None and all(
                    isinstance(r, Dyn) and r.why == "parameter" and r.src == helper.params[0].name for r in helper.returns_exprs):
                continue
            return dec
        return None

    def hook_symbol(self, hook: Expr | None) -> str | None:
        """The symbol of the repository function a hook expression denotes; None when not known."""
        fn = self.hook_function(hook)
        return fn.symbol if fn is not None else None

    def live_list_uses(self) -> list[tuple[str | None, str]]:
        """Where the repository gets hold of CrewAI's live list of before-tool-call hooks, which it
        may then change in place (append, remove, clear, `del [:]`): `get_global_hook_list(point)`
        (hooks/dispatch.py hands out the list itself, "mutate it in place") for that point or one
        not known, the list tool_hooks keeps as `_before_tool_call_hooks`, dispatch's
        `_global_hooks`: called on, passed on, bound to a name or deleted from. What is done with
        it is not followed, so every hook counts as possibly removed from there (None)."""
        p = self.program
        out: list[tuple[str | None, str]] = []

        def live(expr: Expr | None, module: str) -> bool:
            if isinstance(expr, Attr):
                return live(expr.value, module)
            if isinstance(expr, Call):
                if from_package(p.origin(expr.func), _HOOKS, "get_global_hook_list"):
                    return self.pre_tool_call(expr.arg(0, "point")) is not False
                return live(expr.func, module)
            if isinstance(expr, Dyn):  # `dispatch._global_hooks[point].clear`: its text only
                spelt = _SUBSCRIPTED.match(expr.src)
                return spelt is not None and live(Ref(f"{module}.{spelt.group(1)}"), module)
            if not isinstance(expr, Ref) or leaf(expr.name) not in _LIVE_LISTS and not _LIVE_LISTS & set(expr.name.split(".")):
                return False  # most names: no lookup
            origin = p.origin(expr) or ""
            return from_package(origin, _HOOKS) and bool({"_before_tool_call_hooks", "_global_hooks"} & set(origin.split(".")))

        def visit(c: Call, path: str, module: str) -> None:
            if live(c, module) or any(live(a, module) for a in (*c.args, *(v for _, v in c.kwargs))):
                out.append((None, f"the live hook list at {path}:{c.line}"))

        body_calls: set[Call] = set()
        for fn in p.iter_functions():
            body_calls.update(fn.calls)
            for c in fn.calls:
                visit(c, p.path_of(fn.symbol), self.module_name(fn))
        for c, _, m in p.iter_calls():
            if c not in body_calls:
                visit(c, m.path, m.module)
        for m in p.modules.values():
            for a in m.assigns:
                if live(Ref(a.target), m.module) or live(a.value, m.module):
                    out.append((None, f"the live hook list at {m.path}:{a.line}"))
        return out

    def removal(self, call: Call, name: str) -> str | None | bool:
        """What a remover call takes away from the before-tool-call hooks: one hook (its function's
        symbol), any (None: all of them, or one not statically known), or nothing (False: a point
        other than PRE_TOOL_CALL)."""
        if name in _REMOVES_ALL or call.star:
            return None  # `unregister_hook(*ARGS)`: which point and hook it names is not read
        point_at = 0 if name in _REMOVES_AT_POINT else _REMOVES_HOOK[name]
        if point_at is not None and self.pre_tool_call(call.arg(point_at, "point")) is False:
            return False  # `clear_hooks(InterceptionPoint.POST_TOOL_CALL)`: another point's hooks
        if name in _REMOVES_AT_POINT:
            return None
        return self.hook_symbol(call.arg(1 if point_at is not None else 0, "hook"))

    def hook_verdict(self, hook: Expr) -> tuple[int, str]:
        """A hook given as an expression: a repository function, a lambda, else not known."""
        p = self.program
        fn = self.hook_function(hook, decorated=True)
        if fn is not None:
            verdict = self.function_verdict(fn, 0)
            wrapper = self.wrapped_by(fn)
            if wrapper is not None and verdict[0] != _OBSERVES:
                return _MAY_BLOCK, f"hook {fn.name} is wrapped by {describe(wrapper)}, which may not return what it returns"
            return verdict
        value = p.value_of(hook)
        if isinstance(value, Dyn) and value.why == "lambda":
            return _text_verdict(value.src), f"returns {value.src}"
        return _MAY_BLOCK, f"hook {describe(hook)} not statically known"

    def function_verdict(self, fn: FunctionFact, depth: int) -> tuple[int, str]:
        """(_BLOCKS | _MAY_BLOCK | _OBSERVES, why) for a hook function, as CrewAI's reducer decides."""
        if fn.is_async:
            return _OBSERVES, ""
        found = [self.raise_verdict(fn, depth)]
        home = self.module_name(fn)
        for r in fn.returns_exprs:
            found.append(self.return_verdict(r, depth, home))
        verdict = max(found, key=lambda v: v[0])
        # The facts merge a nested def's raises and calls into the enclosing function's (factories
        # need them; its returns are its own), and keep no position to tell them apart: when a nested
        # scope has any, a verdict read from them may be the nested function's, not the hook's.
        if verdict[0] != _OBSERVES:
            nested = self.nested_exits(fn)
            if nested:
                return _MAY_BLOCK, f"{fn.name} defines {nested}, whose returns and raises cannot be told apart from its own"
        return verdict

    def nested_exits(self, fn: FunctionFact) -> str | None:
        """The first function defined in `fn`'s body that raises or calls a repository function;
        None when there is none. Only those are merged (extract/python.py scans a def that is a
        statement of the body, not the defs inside it, nor a local class's methods)."""
        p = self.program
        prefix = f"{fn.symbol}.<locals>."
        for symbol in sorted(s for s in p.functions if s.startswith(prefix) and "." not in s[len(prefix):]):
            inner = p.functions[symbol]
            if inner.raises or any(p.origin(c.func) in p.functions for c in inner.calls):
                return inner.name
        return None

    def return_verdict(self, expr: Expr, depth: int, module: str) -> tuple[int, str]:
        """What returning `expr` (in `module`) does to the call."""
        p = self.program
        value = p.evaluate(expr)
        if value is False:
            return _BLOCKS, ""
        if not isinstance(value, Dynamic):
            return _OBSERVES, ""  # None, True, a string, 0: not the object False
        target = p.value_of(expr)
        if isinstance(target, Dyn):
            verdict = _text_verdict(target.src, lambda n: p.evaluate(Ref(f"{module}.{n}")))
            return verdict, f"returns {target.src}" if verdict == _MAY_BLOCK else ""
        if isinstance(target, Call) and depth < _HOOK_DEPTH:
            helper = p.functions.get(p.origin(target.func) or "")
            if helper is not None and not helper.is_async:  # what the helper returns is returned
                home = self.module_name(helper)
                return max((self.return_verdict(r, depth + 1, home) for r in helper.returns_exprs), key=lambda v: v[0], default=(_OBSERVES, ""))
        return _MAY_BLOCK, f"returns {describe(expr)}"

    def module_name(self, fn: FunctionFact) -> str:
        m = self.program.module_of.get(fn.symbol)
        return m.module if m is not None else fn.symbol.rpartition(".")[0]

    def raise_verdict(self, fn: FunctionFact, depth: int) -> tuple[int, str]:
        """Whether running `fn` may raise HookAborted: its own raises, and those of the repository
        functions it calls (other exceptions are swallowed by the dispatcher)."""
        p = self.program
        best: tuple[int, str] = (_OBSERVES, "")
        guarded = dict(fn.guarded)
        for i, exc in enumerate(fn.raises):
            target = exc.func if isinstance(exc, Call) else exc
            origin = p.origin(target)
            cls = p.classes.get(origin or "")
            if from_package(origin, ("crewai",), "HookAborted") or cls is not None and self.kit.subclass_of(cls, ("crewai",), "HookAborted"):
                catching = [h for h in guarded.get(i, ()) if self.may_catch_hook_aborted(h)]
                if not catching:
                    return _BLOCKS, ""
                # Caught in the function itself: whether the handler re-raises is not in the facts.
                best = max(best, (_MAY_BLOCK, f"{fn.name} raises {describe(exc)} inside a try whose except {describe(catching[0])} may catch it"), key=lambda v: v[0])
                continue
            if cls is not None:
                continue  # an exception class of the repository: swallowed
            if origin and (p.is_external(origin) or origin.startswith("builtins.")) and leaf(origin)[:1].isupper():
                continue  # a library's or Python's exception class: swallowed
            best = max(best, (_MAY_BLOCK, f"raises {describe(exc)}"), key=lambda v: v[0])
        if depth < _HOOK_DEPTH:
            for c in fn.calls:
                helper = p.functions.get(p.origin(c.func) or "")
                if helper is not None and helper is not fn and not helper.is_async:
                    got = self.raise_verdict(helper, depth + 1)
                    if got[0] == _BLOCKS:
                        return got
                    best = max(best, got, key=lambda v: v[0])
        return best

    def may_catch_hook_aborted(self, handler: Expr) -> bool:
        """Whether `except <handler>` may catch a HookAborted (an Exception): not when it names only
        other exception classes of Python or a library."""
        p = self.program
        if isinstance(handler, Seq):
            return any(self.may_catch_hook_aborted(h) for h in handler.items)
        origin = p.origin(handler) if isinstance(handler, Ref) else None
        if origin is None or from_package(origin, ("crewai",)) or origin in p.classes:
            return True
        if origin in ("builtins.Exception", "builtins.BaseException"):
            return True
        return not ((p.is_external(origin) or origin.startswith("builtins.")) and leaf(origin)[:1].isupper())

    def hook_filter(self, fn: FunctionFact | None, call: Call | None) -> set[str] | None | Dynamic:
        """Sanitised tool names a hook is limited to; None when it applies to every tool (no filter,
        or an empty one: CrewAI tests `if tools:`); Dynamic when the filter is not statically known."""
        expr = call.kw("tools") if call is not None else None
        if expr is None:
            return None
        names = self.program.evaluate(expr)
        if names is None or names == [] or names == ():
            return None
        if isinstance(names, list) and all(isinstance(n, str) for n in names):
            return {sanitize_tool_name(n) for n in names}
        if fn is not None:
            self.kit.warn(self.program.path_of(fn.symbol), fn.line, f"hook {fn.name}: tool filter not statically known ({describe(expr)})", ("hook tool filter", shape(expr)))
        return Dynamic(dynamic=describe(expr))

    # -- driver ---------------------------------------------------------------------------------

    def crewbase_class(self, fn: FunctionFact | None) -> ClassFact | None:
        """The `@CrewBase` class a method belongs to, if it does."""
        if fn is None or fn.owner_class is None:
            return None
        cls = self.program.classes.get(fn.owner_class)
        if cls is None or not any(from_package(self.program.origin(decorator_call(d, self.program)[0]), ("crewai.project", "crewai"), "CrewBase") for d in cls.decorators):
            return None
        return cls

    def crewbase_agent(self, fn: FunctionFact) -> bool:
        """An `@agent` method of a `@CrewBase` class (the crew's declared members)."""
        if self.crewbase_class(fn) is None:
            return False
        return any(from_package(self.program.origin(decorator_call(d, self.program)[0]), ("crewai.project",), "agent") for d in fn.decorators)

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

        def visit(call: Call, site: Site, fn: FunctionFact | None, var: str | None = None) -> None:
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
                self.task(call, site, fn, var)

        for m in p.modules.values():
            for a in m.assigns:
                if "<locals>" not in a.target and isinstance(a.value, Call):
                    visit(a.value, Site(m.path, a.line, a.conditional, True), None, a.target if a.op == "=" else None)
            for e in m.effects:
                visit(e.call, Site(m.path, e.call.line, e.conditional, True), None)
        for fn in p.iter_functions():
            public = builds_root(p, fn.symbol)
            for c in fn.calls:
                visit(c, Site(p.path_of(fn.symbol), c.line, True, public), fn)
            for r in fn.returns_exprs:  # calls whose callee is `self.x` are not in fn.calls
                if isinstance(r, Call):
                    visit(r, Site(p.path_of(fn.symbol), r.line, True, public), fn)


_NAMES = re.compile(r"(?<![\w.])[A-Za-z_][\w.]*")  # dotted names in source text, not after a dot


_HOOK_MODULES = ("hooks", "dispatch", "tool_hooks")  # what `getattr(crewai, ...)` may fetch a remover through


def _direct_refs(expr: Expr) -> list[Ref]:
    """The names an argument passes on (itself, or items of a container or splat in it); those of
    a call inside it are that call's arguments, read with it."""
    if isinstance(expr, Ref):
        return [expr]
    if isinstance(expr, (Seq, Splat)):
        items = expr.items if isinstance(expr, Seq) else (expr.value,)
        return [r for i in items for r in _direct_refs(i)]
    if isinstance(expr, Map):
        return [r for k, v in expr.items for r in (*_direct_refs(k), *_direct_refs(v))]
    return []


def _remover(p: Program, expr: Expr) -> str | None:
    """The hooks API remover `expr` names (a Ref, or a module's dotted name in a lambda's text)."""
    origin = p.origin(expr)
    return leaf(origin) if origin and from_package(origin, _HOOKS, *_REMOVERS) else None


def _remover_values(p: Program, m: ModuleFacts) -> list[tuple[int, str]]:
    """(line, what) for each use of a hook remover that is not a call of it, whose point and hook
    are therefore not read: passed on (`partial(unregister_hook, point)`, `map(...)`), put in a
    container, returned, or called from a lambda's body (whose calls the facts do not hold), and
    each `getattr` of CrewAI's hooks module (`getattr(hooks, "clear_all_hooks")()`) that may fetch
    one. A plain alias (`remove = unregister_hook`) is not a use: the program resolves its calls."""
    exprs: list[tuple[Expr, int]] = [(e.call, e.call.line) for e in m.effects]
    exprs += [(a.value, a.line) for a in m.assigns if not (a.op == "=" and isinstance(a.value, Ref))]
    for fn in m.functions:
        exprs += [(c, c.line or fn.line) for c in fn.calls]
        exprs += [(r, fn.line) for r in fn.returns_exprs]
        exprs += [(q.default_expr, fn.line) for q in fn.params if q.default_expr is not None]
    out: list[tuple[int, str]] = []
    for expr, line in exprs:
        for node in nodes_in(expr, (Call, Dyn)):
            if node.__class__ is Dyn:
                if node.why != "lambda":  # type: ignore[union-attr]
                    continue
                for spelt in sorted(set(_NAMES.findall(node.src))):  # type: ignore[union-attr]
                    got = _remover(p, Ref(f"{m.module}.{spelt}"))
                    if got is not None:
                        out.append((line, f"{got} in a lambda"))
                continue
            call: Call = node  # type: ignore[assignment]
            if isinstance(call.func, Ref) and p.origin(call.func) == "builtins.getattr" and call.args:
                origin = p.origin(call.args[0]) or ""
                if origin in ("crewai", *_HOOKS) or from_package(origin, _HOOKS):  # the package, a module of it
                    name = p.evaluate(call.args[1]) if len(call.args) > 1 else None
                    if not isinstance(name, str) or name in _REMOVERS or name in _HOOK_MODULES:
                        out.append((line, f"getattr({', '.join(describe(a) for a in call.args)})"))
                continue
            for a in (*call.args, *(v for _, v in call.kwargs), *call.spread):
                for r in _direct_refs(a):
                    got = _remover(p, r)
                    if got is not None:
                        out.append((line, f"{got} passed to {describe(call.func)}()"))
    seen: set[tuple[int, str]] = set()
    return [x for x in out if not (x in seen or seen.add(x))]  # type: ignore[func-returns-value]


def extract(program: Program) -> DialectResult:
    return _Crew(program).run()


def _fields_of(signature: Signature) -> Signature:
    """The parameters CrewAI makes the schema the model fills from (`BaseTool._default_args_schema`,
    `CrewStructuredTool.from_function`): the named ones; `*args` and `**kwargs` are left out of it,
    so adding or dropping them changes nothing the model sees."""
    signature.params = [q for q in signature.params if not q.name.startswith("*")]
    return signature
