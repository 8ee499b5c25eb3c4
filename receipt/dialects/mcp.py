"""MCP servers: the official MCP Python SDK (this module) and, through the shared core below, the
standalone `fastmcp` package (`receipt.dialects.fastmcp`).

Recognised, by import origin only (a local class that happens to be called `FastMCP` is not a server):

- SDK servers: `FastMCP` (`mcp.server.fastmcp`, `mcp.server`), v2 `MCPServer` (`mcp.server.mcpserver`,
  `mcp.server`), low-level `Server` (`mcp.server.lowlevel`, `mcp.server`); `fastmcp.FastMCP`; and
  repository subclasses of any of them.
- Tools and prompts: `@server.tool` / `@server.tool()` / `@server.tool("name", ...)`, `@server.prompt...`,
  `server.tool(fn, ...)`, `server.add_tool(fn, ...)`, `server.add_tool(Tool.from_function(fn, ...))`,
  `server.add_prompt(Prompt.from_function(fn, ...))`, `FastMCP(tools=[...])`.
- Low-level servers: `@server.list_tools()` / `@server.list_prompts()` handlers and v2
  `Server(..., on_list_tools=handler)`: the entries are the `types.Tool(...)` / `types.Prompt(...)` items
  (or `{"name": ...}` dicts) of the handler's return values, followed through variables, module
  constants, `append`/`extend`, and `ListToolsResult(tools=...)`.
- Receivers resolved across modules (`from .server import mcp`), through aliases, and through a
  registration function's parameter (`def register(mcp: FastMCP): @mcp.tool() ...` + `register(server)`),
  an instance attribute set from one (`self.mcp = mcp` in `__init__`, `self.mcp.tool(...)(self.m)`),
  a server class's own instance (`self.add_tool(...)` / `@self.tool()` in a method of `class S(FastMCP)`:
  on every server built from S or a subclass of it; conditional unless registered in `__init__` or in
  a method `__init__` calls; a class no instance of which is built is reported),
  and a decorator factory applied to the tool (`audited(mcp, "name", **options)(fn)` whose decorator
  registers `fn` or its `functools.wraps` wrapper): each application is a tool with its own options.
- fastmcp composition: `mount` / `import_server` with `prefix=`, `namespace=`, the second positional
  argument, or the pre-2.9 `mount("prefix", server)` order. A server that is only mounted is exported
  through its parents (names `prefix_tool`, scope = the root server's name); it keeps its own
  exported names too when it is also served (`sub.run()`, `sub.http_app()`, ...).
- Writes straight into a server's private component tables (`mcp._tool_manager._tools[name] = tool`,
  `... = {}`, `.update(...)`, `del ...`, on a server variable or a parameter some call site passes
  one to) are reported as unresolved: what the table then holds is not followed.
- Resources and resource templates are deliberately ignored: they are data, not actions.

Safety attributes are the MCP tool-annotation hints with the spec's defaults applied (readOnlyHint
false, destructiveHint true, idempotentHint false, openWorldHint true); destructive and idempotent only
mean something for a tool that is not read-only, so a read-only tool is never dangerous and always
idempotent. Hints may be spelled camelCase (`readOnlyHint`, SDK v1 field names, v2 aliases) or
snake_case (`read_only_hint`, SDK v2 field names), in `ToolAnnotations(...)`, a dict, a module constant
or a helper function. MCP has no approval concept: approval stays `never` unless a native marker
overlays it.
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Iterator

from receipt.dialects.base import (
    Candidate,
    DialectResult,
    as_bool,
    assigned_later,
    decorator_call,
    digest,
    issue,
    name_expression,
    shape,
    leaf,
    signature_of,
    split_method,
)
from receipt.extract.facts import (
    AssignFact,
    Attr,
    Call,
    Concat,
    Const,
    Dyn,
    Expr,
    FunctionFact,
    Map,
    ModuleFacts,
    Ref,
    Seq,
    Splat,
    nodes_in,
)
from receipt.extract.program import Item, Program, calls_in, describe
from receipt.models import Dynamic, Entry, ExtractionIssue, Param, Signature
from receipt.schemas import input_schema_signature

NAME = "mcp"

_SDK_HIGH = ("FastMCP", "MCPServer")
_SDK_LOW = ("Server",)
_HINTS = {
    "readOnlyHint": "read_only",
    "read_only_hint": "read_only",
    "destructiveHint": "destructive",
    "destructive_hint": "destructive",
    "idempotentHint": "idempotent",
    "idempotent_hint": "idempotent",
    "openWorldHint": "open_world",
    "open_world_hint": "open_world",
}
_HINT_NAMES = ("read_only", "destructive", "idempotent", "open_world")
_SERVE = frozenset({"run", "run_async", "run_stdio_async", "run_http_async", "run_sse_async",
                    "run_streamable_http_async", "http_app", "sse_app", "streamable_http_app"})
_REGISTER = frozenset({"tool", "prompt", "add_tool", "add_prompt", "mount", "import_server", "remove_tool", "remove_prompt"})
# FastMCP 3+: `mcp.enable(...)` / `mcp.disable(...)` add visibility rules, applied in order (the later
# rule wins) over what each component's own `enabled=` says; `exclude_tags=` became `mcp.disable(tags=...)`.
_VISIBILITY = frozenset({"enable", "disable"})
_VISIBILITY_CRITERIA = ("names", "keys", "tags", "components", "version")
# Servers whose components come from elsewhere at run time (a remote server, an OpenAPI spec).
_GENERATED = frozenset({"as_proxy", "from_openapi", "from_fastapi", "create_proxy"})
_MAX_DEPTH = 8
_REGISTER_OR_SERVE = _REGISTER | _SERVE | _VISIBILITY
# A low-level server's list handlers, registered by decorator (`@server.list_tools()`) or by applying
# it (`server.list_tools()(handler)`, `self.app.list_tools()(self.list_tools)` in a class's `__init__`).
_LIST_HANDLERS = frozenset({"list_tools", "list_prompts"})
_REGISTER_METHODS = frozenset({"tool", "add_tool", "prompt", "add_prompt"})
_REGISTER_ENDINGS = ("tool", "prompt")  # what each of them ends with (a test that builds no string)
# Private component managers of FastMCP servers; registering through them is registering on the server.
_MANAGERS = frozenset({"_tool_manager", "_prompt_manager"})


# --- recognising framework names ------------------------------------------------------------------


def _server_class(origin: str | None) -> tuple[str, bool] | None:
    """(flavor, low-level?) when `origin` is an MCP server class."""
    if not origin:
        return None
    name = leaf(origin)
    if origin.startswith("mcp.server.") or origin in ("mcp.FastMCP", "mcp.MCPServer"):
        if name in _SDK_HIGH:
            return "mcp", False
        if name in _SDK_LOW and origin.startswith("mcp.server."):
            return "mcp", True
    if (origin.startswith("fastmcp.") or origin == "fastmcp") and name == "FastMCP":
        return "fastmcp", False
    return None


def _framework(origin: str | None, *leaves: str) -> bool:
    """A name from the MCP SDK or fastmcp with one of these leaf names (`mcp.types.Tool`); SDK v2's
    standalone `mcp_types` package is what `mcp.types` re-exports (the same objects)."""
    return bool(origin) and origin.split(".", 1)[0] in ("mcp", "mcp_types", "fastmcp") and leaf(origin) in leaves  # type: ignore[union-attr]


# --- analysis model -------------------------------------------------------------------------------


@dataclass
class Server:
    symbol: str
    flavor: str  # "mcp" | "fastmcp"
    lowlevel: bool
    name: str  # the scope of its entries
    conditional: bool
    call: Call
    path: str
    include_tags: frozenset[str] | None = None
    exclude_tags: frozenset[str] = frozenset()
    # `name` is the variable (or factory) the server is bound to: its own name is computed or left to
    # the framework, so clients never see this one. Renaming that variable is no change (identity.py).
    named_by_variable: bool = False

    @property
    def site_name(self) -> str:
        """The server as a note's identity names it: not by a variable a pull request may rename."""
        return "" if self.named_by_variable else self.name


@dataclass
class Registration:
    """One tool/prompt on one server, before mount prefixes are applied."""

    server: str
    entry: Entry
    symbols: set[str] = field(default_factory=set)
    enabled: bool = True


@dataclass
class Mount:
    parent: str
    child: str
    prefix: str | Dynamic | None
    conditional: bool


@dataclass(frozen=True)
class View:
    """How a server's components reach callers: through which root server, under which prefixes."""

    root: str
    prefixes: tuple[str, ...]
    conditional: bool
    chain: tuple[str, ...]  # servers from the root down to the registering one (for tag filters)
    links: tuple[str | None, ...] = ()  # the prefix of each mount along `chain` (None: none), root's first


@dataclass
class Analysis:
    servers: dict[str, Server] = field(default_factory=dict)
    registrations: list[Registration] = field(default_factory=list)
    mounts: list[Mount] = field(default_factory=list)
    served: set[str] = field(default_factory=set)
    issues: list[tuple[str, ExtractionIssue]] = field(default_factory=list)  # (flavor, issue)
    # server -> its visibility rules in order: (enables, {criterion: values} or None when not
    # statically known, conditional); see `_visible`
    visibility: dict[str, list[tuple[bool, dict[str, frozenset[str]] | None, bool]]] = field(default_factory=dict)


_CACHE: "weakref.WeakKeyDictionary[Program, Analysis]" = weakref.WeakKeyDictionary()


def analyse(program: Program) -> Analysis:
    """All MCP servers of the program and what is registered on them (computed once per program)."""
    cached = _CACHE.get(program)
    if cached is None:
        cached = _CACHE[program] = _Analyser(program).run()
    return cached


# --- the analyser ---------------------------------------------------------------------------------


class _Analyser:
    def __init__(self, program: Program):
        self.p = program
        self.a = Analysis()
        self._call_paths: dict[int, str] | None = None
        self._own_calls: dict[str, set[int]] = {}  # a handler module's path -> ids of its calls and dicts
        self._sites: dict[str, list[tuple[Call, bool, str | None]]] | None = None
        self.removed: list[tuple[str, str, str, bool]] = []  # (server, kind, name, conditional)
        self.collected: set[tuple[str, str, str]] = set()  # (function, kind, server) noted by `collected_for`
        self._factories: set[str] = set()  # functions whose returned server an assignment holds
        self._held_reported: set[str] = set()  # instance attributes reported by `held_servers`
        self._site_paths: dict[int, str] = {}  # id(statement call site) -> its module's path
        self._sites_reported: set[tuple[str, str, str, int, str]] = set()  # call sites `param_servers` reported
        self._function_lines: set[tuple[str, int]] | None = None  # (callee, line) of call sites in function bodies
        self._registering: dict[str, str] = {}  # registration function -> a parameter it registers through

    # -- servers

    def _server_kind(self, call: Call) -> tuple[str, bool] | None:
        return _server_kind(self.p, call)

    def find_servers(self) -> None:
        for m, a in self.p.scan("mcp.servers", _server_assigns):
            if a.op != "=" or not isinstance(a.value, Call):
                continue
            origin = self.p.origin(a.value.func) or ""
            generated = origin.startswith("fastmcp.") and leaf(origin) in _GENERATED
            if generated:
                self.warn("fastmcp", m.path, a.line, f"MCP server {a.target.rsplit('.', 1)[-1]} = {leaf(origin)}(...) gets its "
                          "components at run time; they are not in the surface", site=("runtime server", leaf(origin)))
            # Still a FastMCP server: what the code registers on it explicitly is read as on any other.
            call = a.value if generated else self._constructed(a.value)
            kind = ("fastmcp", False) if generated else (self._server_kind(call) if call is not None else None)
            if kind is None or call is None or a.target in self.a.servers:
                continue
            flavor, low = kind
            name = self.p.evaluate(call.kw("name") if generated else self._name_passed(call))
            by_variable = not isinstance(name, str) or not name
            if by_variable:
                # Dynamic or defaulted (the frameworks then invent one): the variable names it.
                name = a.target.rsplit(".", 1)[-1]
            server = Server(a.target, flavor, low, name, a.conditional or "<locals>" in a.target, call, m.path, named_by_variable=by_variable)
            if flavor == "fastmcp":
                server.include_tags = self._tag_set(call.kw("include_tags"))
                server.exclude_tags = self._tag_set(call.kw("exclude_tags")) or frozenset()
            self.a.servers[a.target] = server
        self._returned_servers()

    def _returned_servers(self) -> None:
        """A factory that builds its server in the return statement (`return Server("x",
        on_list_tools=...)`) and that no assignment in the tree calls (it is handed to a runner): the
        server is the factory's result, registered by its constructor's arguments."""
        found = {fn.symbol: fn for _m, fn in self.p.scan("mcp.returned servers", _server_factories)}
        for symbol, fn in sorted(found.items()):
            if symbol in self._factories or self.p.functions.get(symbol) is not fn:  # (as the program holds it)
                continue
            made = [r for r in fn.returns_exprs if isinstance(r, Call) and self._server_kind(r) is not None]
            if len(made) != 1:
                continue
            flavor, low = self._server_kind(made[0])  # type: ignore[misc]
            name = self.p.evaluate(made[0].arg(0, "name"))
            by_variable = not isinstance(name, str) or not name
            if by_variable:
                name = symbol.rsplit(".", 1)[-1]
            target = f"{symbol}.<return>"
            self.a.servers[target] = Server(target, flavor, low, name, True, made[0], self.p.path_of(symbol), named_by_variable=by_variable)

    def _constructed(self, call: Call) -> Call | None:
        """The server constructor call an assigned value makes: the call itself, or the one a repository
        factory returns (`def make(name): return FastMCP(name)`; `mcp = make("ops")`), its parameters
        bound to the caller's arguments."""
        if self._server_kind(call) is not None:
            return call
        fn = self.p.functions.get(self.p.origin(call.func) or "")
        if fn is None or call.star:
            return None
        made = [r for r in fn.returns_exprs if isinstance(r, Call) and self._server_kind(r) is not None]
        if len(made) != 1:
            return None
        self._factories.add(fn.symbol)
        return substitute(made[0], bind(fn, call))  # type: ignore[return-value]

    def _name_passed(self, call: Call, depth: int = 0) -> Expr | None:
        """The server name a constructor call gives the framework's class: its first argument or
        `name=`; for a repository subclass, what its `__init__` passes on (`super().__init__(name=name)`,
        the parameter bound to this call's argument or its default), through the classes between."""
        origin = self.p.origin(call.func) or ""
        c = self.p.classes.get(origin)
        if c is None or _server_class(origin) or depth > _MAX_DEPTH:
            return call.arg(0, "name")
        bases = [b for b in (self.p.origin(x) for x in c.bases) if b]
        if not bases:
            return None
        init = self.p.functions.get(f"{origin}.__init__")
        if init is None:  # inherited: the first base (of the repository, or the framework's) takes the call
            return self._name_passed(Call(Ref(bases[0]), call.args, call.kwargs, call.line, call.star), depth + 1)
        passed = [k for k in init.calls if k.func.__class__ is Attr and k.func.attr == "__init__"  # type: ignore[union-attr]
                  and k.func.value.__class__ is Call and self.p.origin(k.func.value.func) == "builtins.super"]  # type: ignore[union-attr]
        if len(passed) != 1 or call.star:
            return None
        bound = bind(init, call, instance=True)
        onward = substitute(Call(Ref(bases[0]), passed[0].args, passed[0].kwargs, call.line, passed[0].star), bound)
        return self._name_passed(onward, depth + 1) if isinstance(onward, Call) else None

    def _tag_set(self, expr: Expr | None) -> frozenset[str] | None:
        if expr is None:
            return None
        value = self.p.evaluate(expr)
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return frozenset(value)
        return None  # unknowable filters: do not guess that they hide anything

    # -- receivers

    def server_of(self, expr: Expr | None, depth: int = 0) -> str | None:
        """The server an expression denotes: a variable (across modules) or a factory's return."""
        if isinstance(expr, Ref):
            symbol = self.p.canonical(expr.name)
            owner, _, attr = symbol.rpartition(".")
            if attr in _MANAGERS:  # `mcp._tool_manager.add_tool(f)` registers on `mcp`
                symbol = self.p.canonical(owner)
            if symbol in self.a.servers:
                return symbol
            # `server = None` until it is built holds no server: the one other value is what it holds.
            bound = self.p.built_once(symbol)
            if bound is not None and isinstance(bound.value, (Call, Ref)) and depth < _MAX_DEPTH:
                return self.server_of(bound.value, depth + 1)  # `mcp = make_server()`, `server = primary`
            return None
        if isinstance(expr, Call) and depth < _MAX_DEPTH:
            fn = self.p.functions.get(self.p.origin(expr.func) or "")
            if fn is not None:
                for r in fn.returns_exprs:
                    s = self.server_of(r, depth + 1)
                    if s:
                        return s
        return None

    def receivers(self, expr: Expr, owner: str | None, path: str, line: int, *, registers: bool = True) -> list[tuple[str, bool]]:
        """Servers the receiver of `.tool`/`.mount`/... denotes, each with an extra conditional flag."""
        s = self.server_of(expr)
        if s:
            return [(s, False)]
        if isinstance(expr, Dyn) and expr.why == "parameter" and owner and "." not in expr.src:
            return self.param_servers(owner, expr.src, path, line, 0, registers=registers)
        held = self.instance_params(expr)
        if held is not None:
            return self.held_servers(expr, held, path, line, registers)
        cls = self.own_class(expr)
        if cls is not None:
            return self.instance_servers(cls, owner, path, line, registers)
        return []

    def own_class(self, expr: Expr) -> str | None:
        """The repository server class whose instance `expr` is, when it is a method's own instance
        (`self.add_tool(...)`, `@self.tool()` in a method of `class S(FastMCP)`: the extractor
        spells `self.add_tool` as the class's attribute)."""
        if expr.__class__ is not Ref:
            return None
        cls = self.p.canonical(expr.name)  # type: ignore[union-attr]
        c = self.p.classes.get(cls)
        if c is None or not any(_server_class(b) for b in self.p.class_bases(c)):
            return None
        return cls

    def instance_servers(self, cls: str, owner: str | None, path: str, line: int, registers: bool) -> list[tuple[str, bool]]:
        """The servers built from server class `cls` or a repository subclass of it: each instance gets
        what its methods register on `self`. Conditional unless registered in `__init__` or in a
        method an `__init__` of the instance's classes calls (`self.setup_tools()`): another method
        registers only when something calls it. No instance built in the repository is reported
        (once per class): what the class registers would otherwise vanish without a word."""
        method = (owner or "").split(".<locals>.", 1)[0]
        found: list[tuple[str, bool]] = []
        for symbol, server in sorted(self.a.servers.items()):
            made = self.p.origin(server.call.func) or ""
            chain = {made, *self.p.class_bases(self.p.classes[made])} if made in self.p.classes else set()
            if cls in chain:
                found.append((symbol, not self._init_reaches(chain, method)))
        if not found and registers and cls not in self._held_reported:
            self._held_reported.add(cls)
            flavor = next((k[0] for b in sorted(self.p.class_bases(self.p.classes[cls])) if (k := _server_class(b))), "mcp")
            self.warn(flavor, path, line, f"registration on self in {cls.rsplit('.', 1)[-1]}, an MCP server class no instance of which "
                      "is built in the repository: what it registers is not in the surface", site=("instance registration", "self"))
        return found

    def _init_reaches(self, chain: set[str], method: str) -> bool:
        """Whether building an instance of the classes `chain` runs `method`: it is an `__init__`, or
        an `__init__` of one of them calls it on the instance."""
        name = method.rpartition(".")[2]
        if name == "__init__":
            return True
        for c in sorted(chain):
            init = self.p.functions.get(f"{c}.__init__")
            if init is not None and any(
                call.func.__class__ is Ref and call.func.name.rpartition(".")[::2] in {(k, name) for k in chain}  # type: ignore[union-attr]
                for call in init.calls
            ):
                return True
        return False

    def held_servers(self, expr: Ref, held: tuple[list[tuple[str, str]], list[int]], path: str, line: int,
                     registers: bool) -> list[tuple[str, bool]]:
        """The servers an instance attribute may hold: the union over every method that sets it from
        its parameter (each method's call sites; a method nobody calls adds none). An assignment from
        anything else, or no server at all, is reported: a registration is never dropped silently."""
        params, opaque = held
        if len(params) == 1 and not opaque:
            return self.param_servers(params[0][0], params[0][1], path, line, 0, registers=registers)
        found: dict[str, bool] = {}
        for method, pname in params:
            for s, c in self.param_servers(method, pname, path, line, 0, registers=registers, lone=False):
                found[s] = found.get(s, True) and c
        symbol = self.p.canonical(expr.name)
        if registers and (opaque or not found) and symbol not in self._held_reported:
            self._held_reported.add(symbol)  # once per attribute, not once per registration through it
            cls, _, attr = symbol.rpartition(".")
            flavor = min((self.a.servers[s].flavor for s in found), default=None) or self._module_flavor(cls)
            if flavor:
                why = (f"is also assigned from something other than a method parameter (line {', '.join(map(str, opaque))})"
                       if opaque else "is set only from parameters no call site passes a known MCP server to")
                self.warn(flavor, path, line, f"registration on instance attribute '{attr}' of {cls.rsplit('.', 1)[-1]}: "
                          f"the attribute {why}; the servers it may hold are not all known", site=("instance registration", attr))
        return sorted(found.items())

    def instance_params(self, expr: Expr) -> tuple[list[tuple[str, str]], list[int]] | None:
        """([(method, parameter)], [lines of other assignments]) when `expr` is an instance attribute of
        a repository class that its methods assign (`self.mcp = mcp` in `__init__`, then
        `self.mcp.tool(...)(self.list)` in any method): the servers are what the call sites of the
        methods setting it from a parameter pass. An assignment of None holds no server; any other
        value is listed by line (not followed: reported by `held_servers`). None when not such an
        attribute."""
        if not isinstance(expr, Ref):
            return None
        symbol = self.p.canonical(expr.name)
        cls, _, _attr = symbol.rpartition(".")
        if cls not in self.p.classes:
            return None
        binds = [a for a in self.p.assigns.get(symbol, []) if a.op == "="]
        if not binds:
            return None
        params: list[tuple[str, str]] = []
        opaque: list[int] = []
        for b in binds:
            value = b.value
            if isinstance(value, Const) and value.value is None:
                continue  # `self.mcp = None` until attached: no server
            if isinstance(value, Dyn) and value.why == "parameter" and "." not in value.src:
                pname = value.src
                # The method whose body holds the assignment: the nearest one above it declaring the parameter.
                methods = [f for m in self.p.classes[cls].methods if (f := self.p.functions.get(m)) is not None
                           and f.line <= b.line and any(q.name == pname for q in f.params)]
                if methods:
                    params.append((max(methods, key=lambda f: f.line).symbol, pname))
                    continue
            opaque.append(b.line)
        if not params and not opaque:
            return None
        return sorted(set(params)), sorted(set(opaque))

    def _through_parameter(self, receiver: Expr) -> bool:
        """A receiver reached through a registration function's parameter (or an instance attribute
        set from one): where it is registered from, the call site decides, not the nesting."""
        return isinstance(receiver, Dyn) or self.instance_params(receiver) is not None or self.own_class(receiver) is not None

    def _run_at(self, owner: str | None, receiver: Expr, at: tuple[str, int, bool]) -> tuple[str, int, bool]:
        """Where a registration on `owner`'s own server parameter copies its hints, when `owner` has
        one call site, an unguarded statement of the same module: at that call, as a module-level use
        (a module-level change of the hints between the function and its call is made before it).
        Anything else (more sites, one in a function, under an `if`, in another module) keeps `at`:
        the function may run before or after any line of its module."""
        if owner is None or receiver.__class__ is not Dyn or receiver.why != "parameter":  # type: ignore[union-attr]
            return at
        fn = self.p.functions.get(owner)
        if fn is None or not any(q.name == receiver.src for q in fn.params):  # type: ignore[union-attr]
            return at
        sites = self.call_sites().get(owner, ())
        if len(sites) != 1:
            return at
        site, cond, caller = sites[0]
        if cond or caller is not None or self._site_paths.get(id(site)) != at[0]:
            return at
        return (at[0], site.line, False)

    def _owner_with_param(self, symbol: str, pname: str) -> FunctionFact | None:
        """The function (this one or an enclosing one) that declares parameter `pname`."""
        while symbol:
            fn = self.p.functions.get(symbol)
            if fn is not None and any(p.name == pname for p in fn.params):
                return fn
            if ".<locals>." not in symbol:
                return None
            symbol = symbol.rsplit(".<locals>.", 1)[0]
        return None

    def param_servers(self, owner: str, pname: str, path: str, line: int, depth: int, *, registers: bool = True,
                      lone: bool = True) -> list[tuple[str, bool]]:
        """A registration function's parameter: the servers its call sites pass. A call site passing
        something that is not a known server (nor a parameter followed to its own call sites) is
        reported where it is written, even when other call sites resolve: what is registered on the
        server it passes is not in the surface, and must not vanish behind the sites that resolve."""
        found, unresolved = self._param_sites(owner, pname, depth, registers)
        fn = self._owner_with_param(owner, pname)
        if fn is None or not registers:
            return sorted(found.items())
        flavor = self._param_flavor(fn, pname)
        for callee, cname, site_path, site, arg in unresolved:
            site_path = site_path or path  # a site not found in a module's statements: noted with the registration
            key = (callee.symbol, cname, site_path, site.line, shape(arg))
            if flavor is None or key in self._sites_reported:
                continue
            self._sites_reported.add(key)  # once per call site, not once per registration through the parameter
            # The parameter named is the called function's own (`boot(*[admin])` passes `boot`'s `s`).
            self.warn(flavor, site_path, site.line, f"{shape(site.func)}() passes {shape(arg) if arg is not None else 'an argument not statically known'} "
                      f"as '{cname}', which is not a known MCP server: what {callee.name}() registers on it is not in the surface",
                      site=("parameter call site", cname, shape(site.func), shape(arg)))
        if not found and not unresolved and depth == 0 and lone and flavor:
            # Reported when the parameter is typed as a server, or (untyped) in a module that uses an MCP
            # framework: a registration on an object we cannot identify must not vanish silently.
            self.warn(flavor, path, line, f"registration on parameter '{pname}' of {fn.name}(): no call site passes a known MCP server", site=("parameter registration", pname))
        return sorted(found.items())

    def _param_flavor(self, fn: FunctionFact, pname: str) -> str | None:
        param = next(p for p in fn.params if p.name == pname)
        return (_server_class(param.annotation_ref) or (None, False))[0] or self._module_flavor(fn.symbol)

    def _param_sites(self, owner: str, pname: str, depth: int, registers: bool = True) -> tuple[dict[str, bool], list[tuple[FunctionFact, str, str, Call, Expr | None]]]:
        """({server: conditional} the call sites of `owner`'s parameter `pname` pass, [(function,
        its parameter, path, call site, argument) for the sites passing something else]), followed
        through parameters of the calling functions. A site passing None (or nothing, the default
        being None) passes no server; one passing a loop variable passes each item of the loop.
        Each function reached is noted as a registration function (`value_uses`)."""
        fn = self._owner_with_param(owner, pname)
        found: dict[str, bool] = {}
        unresolved: list[tuple[FunctionFact, str, str, Call, Expr | None]] = []
        if fn is None or depth > _MAX_DEPTH:
            return found, unresolved
        if registers:
            self._registering.setdefault(fn.symbol, pname)
        positional = [p.name for p in fn.params if p.kind in ("pos", "posonly")]
        index = positional.index(pname) if pname in positional else 10_000
        param = next(p for p in fn.params if p.name == pname)
        for call, cond, caller in self.call_sites().get(fn.symbol, []):
            arg = call.arg(index, pname)
            if arg is None:
                if call.star:  # maybe in the *args / **kwargs
                    unresolved.append((fn, pname, self._site_path(call, caller), call, None))
                    continue
                arg = param.default_expr  # not passed: the default (None for most)
            if arg is None or (isinstance(arg, Const) and arg.value is None):
                continue
            if isinstance(arg, Dyn) and arg.why == "parameter" and "." not in arg.src:
                if caller and self._owner_with_param(caller, arg.src) is not None:
                    inner, more = self._param_sites(caller, arg.src, depth + 1, registers)
                    for s, c in inner.items():
                        found[s] = found.get(s, True) and c
                    unresolved.extend(more)
                elif caller or (fn.symbol, call.line) not in self.function_site_lines():
                    # A parameter of no function declaring it: a lambda's (`lambda s: register(s)`),
                    # whose callers are not followed. (Without a caller, a site also listed with its
                    # function is the statement's copy of that call, read there.)
                    unresolved.append((fn, pname, self._site_path(call, caller), call, arg))
                continue
            items = self.p.iterated(arg.name, call.line) if isinstance(arg, Ref) else None
            for expr, item_cond in ([(i.expr, i.conditional) for i in items] if isinstance(items, list) else [(arg, False)]):
                s = self.server_of(expr) if not isinstance(items, Dynamic) else None
                if s:
                    found[s] = found.get(s, True) and (cond or item_cond)
                elif not (isinstance(expr, Const) and expr.value is None):
                    unresolved.append((fn, pname, self._site_path(call, caller), call, arg))
                    break
        return found, unresolved

    def function_site_lines(self) -> set[tuple[str, int]]:
        """(callee, line) of the call sites listed with the function whose body makes them."""
        if self._function_lines is None:
            self._function_lines = {(symbol, call.line) for symbol, sites in self.call_sites().items()
                                    for call, _cond, caller in sites if caller}
        return self._function_lines

    def _site_path(self, call: Call, caller: str | None) -> str:
        return self.p.path_of(caller) if caller else self._site_paths.get(id(call), "")

    def _module_flavor(self, symbol: str) -> str | None:
        """"fastmcp" / "mcp" when the module defining `symbol` imports that framework, else None."""
        return _imports_flavor(self.p.module_of.get(symbol))

    def call_sites(self) -> dict[str, list[tuple[Call, bool, str | None]]]:
        """Callee symbol -> (call, conditional, calling function) for calls of repository functions."""
        if self._sites is None:
            self._sites = {}
            for m, (symbol, call, bound, applied, cond, caller) in self.p.scan("mcp.statement call sites", _statement_sites):
                site = _site_call(call, bound, applied)
                self._sites.setdefault(symbol, []).append((site, cond, caller))
                self._site_paths[id(site)] = m.path
            for _m, (symbol, call, bound, applied, cond, caller) in self.p.scan("mcp.function call sites", _function_sites):
                self._sites.setdefault(symbol, []).append((_site_call(call, bound, applied), cond, caller))
        return self._sites

    def warn(self, flavor: str, path: str, line: int | None, message: str, site: tuple[str, ...] = ()) -> None:
        self.a.issues.append((flavor, issue(path, line, message, site=site)))

    # -- registrations

    def run(self) -> Analysis:
        self.find_servers()
        for _m, (fn, dec) in self.p.scan("mcp.decorators", _registration_decorators):
            self.decorator(fn, dec)
        for m, (call, cond, guarded, owner) in self.p.scan("mcp.calls", _registration_calls):
            self.call(call, cond, owner, m.path, guarded)
        for server in list(self.a.servers.values()):
            self.constructor_tools(server)
            if server.lowlevel:
                self.handler_kwargs(server)
        self.unfollowed_uses()
        self.registration_values()
        self.unbound_calls()
        self.registry_writes()
        self.apply_removals()
        return self.a

    def unfollowed_uses(self) -> None:
        """Uses of a known server the analysis cannot follow, reported rather than dropped: an attribute
        looked up by a computed name (`getattr(mcp, name)`), and a registration method handed to other
        code as a value (`setup(mcp.tool)`: what that code registers through it is not followed)."""
        if not self.a.servers:
            return  # uses of a server need a server
        for m, call in self.p.scan("mcp.statement uses", _statement_uses):
            self.unfollowed_use(call, m.path)
        for _m, (call, path) in self.p.scan("mcp.function uses", _function_uses):
            self.unfollowed_use(call, path)

    def unfollowed_use(self, call: Call, path: str) -> None:
        """One call `_uses_server` let through (see `unfollowed_uses`)."""
        func = self.p.canonical(call.func.name) if isinstance(call.func, Ref) else None
        if func in ("builtins.getattr", "builtins.setattr", "builtins.delattr") and len(call.args) >= 2:
            server = self.server_of(call.args[0])
            if server and not isinstance(self.p.evaluate(call.args[1]), str):
                self.warn(self.a.servers[server].flavor, path, call.line, f"{describe(call)} on MCP server "
                          f"'{self.a.servers[server].name}': the attribute name is computed at run time, so what it "
                          "registers cannot be followed", site=("computed attribute", self.a.servers[server].name, shape(call)))
            return
        if func in ("functools.partial",):
            return
        for value in (*call.args, *(v for _, v in call.kwargs)):
            if not isinstance(value, Ref) or value.name.rsplit(".", 1)[-1] not in _REGISTER_METHODS:
                continue
            receiver, method = split_method(Ref(self.p.canonical(value.name)))
            server = self.server_of(receiver)
            if server:
                self.warn(self.a.servers[server].flavor, path, call.line, f"{describe(value)} of MCP server "
                          f"'{self.a.servers[server].name}' is passed to {describe(call.func)}(): what is registered "
                          "through it cannot be followed", site=("server passed", self.a.servers[server].name, shape(value), shape(call.func)))

    def registration_values(self) -> None:
        """A registration function used as a value rather than called (`for setup in (register,):
        setup(admin)`, `partial(register, admin)()`, `map(register, servers)`, `boot(register)`, a
        lambda calling it): where it is then called, and with which server, is not followed, so
        what it registers there would be missing from the surface without a word. Reported at the
        use. A plain alias the program sees through (`setup = register`) is followed as a call."""
        if not self._registering:
            return
        for m, (symbol, line, what) in self.p.scan("mcp.function values", _function_values):
            if symbol.endswith(".*"):  # getattr(<module>, <computed name>): any of its registration functions
                module = symbol[:-2]
                symbol = next((s for s in sorted(self._registering) if s.rpartition(".")[0] == module), "")
            pname = self._registering.get(symbol)
            fn = self.p.functions.get(symbol)
            if fn is None or pname is None:
                continue
            flavor = self._param_flavor(fn, pname)
            if flavor:
                self.warn(flavor, m.path, line, f"{fn.name}() registers on its parameter '{pname}' but is used here as a value "
                          f"({what}): where it is called, and on which server, is not followed; what it registers there "
                          "is not in the surface", site=("registration function value", fn.name, what))

    def unbound_calls(self) -> None:
        """A known server handed to a name the program cannot bind (`_unbound_calls`): whatever that
        name is (a registration function reached through a walrus, a generator's item) may register
        on the server, and what it registers would be missing without a word. Reported at the call."""
        if not self.a.servers:
            return
        for _m, (call, path) in self.p.scan("mcp.unbound calls", _unbound_calls):
            for value in (*call.args, *(v for _, v in call.kwargs)):
                server = self.server_of(value) if value.__class__ is Ref else None
                if server:
                    srv = self.a.servers[server]
                    callee = call.func.name.rsplit(".", 1)[-1]  # type: ignore[union-attr]
                    self.warn(srv.flavor, path, call.line, f"MCP server '{srv.name}' is passed to {callee}(), a name bound where "
                              "the receipt does not read (an assignment inside an expression, a loop over what cannot be "
                              "listed): what it registers on the server is not in the surface",
                              site=("server passed to unbound name", srv.name, callee))
                    break

    def registry_writes(self) -> None:
        """Tools or prompts written straight into a server's private tables (`mcp._tool_manager._tools[n]
        = tool`, `... = {}`, `.update(...)`, `del ...`): which ones the server then holds is not
        followed, so the write is reported at the server it is made on (found as any receiver is:
        a variable, a parameter's call sites) or, on an object the analysis cannot name, as such."""
        said: set[tuple[str, str, str]] = set()  # once per object and function writing it (a reset, then items)
        for m, (receiver, what, line, owner) in self.p.scan("mcp.registry writes", _registry_writes):
            found = self.receivers(receiver, owner, m.path, line, registers=False)
            names = sorted({self.a.servers[s].name for s, _ in found})
            flavor = min((self.a.servers[s].flavor for s, _ in found), default=None) or _imports_flavor(m)
            once = (m.path, owner or "", describe(receiver))
            if not flavor or once in said:
                continue
            said.add(once)
            on = f"MCP server {', '.join(repr(n) for n in names)}" if names else f"'{describe(receiver)}' (not a known MCP server)"
            if ".request_handlers" in what:
                self.warn(flavor, m.path, line, f"{what} sets a request handler of {on} without its decorator: the tools and "
                          "prompts that handler lists or runs are decided at run time, so they are not in the surface",
                          site=("request handler", describe(receiver)))
                continue
            self.warn(flavor, m.path, line, f"{what} writes into the private component table of {on}: which tools and prompts "
                      "it then holds is not followed, so they are not in the surface", site=("registry write", describe(receiver)))

    def apply_removals(self) -> None:
        """`mcp.remove_tool("x")`: gone for callers (or only sometimes, when removed under a condition)."""
        for server, kind, name, conditional in self.removed:
            for reg in self.a.registrations:
                if reg.server == server and reg.entry.kind == kind and reg.entry.name == name:
                    if conditional:
                        reg.entry.conditional = True
                    else:
                        reg.enabled = False

    def visibility_rule(self, server: Server, enables: bool, call: Call, conditional: bool, path: str) -> None:
        """`mcp.enable(names={...}, tags={...}, keys={...}, components={...}, only=True)` /
        `mcp.disable(...)`: a rule over the server's components, read by value; one whose criteria
        are not statically known is reported, and every component it may touch is then conditional."""
        call = self.p.spread_call(call)
        criteria: dict[str, Any] | None = {}
        for k in _VISIBILITY_CRITERIA:
            given = call.kw(k)
            if given is None:
                continue
            value = self.p.evaluate(given)
            if k == "version" or not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                criteria = None  # a version spec, or a value not known: which components it touches is not known
                break
            criteria[k] = frozenset(value)  # type: ignore[index]
        only = self.p.evaluate(call.kw("only")) if call.kw("only") is not None else False
        if call.star or (enables and not isinstance(only, bool)):
            criteria = None
        if criteria is None:
            self.warn(server.flavor, path, call.line, f"{describe(call)} on MCP server '{server.name}': which components it "
                      f"{'enables' if enables else 'disables'} is not statically known; every component is marked conditional",
                      site=("visibility rule", server.site_name, shape(call)))
        rules = self.a.visibility.setdefault(server.symbol, [])
        if enables and only is True:
            rules.append((False, {"*": frozenset()}, conditional))  # allowlist: everything else off first
        rules.append((enables, criteria, conditional))

    def handler_kwargs(self, server: Server) -> None:
        """SDK v2 low-level servers take their handlers as `Server(..., on_list_tools=handler)`."""
        for kw, kind in (("on_list_tools", "tool"), ("on_list_prompts", "prompt")):
            expr = server.call.kw(kw)
            if expr is not None:
                self.handler(server, expr, kind, False, server.path, server.call.line, kw)

    def handler(self, server: Server, expr: Expr, kind: str, cond: bool, path: str, line: int, what: str) -> None:
        """A list handler given as an expression (`on_list_tools=handler`, `server.list_tools()(handler)`):
        read as a decorated one when it names a repository function, else noted (`what`: how it is given)."""
        fn = self.p.lookup(expr.name) if isinstance(expr, Ref) else None
        if isinstance(fn, FunctionFact):
            self.lowlevel_handler(server, fn, kind, cond)
        else:
            self.warn(server.flavor, path, line, f"{what} handler of MCP server '{server.name}' is not statically known: {describe(expr)}",
                      site=("handler", what, server.site_name, shape(expr)))

    def decorator(self, fn: FunctionFact, dec: Expr) -> None:
        func, call = decorator_call(dec, self.p)
        receiver, method = split_method(func, parameters=True)
        if receiver is None or method not in ("tool", "prompt", "list_tools", "list_prompts"):
            return
        if call is not None:
            call = self.p.spread_call(call)  # `@mcp.tool(**DESTRUCTIVE)`: its options read by value
        path = self.p.path_of(fn.symbol)
        # Decorators are evaluated in the enclosing scope: a parameter there is the receiver.
        owner = fn.symbol.rsplit(".<locals>.", 1)[0] if ".<locals>." in fn.symbol else None
        for symbol, cond in self.receivers(receiver, owner, path, fn.line):
            server = self.a.servers[symbol]
            if method in ("list_tools", "list_prompts"):
                if server.lowlevel:
                    self.lowlevel_handler(server, fn, "tool" if method == "list_tools" else "prompt", cond)
                continue
            if server.lowlevel:
                continue
            args: tuple[Expr, ...] = call.args if call else ()
            kwargs = dict(call.kwargs) if call else {}
            # Through a registration function's parameter, the call site decides (the nesting does not),
            # and whether the definition is under an `if`/loop/handler of the function holding it.
            conditional = cond or fn.in_block if self._through_parameter(receiver) else cond or fn.conditional
            if call is not None and call.star:
                self.warn(server.flavor, path, call.line or fn.line,
                          f"@{method}(...) on {fn.name}: arguments not statically known (*args/**kwargs); "
                          "its hints are recorded as dynamic", site=("hints arguments", method))
            name_expr = kwargs.get("name", args[0] if args and not isinstance(args[0], Splat) else None)
            self.register(server, method, fn, name_expr, kwargs, conditional, path, fn.line,
                          dynamic_all=describe(call) if call is not None and call.star else None,
                          at=self._run_at(owner, receiver, (path, fn.line, ".<locals>." in fn.symbol)))

    def call(self, call: Call, cond: bool, owner: str | None, path: str, guarded: bool = False) -> None:
        """A statement-level (or assigned) call: `mcp.tool(fn)`, `mcp.tool()(fn)`, `add_tool`, `mount`, ...
        (already seen through aliases, stored decorators, getattr and partial: `Program.resolve_call`).
        `guarded`: under an `if`/loop/handler of its own function (`cond` is always true in one)."""
        func = call.func
        inner: Call | None = None
        if isinstance(func, Call):  # mcp.tool(name=...)(fn)
            inner, func = func, func.func
        receiver, method = split_method(func, parameters=True)
        if receiver is None or method is None:
            return
        if inner is not None and method in _LIST_HANDLERS:
            self.applied_handler(call, receiver, method, cond, owner, path)
            return
        if method not in _REGISTER_OR_SERVE:
            return
        if inner is None and method in ("tool", "prompt") and not call.args:
            return  # `mcp.tool(name=...)` alone is a decorator factory, used elsewhere
        if inner is not None and method in ("tool", "prompt") and owner is not None and call.args:
            if self.helper_applications(owner, receiver, inner, call.args[0], "tool" if method == "tool" else "prompt", path, guarded):
                return
        for symbol, extra in self.receivers(receiver, owner, path, call.line, registers=method not in _SERVE and method not in _VISIBILITY):
            server = self.a.servers[symbol]
            # Through a registration function's parameter, the call site decides (the nesting does not).
            conditional = extra or guarded if self._through_parameter(receiver) else cond or extra
            if method in _SERVE:
                self.a.served.add(symbol)
            elif method in _VISIBILITY:
                self.visibility_rule(server, method == "enable", call, conditional, path)
            elif method in ("remove_tool", "remove_prompt"):
                name = self.p.evaluate(call.arg(0, "name"))
                if isinstance(name, str):
                    self.removed.append((symbol, "tool" if method == "remove_tool" else "prompt", name, conditional))
                else:
                    self.warn(server.flavor, path, call.line, f"{method} on MCP server '{server.name}' with a name that is not "
                              f"statically known: {describe(call)}", site=("computed name", method, server.site_name, shape(call)))
            elif method in ("mount", "import_server"):
                self.mount(server, call, conditional, path)
            elif not server.lowlevel:
                kind = "prompt" if method in ("prompt", "add_prompt") else "tool"
                if inner is not None:
                    target = call.args[0] if call.args else None
                    self.register_expr(server, kind, target, inner.args, dict(inner.kwargs), conditional, path, call.line, inner,
                                       at=self._run_at(owner, receiver, (path, call.line, cond or owner is not None)),
                                       through=self._through_parameter(receiver))
                else:
                    kwargs = dict(call.kwargs)
                    if call.args:
                        target, rest = call.args[0], call.args[1:]
                    else:  # `add_tool(fn=refund, name=...)` (the SDK's FastMCP), `add_tool(tool=t)`, `add_prompt(prompt=p)` (FastMCP 2)
                        target, rest = next((kwargs.pop(k) for k in _REGISTERED_KEYWORDS if k in kwargs), None), ()
                    self.register_expr(server, kind, target, rest, kwargs, conditional, path, call.line, call,
                                       at=self._run_at(owner, receiver, (path, call.line, cond or owner is not None)),
                                       through=self._through_parameter(receiver))

    def applied_handler(self, call: Call, receiver: Expr, method: str, cond: bool, owner: str | None, path: str) -> None:
        """`server.list_tools()(handler)`: the decorator applied by hand, as `@server.list_tools()` on it."""
        for symbol, extra in self.receivers(receiver, owner, path, call.line):
            server = self.a.servers[symbol]
            if server.lowlevel:
                self.handler(server, call.args[0] if call.args else call, "tool" if method == "list_tools" else "prompt", cond or extra, path, call.line, method)

    def _wrapped_parameter(self, owner: str, target: Expr) -> str | None:
        """The decorator a helper returns, when `target` is what it registers in place of the
        function it is applied to: that function's parameter itself, or a wrapper copying it
        (`@functools.wraps(func)`): `def audited(mcp, name, **kw): def decorator(func): ...
        mcp.tool(name=name, **kw)(wrapper); return decorator`. Returns the decorator's symbol."""
        helper = self.p.functions.get(owner)
        if helper is None:
            return None
        returned = {self.p.canonical(r.name) for r in helper.returns_exprs if isinstance(r, Ref)}
        if isinstance(target, Dyn) and target.why == "parameter":
            for symbol in sorted(returned):
                fn = self.p.functions.get(symbol)
                if fn is not None and symbol.startswith(owner + ".<locals>.") and [q.name for q in fn.params] == [target.src]:
                    return symbol
            return None
        wrapper = self.p.functions.get(self.p.canonical(target.name)) if isinstance(target, Ref) else None
        if wrapper is None or ".<locals>." not in wrapper.symbol:
            return None
        decorator = wrapper.symbol.rsplit(".<locals>.", 1)[0]
        fn = self.p.functions.get(decorator)
        if fn is None or decorator not in returned or not decorator.startswith(owner + ".<locals>.") or len(fn.params) != 1:
            return None
        for dec in wrapper.decorators:
            if (isinstance(dec, Call) and isinstance(dec.func, Ref) and self.p.canonical(dec.func.name) == "functools.wraps"
                    and len(dec.args) == 1 and isinstance(dec.args[0], Dyn) and dec.args[0].src == fn.params[0].name):
                return decorator
        return None

    def _decorated_by(self, owner: str) -> list[tuple[Call, bool, str | None]]:
        """`@helper(...)` on a function, as the application `helper(...)(function)` it is."""
        out = []
        for fn in self.p.iter_functions():
            for dec in fn.decorators:
                if isinstance(dec, Call) and isinstance(dec.func, Ref) and self.p.canonical(dec.func.name) == owner:
                    caller = fn.symbol.rsplit(".<locals>.", 1)[0] if ".<locals>." in fn.symbol else None
                    out.append((Call(func=dec, args=(Ref(fn.symbol),), kwargs=(), line=fn.line), fn.conditional, caller))
        return out

    def helper_applications(self, owner: str, receiver: Expr, inner: Call, target: Expr, kind: str, path: str,
                            guarded: bool = False) -> bool:
        """A registration helper that is a decorator factory (`audited(mcp, "create_job",
        annotations=MUTATE)(self.create_job)`): each application registers the function it is
        applied to, with the server, name and options its call passes (conditionally when the helper
        registers it under a condition: `guarded`). False (read as any other
        registration) when the helper is not one, or nothing applies it."""
        helper = self.p.functions.get(owner)
        if helper is None or self._wrapped_parameter(owner, target) is None:
            return False
        sites = [*self.call_sites().get(owner + "()", []), *self._decorated_by(owner)]
        if not sites:
            return False
        named = {q.name for q in helper.params}
        varkw = next((q.name for q in helper.params if q.kind == "varkw"), None)
        for site, site_cond, caller in sites:
            hcall = site.func
            assert isinstance(hcall, Call)
            bindings = bind(helper, hcall)
            options = substitute(inner, bindings)
            assert isinstance(options, Call)
            spread = tuple(x for x in inner.spread if not (isinstance(x, Dyn) and x.why == "parameter" and x.src == varkw))
            if len(spread) < len(inner.spread):  # `**kw` of the helper: the keywords the call site gives it
                extra = tuple((k, v) for k, v in hcall.kwargs if k not in named)
                options = replace(options, kwargs=(*options.kwargs, *extra), spread=spread,
                                  star=bool(spread) or hcall.star or any(isinstance(a, Splat) for a in options.args))
            elif hcall.star:
                options = replace(options, star=True)
            where = self.p.path_of(caller) if caller else path
            applied = site.args[0] if site.args else None
            recv = substitute(receiver, bindings)
            for symbol, extra_cond in self.receivers(recv, caller, where, site.line):
                server = self.a.servers[symbol]
                if server.lowlevel:
                    continue
                conditional = guarded or (extra_cond if self._through_parameter(recv) else site_cond or extra_cond)
                self.register_expr(server, kind, applied, options.args, dict(options.kwargs), conditional, where, site.line, options,
                                   at=(where, site.line, True))
        return True

    def register_expr(self, server: Server, kind: str, target: Expr | None, args: tuple[Expr, ...],
                      kwargs: dict[str, Expr], cond: bool, path: str, line: int, call: Call | None,
                      at: tuple[str, int, bool] | None = None, through: bool = False) -> None:
        """`at` (path, line, inside a function): where the registration copies its arguments (hints)."""
        """`target` is a function, or `Tool.from_function(fn, ...)` (directly or via a variable), or a loop
        variable over such items (`for f in [a, b]: mcp.tool()(f)`)."""
        over = self.p.iterated(target.name, line) if isinstance(target, Ref) else None
        if through and isinstance(over, list) and isinstance(target, Ref):
            # Through a registration function's parameter the loop's own guard decides: in a function
            # body the loop is always conditional in the facts (`for f in (a, b): server.add_tool(f)`).
            over = self._loop_items(target.name, line) or over
        if isinstance(over, Dynamic):
            self.warn(server.flavor, path, line, f"{kind}s registered on MCP server '{server.name}' in a loop over items that are "
                      f"not statically known: {over.dynamic}", site=("loop", kind, server.site_name, shape(over.dynamic)))
            self.collected_for(server, kind, target, path, line)
            return
        if over is not None:
            for item in over:
                self.register_expr(server, kind, item.expr, args, kwargs, cond or item.conditional, path, line, call, at=at)
            return
        value = target
        if isinstance(target, Ref) and isinstance(self.p.lookup(target.name), AssignFact):
            value = self.p.value_of(target)  # `t = Tool.from_function(fn, ...)` then `mcp.add_tool(t)`
        if isinstance(value, Call) and _framework(self.p.origin(value.func), "from_function"):
            # The tool copies its hints when from_function runs (where the variable holding it is
            # bound), not when it is registered: a change of the hints in between is not the tool's.
            at = self._made_at(target, at)
            kwargs = {**dict(value.kwargs), **kwargs}
            target, args = (value.args[0] if value.args else value.kw("fn")), value.args[1:]
            call = value
        fn = self.p.lookup(target.name) if isinstance(target, Ref) else None
        name_expr = kwargs.get("name", args[0] if args else None)
        dynamic_all = describe(call) if call is not None and call.star else None
        if dynamic_all:
            self.warn(server.flavor, path, line, f"{dynamic_all}: arguments not statically known; hints recorded as dynamic", site=("hints", shape(dynamic_all)))
        if isinstance(fn, FunctionFact):
            self.register(server, kind, fn, name_expr, kwargs, cond, self.p.path_of(fn.symbol), fn.line,
                          dynamic_all=dynamic_all, extra_symbols={self.p.canonical(target.name)} if isinstance(target, Ref) else set(), at=at)
            return
        name = self.p.evaluate(name_expr) if name_expr is not None else None
        if isinstance(name, str):
            # A callable we cannot see (a method, a partial, a lambda): its name is still known.
            entry = self.entry(server, kind, name, None, None, kwargs, cond, path, line, dynamic_all, at=at)
            self.add(server, entry, set(), kwargs)
            return
        self.warn(server.flavor, path, line, f"{kind} registered on MCP server '{server.name}' with a callable that cannot be "
                  f"resolved statically: {describe(target) if target is not None else '?'}", site=("callable", kind, server.site_name, shape(target)))
        self.collected_for(server, kind, target, path, line)

    def collected_for(self, server: Server, kind: str, target: Expr | None, path: str, line: int) -> None:
        """A registration the analysis cannot follow whose callables are drawn from a collection that
        repository functions fill (`_registry.append({"func": func, ...})` in a decorator's body, then
        `for info in get_registered(): mcp.tool(**info["kwargs"])(info["func"])`): each function
        decorated with one of those is noted where it is defined. What the registration makes of it
        (its name, hints) is not followed; noted there, a change to one is a change to a file that
        could not be fully analysed, never a silent pass."""
        if target is None:
            return
        registrars = self._registrars(_flow_sources(self.p, target))
        if not registrars:
            return
        where = f"{path}:{line}"
        for m, (fn, symbol) in self.p.scan("mcp.repository decorators", _repository_decorated):
            said = (fn.symbol, kind, server.symbol)  # once, however many such registrations read its registry
            if symbol in registrars and said not in self.collected:
                self.collected.add(said)
                self.warn(server.flavor, m.path, fn.line, f"{kind} '{fn.name}': decorated with {symbol.rsplit('.<locals>.', 1)[0].rpartition('.')[2]}, "
                          f"which collects it for a registration on MCP server '{server.name}' that cannot be followed ({where}); "
                          "what it registers is not in the surface", site=("collected for a registration", kind, server.site_name))

    def _registrars(self, collections: set[str]) -> set[str]:
        """The repository functions whose body adds a parameter of theirs to one of `collections`,
        with every function they are defined in (a decorator factory's inner decorator)."""
        found: set[str] = set()
        for name in sorted(collections):
            adding = {id(e) for method, e in self.p.effects_by_receiver.get(name, ()) if method in _COLLECTING}
            if not adding:
                continue
            for m in self.p.modules.values():
                for e in m.effects:
                    if id(e) not in adding:
                        continue
                    params = {d.src for d in nodes_in(e.call, (Dyn,)) if d.why == "parameter"}  # type: ignore[union-attr]
                    writer = _nearest_above(m, e.call.line, lambda f: any(q.name in params for q in f.params)) if params else None
                    while writer:
                        if writer in self.p.functions:
                            found.add(writer)
                        writer = writer.rpartition(".<locals>.")[0]
        return found

    def _made_at(self, target: Expr | None, at: tuple[str, int, bool] | None) -> tuple[str, int, bool] | None:
        """Where the tool a variable holds was made (`ARCHIVE = Tool.from_function(...)`, through
        aliases): its assignment, as a use at that line (in a function or under a condition: at
        any time). `at` for a tool made where it is registered."""
        d = self.p.lookup(target.name) if isinstance(target, Ref) else None
        for _ in range(_MAX_DEPTH):
            if not (isinstance(d, AssignFact) and isinstance(d.value, Ref)):
                break
            d = self.p.lookup(d.value.name)
        if not isinstance(d, AssignFact):
            return at
        return (self.p.path_of(d.target), d.line, d.conditional or ".<locals>." in d.target)

    def _loop_items(self, name: str, line: int) -> list[Item] | None:
        """The items of the one plain loop binding `name` (`for f in (a, b):`) when it is not under an
        `if`/loop/handler of its function: each as conditional as the item itself. None otherwise
        (read as `Program.iterated` reads it)."""
        loops = [a for a in self.p.assigns.get(self.p.canonical(name), []) if a.op == "in" or a.op.startswith("in:")]
        if len(loops) != 1 or loops[0].op != "in" or loops[0].guarded or loops[0].line > line:
            return None
        items = self.p.items(loops[0].value)
        return None if isinstance(items, Dynamic) else list(items)

    def register(self, server: Server, kind: str, fn: FunctionFact, name_expr: Expr | None, kwargs: dict[str, Expr],
                 cond: bool, path: str, line: int, dynamic_all: str | None = None,
                 extra_symbols: set[str] | None = None, at: tuple[str, int, bool] | None = None) -> None:
        name: Any = fn.name
        fallback = None
        if name_expr is not None:
            name = self.p.evaluate(name_expr)
            if not isinstance(name, str):
                fallback = describe(name_expr)
                self.warn(server.flavor, path, line, f"{kind} name of {fn.name} is not statically known "
                          f"({fallback}); using the function name", site=("name", kind, server.site_name, shape(name_expr)))
                name = fn.name
        entry = self.entry(server, kind, name, fn, fn.doc, kwargs, cond, path, line, dynamic_all, at=at)
        entry.name_expr = name_expression(self.p, name_expr) if fallback is not None else None
        self.add(server, entry, {fn.symbol} | (extra_symbols or set()), kwargs)

    def entry(self, server: Server, kind: str, name: str, fn: FunctionFact | None, doc: str | None,
              kwargs: dict[str, Expr], cond: bool, path: str, line: int, dynamic_all: str | None,
              at: tuple[str, int, bool] | None = None) -> Entry:
        description = self.p.text(kwargs["description"]) if "description" in kwargs else None
        if description is None:
            description = doc
        signature = None
        if fn is not None:
            excluded = self.p.evaluate(kwargs["exclude_args"]) if "exclude_args" in kwargs else []
            signature = signature_of(fn, drop_names=excluded if isinstance(excluded, list) else ())
        entry = Entry(kind=kind, name=name, scope=server.name, path=path, line=line, dialect=server.flavor,  # type: ignore[arg-type]
                      root=True, conditional=cond or server.conditional, signature=signature,
                      description_sha256=digest(description))
        if kind == "tool":
            hints = Dynamic(dynamic=dynamic_all) if dynamic_all and "annotations" not in kwargs else self.hints(kwargs.get("annotations"), at=at)
            apply_hints(entry, hints)
        if "tags" in kwargs:
            tags = self.p.evaluate(kwargs["tags"])
            if isinstance(tags, list) and all(isinstance(t, str) for t in tags):
                entry.tags = sorted(set(tags))
            elif tags is not None:
                self.warn(server.flavor, path, line, f"tags of {kind} '{name}' are not statically known: {describe(kwargs['tags'])}", site=("tags", kind, shape(kwargs["tags"])))
        return entry

    def add(self, server: Server, entry: Entry, symbols: set[str], kwargs: dict[str, Expr]) -> None:
        enabled = True
        if "enabled" in kwargs:
            value = self.p.evaluate(kwargs["enabled"])
            if value is False:
                enabled = False
            elif isinstance(value, Dynamic):
                entry.conditional = True  # maybe enabled: keep it exported, but say it depends
        self.a.registrations.append(Registration(server.symbol, entry, symbols, enabled))

    def constructor_tools(self, server: Server) -> None:
        """`FastMCP(tools=[fn, Tool.from_function(fn, ...)])` / `MCPServer(tools=[...])`."""
        expr = server.call.kw("tools")
        if expr is None or server.lowlevel:
            return
        items = self.p.items(expr)
        if isinstance(items, Dynamic):
            self.warn(server.flavor, server.path, server.call.line, f"tools of MCP server '{server.name}' are not statically known: {items.dynamic}", site=("server tools", server.site_name, shape(items.dynamic)))
            return
        # The server copies what its tools were made with when it is built (`FastMCP(tools=[Tool.from_function(fn,
        # annotations=HINTS)])`): a later change of HINTS is not the tool's.
        at = (server.path, server.call.line, server.conditional or ".<locals>." in server.symbol)
        for item in items:
            self.register_expr(server, "tool", item.expr, (), {}, item.conditional, server.path, server.call.line, None, at=at)

    # -- mounts

    def mount(self, parent: Server, call: Call, cond: bool, path: str) -> None:
        args = list(call.args)
        first = self.p.evaluate(args[0]) if args else None
        if isinstance(first, str) and len(args) > 1:  # pre-2.9: mount("prefix", server)
            args[0], args[1] = args[1], args[0]
        child_expr = call.kw("server") or (args[0] if args else None)
        prefix_expr = call.kw("prefix") or call.kw("namespace") or (args[1] if len(args) > 1 else None)
        child = self.server_of(child_expr)
        if child is None:
            self.warn(parent.flavor, path, call.line, f"server mounted into '{parent.name}' is not statically known: "
                      f"{describe(child_expr) if child_expr is not None else '?'}; its tools are not in the surface", site=("mount", parent.name, shape(child_expr)))
            return
        prefix: Any = self.p.evaluate(prefix_expr) if prefix_expr is not None else None
        if prefix is not None and not isinstance(prefix, (str, Dynamic)):
            prefix = Dynamic(dynamic=describe(prefix_expr))  # type: ignore[arg-type]
        if isinstance(prefix, Dynamic):
            self.warn(parent.flavor, path, call.line, f"mount prefix in '{parent.name}' is not statically known: {prefix.dynamic}", site=("mount prefix", parent.name, shape(prefix.dynamic)))
        self.a.mounts.append(Mount(parent.symbol, child, prefix or None, cond))

    # -- hints

    def hints(self, expr: Expr | None, depth: int = 0, at: tuple[str, int, bool] | None = None) -> dict[str, Any] | Dynamic:
        """Declared raw hints {read_only, destructive, idempotent, open_world} (absent = not declared).
        `at`: where the server copies them (a registration: changes to a dict after it do not count)."""
        if expr is None:
            return {}
        if depth > _MAX_DEPTH:
            return Dynamic(dynamic=describe(expr))
        if isinstance(expr, Ref) and isinstance(self.p.value_of(expr), Map):
            # a dict constant, with the item assignments made to it after it was built
            value = self.p.evaluate_at(expr, at)
            if isinstance(value, Dynamic):
                return value
            if isinstance(value, dict):
                return {_HINTS[k]: v for k, v in value.items() if k in _HINTS}
        named = expr if isinstance(expr, Ref) else None
        expr = self.p.value_of(expr) or expr
        if isinstance(expr, Const) and expr.value is None:
            return {}
        if isinstance(expr, Call):
            origin = self.p.origin(expr.func)
            if _framework(origin, "ToolAnnotations") or origin == "builtins.dict":
                out = self._hint_items(expr.kwargs)
                # `ToolAnnotations(**{"destructiveHint": True})`: a dict spread whose items are read are keywords
                spread = [self.hints(x, depth + 1, at) for x in expr.spread] if expr.spread and not expr.args else None
                if spread is not None and all(isinstance(x, dict) for x in spread):
                    for x in spread:
                        out.update(x)  # type: ignore[arg-type]
                elif expr.star or expr.args:
                    for h in _HINT_NAMES:
                        out.setdefault(h, Dynamic(dynamic=describe(expr)))
                if named is not None and origin != "builtins.dict":
                    # `DANGER.destructiveHint = False` after it was built: every tool holding the
                    # object has the hint it was left with
                    for key, hint in _HINTS.items():
                        later = assigned_later(self.p, [named.name], key)
                        if later is not None:
                            out[hint] = self.p.evaluate(later)
                return out
            fn = self.p.functions.get(origin or "")
            if fn is not None and len(fn.returns_exprs) == 1 and not expr.star:
                return self.hints(substitute(fn.returns_exprs[0], bind(fn, expr)), depth + 1, at)
        if isinstance(expr, Map):
            out: dict[str, Any] = {}
            for k, v in expr.items:
                if isinstance(k, Const) and k.value is None:  # **spread
                    inner = self.hints(v, depth + 1, at)
                    if isinstance(inner, Dynamic):
                        return inner
                    out.update(inner)
                elif isinstance(k, Const) and isinstance(k.value, str):
                    if k.value in _HINTS:
                        out[_HINTS[k.value]] = self.p.evaluate(v)
                else:
                    return Dynamic(dynamic=describe(expr))
            return out
        value = self.p.evaluate(expr)
        if isinstance(value, dict):
            return {_HINTS[k]: v for k, v in value.items() if k in _HINTS}
        return value if isinstance(value, Dynamic) else Dynamic(dynamic=describe(expr))

    def _hint_items(self, kwargs: Iterable[tuple[str, Expr]]) -> dict[str, Any]:
        return {_HINTS[k]: self.p.evaluate(v) for k, v in kwargs if k in _HINTS}

    # -- low-level servers

    def lowlevel_handler(self, server: Server, fn: FunctionFact, kind: str, cond: bool) -> None:
        path = self.p.path_of(fn.symbol)
        found: list[Item] = []
        for ret in fn.returns_exprs:
            items = self._listed(ret, kind)
            if isinstance(items, Dynamic):
                self.warn(server.flavor, path, fn.line, f"{kind}s listed by {fn.name}() on MCP server '{server.name}' are not "
                          f"statically known: {items.dynamic}", site=("listed", kind, server.site_name, shape(items.dynamic)))
                continue
            found.extend(items)
        if not fn.returns_exprs:
            self.warn(server.flavor, path, fn.line, f"{fn.name}() lists the {kind}s of MCP server '{server.name}' but returns nothing we can read", site=("listed nothing", kind, server.site_name))
        for item in found:
            self.lowlevel_item(server, item, kind, cond or item.conditional, path, fn)

    def _listed(self, expr: Expr, kind: str, depth: int = 0) -> list[Item] | Dynamic:
        """Items of a list handler's return value: a list, `ListToolsResult(tools=...)`, `{"tools": [...]}`."""
        key = "tools" if kind == "tool" else "prompts"
        value = self.p.value_of(expr) if isinstance(expr, Ref) else expr
        if depth < _MAX_DEPTH:
            if isinstance(value, Call) and _framework(self.p.origin(value.func), "ListToolsResult", "ListPromptsResult"):
                inner = value.kw(key)
                return self._listed(inner, kind, depth + 1) if inner is not None else Dynamic(dynamic=describe(value))
            if isinstance(value, Map):
                for k, v in value.items:
                    if isinstance(k, Const) and k.value == key:
                        return self._listed(v, kind, depth + 1)
            if isinstance(value, Dyn) and value.why == "subscript" and value.parts:
                return self._page(value, kind, depth + 1)
        items = self.p.items(expr)
        if isinstance(items, Dynamic):
            return items
        out: list[Item] = []
        for item in items:
            picked = self.p.value_of(item.expr) if isinstance(item.expr, Ref) else item.expr
            each = self.p.items(picked.parts[0]) if isinstance(picked, Dyn) and picked.why == "subscript" and len(picked.parts) == 2 else None
            if each is None or isinstance(each, Dynamic):
                out.append(item)  # not an item of a list we know: read (or reported) as it is
                continue
            at = self.p.evaluate(picked.parts[1])
            if type(at) is int and -len(each) <= at < len(each) and not any(i.conditional for i in each):
                out.append(Item(each[at].expr, item.conditional))
            else:  # `[TOOLS[i]]`: one of TOOLS chosen at run time: each of them may be the one listed
                out.extend(Item(i.expr, True) for i in each)
        return out

    def _page(self, picked: Dyn, kind: str, depth: int) -> list[Item] | Dynamic:
        """The items a handler returning part of a list it knows can list: `TOOLS[start:end]` or
        `PAGES[cursor]` (a list of pages). With bounds or an index known only at run time (a cursor
        the client sends back), every item of the container is listed: each is reached by some page,
        and no item outside the container can be, so that is the fail-closed reading that still sees
        the tools. A slice with constant bounds lists exactly its items."""
        container, *index = picked.parts
        if len(index) == 1:  # an item of a list of pages: every page's items
            pages = self.p.items(container)  # a dict of pages stays dynamic (its later changes are not read here)
            if isinstance(pages, Dynamic):
                return pages
            out: list[Item] = []
            for page in pages:
                inner = self._listed(page.expr, kind, depth + 1)
                if isinstance(inner, Dynamic):
                    return inner
                out.extend(Item(i.expr, i.conditional or page.conditional) for i in inner)
            return out
        items = self._listed(container, kind, depth + 1)
        if isinstance(items, Dynamic):
            return items
        bounds = [self.p.evaluate(b) for b in index]
        if all(b is None or type(b) is int for b in bounds) and not any(i.conditional for i in items) and bounds[2] != 0:
            return items[slice(*bounds)]  # positions are certain only when every item is always there
        return items

    def lowlevel_item(self, server: Server, item: Item, kind: str, cond: bool, path: str, handler: FunctionFact) -> None:
        expr = item.expr
        made = False  # `expr` made here (by a helper's substitution): no module holds it
        for _ in range(_MAX_DEPTH):
            if isinstance(expr, Ref):
                value = self.p.value_of(expr)
                if value is not None:
                    expr, made = value, False
            if isinstance(expr, Call) and not _framework(self.p.origin(expr.func), "Tool", "Prompt"):
                fn = self.p.functions.get(self.p.origin(expr.func) or "")
                if fn is not None and len(fn.returns_exprs) == 1 and not expr.star:
                    returned = fn.returns_exprs[0]
                    expr = substitute(returned, bind(fn, expr))  # a helper building the Tool
                    made = expr is not returned
                    continue
            break
        fields: dict[str, Expr] | None = None
        line = handler.line
        if isinstance(expr, Call) and _framework(self.p.origin(expr.func), "Tool" if kind == "tool" else "Prompt") and not expr.star:
            fields = dict(expr.kwargs)
            line = expr.line or line
        elif isinstance(expr, Map):
            fields = {k.value: v for k, v in expr.items if isinstance(k, Const) and isinstance(k.value, str)}
        if fields is None:
            self.warn(server.flavor, path, line, f"a {kind} listed by {handler.name}() on MCP server '{server.name}' is not "
                      f"statically known: {describe(item.expr)}", site=("listed item", kind, server.site_name, shape(item.expr)))
            return
        name = self.p.evaluate(fields.get("name"))
        if not isinstance(name, str):
            self.warn(server.flavor, path, line, f"a {kind} name listed by {handler.name}() on MCP server '{server.name}' is not "
                      f"statically known: {describe(fields['name']) if 'name' in fields else 'missing'}", site=("listed name", kind, server.site_name, shape(fields.get("name"))))
            return
        item_path = (None if made else self.path_of_call(expr, handler)) or path
        if kind == "tool":
            schema = fields.get("inputSchema", fields.get("input_schema"))
            signature = None
            if schema is not None:
                signature = schema_signature(self.p.evaluate(schema)) or input_schema_signature(self.p, schema)
                if signature is None:  # fail closed: an unknown schema is said, never an empty one
                    self.warn(server.flavor, item_path, line, f"the input schema of tool '{name}' on MCP server "
                              f"'{server.name}' is not statically known: {describe(schema)}", site=("input schema", server.site_name, shape(schema)))
        else:
            signature = prompt_signature(self.p, fields.get("arguments"))
        entry = Entry(kind=kind, name=name, scope=server.name, path=item_path, line=line, dialect=server.flavor,  # type: ignore[arg-type]
                      root=True, conditional=cond or server.conditional, signature=signature,
                      description_sha256=digest(self.p.text(fields.get("description"))))
        if kind == "tool":
            apply_hints(entry, self.hints(fields.get("annotations")))
        self.a.registrations.append(Registration(server.symbol, entry, set(), True))

    def path_of_call(self, expr: Call | Map, handler: FunctionFact) -> str | None:
        """The file a `Tool(...)` call (or `{"name": ...}` dict) is written in (it may be a constant
        in another module). The handler's own module is looked at first: walking every module's
        expressions (the fallback) read all of a program's facts, lazily read modules included."""
        own = self.p.module_of.get(handler.symbol)
        if own is not None and self._call_paths is None:
            if own.path not in self._own_calls:
                self._own_calls[own.path] = {id(sub) for sub in _calls_and_maps(own)}
            if id(expr) in self._own_calls[own.path]:
                return own.path
        if self._call_paths is None:
            self._call_paths = {}
            for m in self.p.modules.values():
                for sub in _calls_and_maps(m):
                    self._call_paths.setdefault(id(sub), m.path)
        return self._call_paths.get(id(expr))


# --- helpers (pure) -------------------------------------------------------------------------------


def _calls_and_maps(m: ModuleFacts) -> Iterator[Call | Map]:
    """Every call and dict written in module `m` (at module level, in statements, in returns)."""
    roots: list[Expr] = [a.value for a in m.assigns] + [e.call for e in m.effects]
    for f in m.functions:
        roots.extend(f.returns_exprs)
    for r in roots:
        yield from nodes_in(r, (Call, Map))


# --- screens: what each scan of the analyser looks at in one module (`Program.scan`). Pure functions
# of the module and of what they ask the program; what they skip, the analyser would skip too.


def _sites_of(p: Program, calls: Iterable[tuple[Call, bool, str | None]]) -> list[tuple[str, Call, bool, bool, bool, str | None]]:
    """(callee, call, instance bound, applied, conditional, calling function) for calls of repository
    functions: the site is `_site_call(call, bound, applied)`. `Cls(args)` calls
    `Cls.__init__(<instance>, args)`; a method called on an instance (`self.m(...)`, `Cls(...).m(...)`,
    `obj.m(...)` with `obj = Cls(...)`, and `cls(...).m(...)` in a loop over classes) gets the instance
    as its first argument. The calls are the module's own objects, so that a kept screen can say
    where they are (screenstore.py): the site made from one is made by the dialect."""
    named: dict[str, list[tuple[str, bool]]] = {}  # a name called in many places denotes the same functions
    out = []
    for call, cond, caller in calls:
        func = call.func
        if func.__class__ is Ref:
            callees = named.get(func.name)  # type: ignore[union-attr]
            if callees is None:
                callees = named[func.name] = _callees(p, func, 0)  # type: ignore[union-attr]
        else:
            callees = _callees(p, func, 0)
        for symbol, bound in callees:
            out.append((symbol, call, bound, False, cond, caller))
        if func.__class__ is Call and func.func.__class__ is Ref:  # type: ignore[union-attr]
            # `helper(...)(fn)`: what the helper returns is applied to fn (a decorator factory), kept
            # under "helper()" with the helper's own call (instance bound) as the applied function.
            for symbol, bound in _callees(p, func.func, 0):  # type: ignore[union-attr]
                out.append((symbol + "()", call, bound, True, cond, caller))
    return out


def _site_call(call: Call, bound: bool, applied: bool) -> Call:
    """The call site `_sites_of` selected: the instance bound as the first argument of the method
    called (of the helper whose result is applied, when `applied`)."""
    if applied:
        func = call.func
        made = replace(func, args=(Const(None), *func.args)) if bound else func  # type: ignore[type-var, union-attr]
        return replace(call, func=made)
    return replace(call, args=(Const(None), *call.args)) if bound else call


def _statement_sites(p: Program, m: ModuleFacts) -> list[tuple[str, Call, bool, bool, bool, str | None]]:
    """Call sites in assigned values and statements (`Program.iter_calls` order)."""
    return _sites_of(p, ((call, a.conditional, None) for a in m.assigns for call in calls_in(a.value)))  \
        + _sites_of(p, ((call, e.conditional, None) for e in m.effects for call in calls_in(e.call)))


def _function_sites(p: Program, m: ModuleFacts) -> list[tuple[str, Call, bool, bool, bool, str | None]]:
    """Call sites in function bodies (always conditional: whether the function runs is not known)."""
    return _sites_of(p, ((call, True, g.symbol) for g in m.functions for call in g.calls))


def _callees(p: Program, func: Expr, depth: int) -> list[tuple[str, bool]]:
    """Repository functions a callee expression may denote, each with "the instance is bound"."""
    if depth > _MAX_DEPTH:
        return []
    if isinstance(func, Ref):
        symbol = p.canonical(func.name)
        if symbol in p.classes:
            init = p.canonical(f"{symbol}.__init__")
            return [(init, True)] if init in p.functions else []
        if symbol in p.functions:
            return [(symbol, _is_bound_method(p.functions[symbol]))]
        owner, _, attr = symbol.rpartition(".")
        return [(m, True) for c in _classes_of(p, Ref(owner), depth + 1) if (m := p.canonical(f"{c}.{attr}")) in p.functions]
    if isinstance(func, Attr):
        return [(m, True) for c in _classes_of(p, func.value, depth + 1) if (m := p.canonical(f"{c}.{func.attr}")) in p.functions]
    return []


def _classes_of(p: Program, expr: Expr, depth: int) -> list[str]:
    """Repository classes an instance expression is made from: `Cls(...)`, a variable bound once to
    one, or a loop variable over classes (`for cls in [A, B]: cls(...)`)."""
    if depth > _MAX_DEPTH:
        return []
    if isinstance(expr, Call) and isinstance(expr.func, Ref):
        symbol = p.canonical(expr.func.name)
        if symbol in p.classes:
            return [symbol]
        over = p.iterated(symbol)
        if isinstance(over, list):
            return sorted({c for i in over if isinstance(i.expr, Ref) and (c := p.canonical(i.expr.name)) in p.classes})
        return []
    if isinstance(expr, Ref):
        binds = [a for a in p.assigns.get(p.canonical(expr.name), []) if a.op == "="]
        if len(binds) == 1 and isinstance(binds[0].value, Call):
            return _classes_of(p, binds[0].value, depth + 1)
    return []


def _is_bound_method(fn: FunctionFact) -> bool:
    """A method reached through an instance (`self.register(mcp)`): its first parameter is the instance."""
    if fn.owner_class is None or not fn.params:
        return False
    return not any(isinstance(d, Ref) and d.name.endswith("staticmethod") for d in fn.decorators) and fn.params[0].name in ("self", "cls")


def _server_kind(p: Program, call: Call) -> tuple[str, bool] | None:
    """(flavor, low-level) of the server class a call constructs, or None."""
    origin = p.origin(call.func)
    kind = _server_class(origin)
    # (None, a callee with no origin, is never asked: a read of a key that is not text keeps no screen)
    if kind is None and origin is not None and origin in p.classes:
        for base in sorted(p.class_bases(p.classes[origin])):
            kind = _server_class(base)
            if kind:
                break
    return kind


def _server_assigns(p: Program, m: ModuleFacts) -> list[AssignFact]:
    """Assignments `find_servers` reads: a server built (`FastMCP(...)`, a generated one) or a call of a
    repository function returning exactly one server construction (a factory, which it notes)."""
    out = []
    for a in p.assigned_calls(m):
        origin = p.origin(a.value.func) or ""
        if (origin.startswith("fastmcp.") and leaf(origin) in _GENERATED) or _server_kind(p, a.value) is not None:
            out.append(a)
            continue
        fn = p.functions.get(p.origin(a.value.func) or "")
        if fn is not None and not a.value.star and sum(1 for r in fn.returns_exprs if isinstance(r, Call) and _server_kind(p, r) is not None) == 1:
            out.append(a)
    return out


def _server_factories(p: Program, m: ModuleFacts) -> list[FunctionFact]:
    """Functions returning exactly one server construction."""
    return [fn for fn in m.functions if sum(1 for r in fn.returns_exprs if isinstance(r, Call) and _server_kind(p, r) is not None) == 1]


def _imports_flavor(m: ModuleFacts | None) -> str | None:
    """"fastmcp" / "mcp" when module `m` imports that framework, else None."""
    origins = sorted(m.imports.values()) if m is not None else []
    if any(o == "fastmcp" or o.startswith("fastmcp.") for o in origins):
        return "fastmcp"
    if any(o == "mcp" or o.startswith("mcp.") for o in origins):
        return "mcp"
    return None


# A FastMCP server's private component tables (the SDK's and fastmcp 2's managers keep them in
# these), and a low-level server's table of request handlers (`handlers`), which an MCP proxy
# writes straight into: `app.request_handlers[types.ListToolsRequest] = _list_tools`.
_PRIVATE_TABLES = re.compile(
    r"^(?P<server>.+?)\.(?:(?:_tool_manager|_prompt_manager)(?:\.(?:_tools|_prompts))?|(?P<handlers>request_handlers))(?:$|\.(?P<method>\w+)$)"
)


def _table_written(text: str) -> re.Match[str] | None:
    return _PRIVATE_TABLES.match(text) if "_manager" in text or "request_handlers" in text else None


def _registry_writes(p: Program, m: ModuleFacts) -> list[tuple[Expr, str, int, str | None]]:
    """(receiver, what is written, line, function whose parameter the receiver is) for the writes
    `_Analyser.registry_writes` reports: an assignment to a server's private table (or to an item
    of it), and a call of a method that changes it (the extractor keeps a store into a parameter's
    private state as such a call: python.py `_private_store`)."""
    out: list[tuple[Expr, str, int, str | None]] = []
    def spelled(text: str) -> str:  # as written in its module or function
        return text.rsplit(".<locals>.", 1)[-1].removeprefix(m.module + ".")

    for a in m.assigns:
        found = _table_written(a.target)
        if found is not None and found.group("method") is None:
            key = a.value.items[0][0] if a.op in ("[]=", "del") and a.value.__class__ is Map and len(a.value.items) == 1 else None  # type: ignore[union-attr]
            item = _item_said(found, key)
            if item is not None:
                what = {"[]=": "{}[%s] = ..." % item, "del": "del {}[%s]" % item}.get(a.op, "{} = ...").format(spelled(a.target))
                out.append((Ref(found.group("server")), what, a.line, None))
    for e in m.effects:
        func = e.call.func
        text = func.name if func.__class__ is Ref else func.src if func.__class__ is Dyn and func.why == "parameter" else ""  # type: ignore[union-attr]
        found = _table_written(text)
        if found is None or found.group("method") in (None, *_TABLE_READERS) or text.endswith(("._tool_manager.add_tool", "._prompt_manager.add_prompt")):
            continue
        item = _item_said(found, e.call.args[0] if found.group("method") in ("__setitem__", "__delitem__") and e.call.args else None)
        if item is None:
            continue
        server = found.group("server")
        if func.__class__ is Dyn:
            receiver: Expr = Dyn(server, "parameter")
            owner = _owner_by_line(m, server.split(".")[0], e.call.line) if "." not in server else None
            if owner is None:
                continue
        else:
            receiver, owner = Ref(server), None
        method = found.group("method")
        table = text.rpartition(".")[0]
        what = {"__setitem__": "{}[%s] = ..." % item, "__delitem__": "del {}[%s]" % item}.get(method, "{}.%s(...)" % method).format(spelled(table))
        if method == "__setattr__":
            key = e.call.args[0] if e.call.args else None
            what = f"{spelled(table)}.{key.value if isinstance(key, Const) else '*'} = ..."
        out.append((receiver, what, e.call.line, owner))
    return out


# The keyword that names what `add_tool` / `add_prompt` registers, when it is not passed positionally.
_REGISTERED_KEYWORDS = ("fn", "tool", "prompt")


# The low-level server's requests that list or run its tools and prompts: a handler set for one of
# them straight in `server.request_handlers` (an MCP proxy's way) serves what it decides at run time.
_SURFACE_REQUESTS = frozenset({"ListToolsRequest", "CallToolRequest", "ListPromptsRequest", "GetPromptRequest"})


def _item_said(found: re.Match[str], key: Expr | None) -> str | None:
    """How a write names the item of a table it writes ("..." when not said), or None when it is
    not the surface's: a request handler table's item keyed by a request other than
    `_SURFACE_REQUESTS` (resources, logging) is none of the agent surface."""
    if found.group("handlers") and key.__class__ is Ref:
        leaf = key.name.rpartition(".")[2]  # type: ignore[union-attr]
        return leaf if leaf in _SURFACE_REQUESTS else None
    return "..."


# Methods that read a component table, leaving it as it is.
_TABLE_READERS = frozenset({"get", "keys", "values", "items", "copy", "__getitem__", "__contains__", "__len__", "__iter__"})


def _registration_decorators(p: Program, m: ModuleFacts) -> list[tuple[FunctionFact, Expr]]:
    """(function, decorator) for decorators that, seen through, call a method `decorator` reads."""
    out = []
    for fn in m.functions:
        for dec in fn.decorators:
            receiver, method = split_method(decorator_call(dec, p)[0], parameters=True)
            if receiver is not None and method in ("tool", "prompt", "list_tools", "list_prompts"):
                out.append((fn, dec))
    return out


def _registration_calls(p: Program, m: ModuleFacts) -> list[tuple[Call, bool, bool, str | None]]:
    """(call seen through, conditional, guarded, function whose parameter is the receiver) for the
    statement calls `_Analyser.call` reads: registration and serving methods."""
    out = []
    other: dict[str, bool] = {}  # callee name -> seen through, a name whose method is none of these
    for call, cond, guarded in _statement_calls(m):
        if call.func.__class__ is Ref:  # most calls (a module calls the same names over and over)
            name = call.func.name  # type: ignore[union-attr]
            skip = other.get(name)
            if skip is None:
                seen = p.see_through(call.func, 1)  # as resolve_call sees it, without building the resolved call
                skip = other[name] = seen.__class__ is Ref and seen.name.rpartition(".")[2] not in _REGISTER_OR_SERVE  # type: ignore[union-attr]
            if skip:
                continue
        elif call.func.__class__ is Attr and call.func.attr not in _REGISTER_OR_SERVE:  # type: ignore[union-attr]
            continue  # (resolve_call leaves an attribute callee as it is)
        call = p.resolve_call(call)
        func = call.func
        inner = func if isinstance(func, Call) else None
        target = func.func if inner is not None else func
        receiver, method = split_method(target, parameters=True)
        if receiver is None or method is None or (method not in _REGISTER_OR_SERVE and not (inner is not None and method in _LIST_HANDLERS)):
            continue
        if inner is None and method in ("tool", "prompt") and not call.args:
            continue  # `mcp.tool(name=...)` alone is a decorator factory, used elsewhere
        owner = None
        if isinstance(target, Dyn) and target.why == "parameter":
            owner = _owner_by_line(m, target.src.split(".")[0], call.line)
        elif receiver.__class__ is Ref:  # `self.add_tool(...)` in a method: the method making it
            owner = _method_by_line(m, receiver.name, call.line)  # type: ignore[union-attr]
        out.append((call, cond, guarded, owner))
    return out


# Names in an expression's source text that are not attributes (`x.register` is x's) nor inside a
# string, with the attributes read off them (`tools.register`); and the name a `vars()` /
# `globals()` / `locals()` lookup spells (`vars()["register"]`).
_DOTTED_NAMES = re.compile(r"(?<![\w.'\"])[A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*")
_STRINGS = re.compile(r"'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\"")
_NAMESPACE_KEY = re.compile(r"\b(?:vars|globals|locals)\s*\(\s*\)\s*(?:\[|\.get\s*\(|\.__getitem__\s*\()\s*['\"]([A-Za-z_]\w*)['\"]")
# Callees that cannot call what they are handed: a registration function logged, printed, formatted
# or tested registers nothing there (a `logging.Logger` method: `logger.info("%s", register)`).
_INERT_CALLEES = frozenset({"builtins.print", "builtins.repr", "builtins.str", "builtins.format", "builtins.ascii",
                            "builtins.isinstance", "builtins.issubclass", "builtins.callable", "builtins.id",
                            "builtins.hash", "builtins.type", "builtins.len", "builtins.hasattr"})
_INERT_PACKAGES = ("logging.", "loguru.", "structlog.", "warnings.")
_LOG_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical", "log"})


def _inert(p: Program, call: Call) -> bool:
    """`call` reads its arguments without calling them (`_INERT_CALLEES`, a logger's method)."""
    func = call.func
    origin = p.origin(func)
    if origin is None:
        return False
    if origin in _INERT_CALLEES or origin.startswith(_INERT_PACKAGES):
        return True
    if func.__class__ is Ref and "." in func.name and func.name.rpartition(".")[2] in _LOG_METHODS:  # type: ignore[union-attr]
        receiver = p.value_of(Ref(func.name.rpartition(".")[0]))  # type: ignore[union-attr]
        made = p.origin(receiver) if receiver.__class__ is Call else None
        return made is not None and made.startswith(_INERT_PACKAGES)
    return False


def _value_refs(expr: Expr, out: list[tuple[Expr, Call | None]], within: Call | None = None) -> None:
    """(name, innermost call it is an argument of) for each name used as a value inside `expr`
    (not a call's callee naming it exactly: that call is followed), each computed callee and each
    expression only kept as source text (any name in it is a use the program does not follow),
    and each `getattr(...)` call (a name looked up by its text)."""
    cls = expr.__class__
    if cls is Ref:
        out.append((expr, within))
    elif cls is Call:
        func = expr.func  # type: ignore[union-attr]
        if func.__class__ is Call:  # `partial(register, admin)()`, `getattr(tools, "register")(admin)`
            _value_refs(func, out, within)
        elif func.__class__ is Dyn and func.why != "parameter":  # `vars()["register"](admin)`  # type: ignore[union-attr]
            out.append((func, within))
        elif func.__class__ is Attr:  # `make().register(admin)`
            _value_refs(func.value, out, within)  # type: ignore[union-attr]
        if func.__class__ is Ref and func.name == "builtins.getattr" and len(expr.args) >= 2:  # type: ignore[union-attr]
            out.append((expr, within))
        for a in expr.args:  # type: ignore[union-attr]
            _value_refs(a, out, expr)  # type: ignore[arg-type]
        for _, v in expr.kwargs:  # type: ignore[union-attr]
            _value_refs(v, out, expr)  # type: ignore[arg-type]
        for v in expr.spread:  # type: ignore[union-attr]
            _value_refs(v, out, expr)  # type: ignore[arg-type]
    elif cls is Seq:
        for a in expr.items:  # type: ignore[union-attr]
            _value_refs(a, out, within)
    elif cls is Map:
        for k, v in expr.items:  # type: ignore[union-attr]
            _value_refs(k, out, within)
            _value_refs(v, out, within)
    elif cls is Splat or cls is Attr:
        _value_refs(expr.value, out, within)  # type: ignore[union-attr]
    elif cls is Concat:
        _value_refs(expr.left, out, within)  # type: ignore[union-attr]
        _value_refs(expr.right, out, within)  # type: ignore[union-attr]
    elif cls is Dyn and expr.why != "parameter":  # type: ignore[union-attr]
        if expr.why == "f-string":  # type: ignore[union-attr]
            for part in expr.parts:  # type: ignore[union-attr]  (formatting a value calls nothing)
                if part.__class__ is not Ref:
                    _value_refs(part, out, within)
            if expr.parts:  # type: ignore[union-attr]
                return
        out.append((expr, within))


def _raw_text(d: Dyn) -> str:
    """A Dyn's source text as written (rendering it parses it again: only done for what is reported)."""
    return d._src if d._src is not None else d._span  # type: ignore[attr-defined,return-value]


def _text_uses(p: Program, m: ModuleFacts, text: str, local: frozenset[str], params: frozenset[str]) -> list[str]:
    """Repository functions taking parameters that source text `text` (an expression the facts keep
    only as text) names: a module-level name of `m` (`register`), an attribute path through one
    (`tools.register`), or a namespace lookup by name (`vars()["register"]`). A name that is a
    parameter of the enclosing function is that parameter."""
    names = _NAMESPACE_KEY.findall(text)
    for dotted in _DOTTED_NAMES.findall(_STRINGS.sub("''", text)):
        first = dotted.split(".", 1)[0].strip()
        if first in local and first not in params:
            names.append("".join(dotted.split()))
    out = []
    for name in names:
        if name.split(".", 1)[0] not in local:
            continue
        symbol = p.canonical(f"{m.module}.{name}")
        fn = p.functions.get(symbol)
        if fn is not None and fn.params and symbol not in out:
            out.append(symbol)
    return out


def _bound_names(m: ModuleFacts) -> frozenset[str]:
    """Names bound at `m`'s top level by an import, a def, a class or an assignment."""
    prefix = m.module + "."
    names = {s[len(prefix):] for s in m.imports if s.startswith(prefix)}
    names.update(f.symbol[len(prefix):] for f in m.functions if f.symbol.startswith(prefix))
    names.update(a.target[len(prefix):] for a in m.assigns if a.target.startswith(prefix))
    names.update(c.symbol[len(prefix):] for c in m.classes if c.symbol.startswith(prefix))
    return frozenset(n for n in names if "." not in n)


def _function_values(p: Program, m: ModuleFacts) -> list[tuple[str, int, str]]:
    """(function, line, how it is used) for each repository function taking parameters that `m`
    uses other than by a call naming it exactly: an argument, an item, an assigned, returned,
    default or class-attribute value, a decorator's argument, a name inside an expression kept only
    as text (a conditional expression, a subscript, a lambda, a comprehension), a `getattr` of its
    module or a namespace lookup by name. An alias the program resolves (`setup = register`, then
    `setup(mcp)` is a call of register) is not a use, nor an argument of a call that cannot call it
    (`_inert`), nor an attribute read off it (`register.__name__`)."""
    found: list[tuple[Expr, int, str | Call | None, frozenset[str]]] = []
    none: frozenset[str] = frozenset()

    def scan(expr: Expr, line: int, how: str | None, params: frozenset[str] = none) -> None:
        refs: list[tuple[Expr, Call | None]] = []
        _value_refs(expr, refs)
        found.extend((r, line, within or how, params) for r, within in refs)

    for a in m.assigns:
        value = a.value
        if value.__class__ is Const:
            continue
        if a.op == "=" and value.__class__ is Ref and p.canonical(a.target) == p.canonical(value.name):  # type: ignore[union-attr]
            continue  # a plain alias: its calls are calls of the function
        scan(value, a.line, "iterated by a loop" if a.op == "in" else f"in the value of {a.target.rsplit('.', 1)[-1]}")
    for e in m.effects:
        scan(e.call, e.call.line, None)
    for fn in m.functions:
        params = frozenset(q.name for q in fn.params)
        for call in fn.calls:
            scan(call, call.line or fn.line, None, params)
        for ret in fn.returns_exprs:
            scan(ret, fn.line, f"returned by {fn.name}()", params)
        for dec in fn.decorators:
            scan(dec, fn.line, f"decorating {fn.name}()")
        for q in fn.params:
            if q.default_expr is not None:
                scan(q.default_expr, fn.line, f"default of parameter {q.name} of {fn.name}()")
    for c in m.classes:
        for attr, value in c.attrs.items():
            scan(value, c.attr_lines.get(attr, c.line), f"class attribute {c.name}.{attr}")
        for expr in (*c.bases, *c.decorators, *c.keywords.values(), *(x for f in c.fields for x in (f.value, *f.meta) if x is not None)):
            scan(expr, c.line, f"in class {c.name}")
    out: list[tuple[str, int, str]] = []
    seen: set[tuple[str, int, str]] = set()
    local: frozenset[str] | None = None
    for r, line, how, params in found:
        cls = r.__class__
        if cls is Dyn:
            if local is None:
                local = _bound_names(m)
            symbols = _text_uses(p, m, _raw_text(r), local, params)  # type: ignore[arg-type]
            # Said as the assignment it is in (`in the value of setup`) when there is one; a lambda, a
            # computed callee or an argument by its text.
            what = (how if how.__class__ is str and r.why != "lambda" else r.src) if symbols else ""  # type: ignore[union-attr]
            hits = [(s, what) for s in symbols]
        elif cls is Call:  # getattr(<module>, name)
            target = p.canonical(r.args[0].name) if r.args[0].__class__ is Ref else None  # type: ignore[union-attr]
            split = p.module_split(target) if target else None
            if split is None or split[1]:
                continue
            name = p.evaluate(r.args[1])  # type: ignore[union-attr]
            symbol = p.canonical(f"{target}.{name}") if isinstance(name, str) else f"{target}.*"
            if isinstance(name, str) and not (symbol in p.functions and p.functions[symbol].params):
                continue
            hits = [(symbol, describe(r))]  # type: ignore[arg-type]
        else:
            symbol = p.canonical(r.name)  # type: ignore[union-attr]
            if symbol not in p.functions or not p.functions[symbol].params:
                continue
            said = how if how.__class__ is str else f"passed to {describe(how.func) if how is not None else '?'}()"  # type: ignore[union-attr]
            hits = [(symbol, said)]  # type: ignore[list-item]
        if hits and how is not None and how.__class__ is Call and _inert(p, how):  # type: ignore[arg-type]
            continue  # read last: few names are registration functions, most calls are not inert
        for symbol, what in hits:
            item = (symbol, line, what)
            if item not in seen:
                seen.add(item)
                out.append(item)
    return out


def _unbound_calls(p: Program, m: ModuleFacts) -> list[tuple[Call, str]]:
    """(call, path) for calls with arguments of a plain name the program binds to nothing it reads:
    a name bound where the facts do not look (`if (setup := register): setup(admin)`), or a loop
    variable over what cannot be listed (`for step in steps(): step(admin)`, steps yielding)."""
    out: list[tuple[Call, str]] = []
    seen: set[int] = set()
    calls = [(e.call, m.path) for e in m.effects]
    for fn in m.functions:
        calls.extend((c, m.path) for c in fn.calls)
    prefix = m.module + "."
    for call, path in calls:
        func = call.func
        if func.__class__ is not Ref or not (call.args or call.kwargs) or id(call) in seen:
            continue
        seen.add(id(call))
        name = func.name  # type: ignore[union-attr]
        if not name.startswith(prefix) or "." in name[len(prefix):].replace(".<locals>.", "/"):
            continue  # not a plain name of this module or of one of its functions
        symbol = p.canonical(name)
        if not p.in_repo(symbol) or p.lookup(symbol) is not None or symbol in p.modules:
            continue
        items = p.iterated(symbol, call.line)
        if isinstance(items, list):
            continue
        out.append((call, path))
    return out


# What `unfollowed_use` reads a call through (getattr family) or passes over (anything else).
_ATTRIBUTE_BUILTINS = frozenset({"builtins.getattr", "builtins.setattr", "builtins.delattr"})


def _uses_server(p: Program, call: Call) -> bool:
    """A call `unfollowed_use` says something about: one passing an argument spelled like a
    registration method (`setup(mcp.tool)`), or a getattr/setattr/delattr call with a name or call
    as first of two or more arguments (`getattr(mcp, name)`). Programs hold hundreds of thousands
    of calls and few pass, so the name is resolved last, only for a callee with such arguments
    (a selection that stays empty is what a kept screen can reuse, see screenstore.py)."""
    args = call.args
    for value in args:
        if value.__class__ is Ref and value.name.endswith(_REGISTER_ENDINGS) and value.name.rpartition(".")[2] in _REGISTER_METHODS:  # type: ignore[union-attr]
            return True
    for _, value in call.kwargs:
        if value.__class__ is Ref and value.name.endswith(_REGISTER_ENDINGS) and value.name.rpartition(".")[2] in _REGISTER_METHODS:  # type: ignore[union-attr]
            return True
    return (len(args) >= 2 and call.func.__class__ is Ref and args[0].__class__ in (Ref, Call)
            and p.canonical(call.func.name) in _ATTRIBUTE_BUILTINS)  # type: ignore[union-attr]


def _statement_uses(p: Program, m: ModuleFacts) -> list[Call]:
    """Calls of assigned values and statements (`Program.iter_calls` order) `unfollowed_use` reads."""
    return [call for expr in [*(a.value for a in m.assigns), *(e.call for e in m.effects)] for call in calls_in(expr) if _uses_server(p, call)]


def _function_uses(p: Program, m: ModuleFacts) -> list[tuple[Call, str]]:
    """(call, path) in function bodies and decorators that `unfollowed_use` reads."""
    out = []
    for fn in m.functions:
        for call in [*fn.calls, *(c for d in fn.decorators for c in calls_in(d))]:
            if _uses_server(p, call):
                out.append((call, p.path_of(fn.symbol)))
    return out


def _statement_calls(m: ModuleFacts) -> Iterable[tuple[Call, bool, bool]]:
    """Calls in assignments and statement expressions, outermost first (so `mcp.tool()(fn)` is seen
    whole), with (conditional, guarded)."""
    for a in m.assigns:
        if isinstance(a.value, Call):
            yield a.value, a.conditional, a.guarded
    for e in m.effects:
        yield e.call, e.conditional, e.guarded


# Methods that put an item into a collection (what a registry decorator does with the function).
_COLLECTING = frozenset({"append", "extend", "insert", "add", "update", "setdefault", "__setitem__"})
_FLOW_STEPS = 200  # expressions followed back from a registration's callable, at most


def _flow_sources(p: Program, target: Expr) -> set[str]:
    """The names whose items the value of `target` may be drawn from: followed back through every
    binding of a name (loop variables included), the arguments and callee of a call, a subscript's
    container, and what a repository function called returns; the names that collect items
    (`effects_by_receiver`) are kept. An over-approximation, bounded."""
    found: set[str] = set()
    seen: set[str] = set()
    todo: list[Expr] = [target]
    steps = 0
    while todo and steps < _FLOW_STEPS:
        steps += 1
        for e in nodes_in(todo.pop(), (Ref, Dyn)):
            if e.__class__ is Dyn:  # a subscript's container, an f-string's pieces: not walked into
                todo.extend(e.parts)  # type: ignore[union-attr]
                continue
            name = p.canonical(e.name)  # type: ignore[union-attr]
            # `_registry.copy()`, `REGISTRY.values()`: a method called on a collection gives its items
            for name in (name, p.canonical(name.rpartition(".")[0]) if "." in name else ""):
                if not name or name in seen:
                    continue
                seen.add(name)
                if name in p.effects_by_receiver:
                    found.add(name)
                todo.extend(a.value for a in p.assigns.get(name, ()))
                fn = p.functions.get(name)
                if fn is not None:
                    todo.extend(fn.returns_exprs)
    return found


def _repository_decorated(p: Program, m: ModuleFacts) -> list[tuple[FunctionFact, str]]:
    """(function, decorator's function) for each decorator of this module naming a function of the
    repository (`@collect(...)`, `@collect`)."""
    out = []
    for fn in m.functions:
        for dec in fn.decorators:
            callee = dec.func if dec.__class__ is Call else dec  # type: ignore[union-attr]
            if callee.__class__ is Ref:
                symbol = p.canonical(callee.name)  # type: ignore[union-attr]
                if symbol in p.functions:
                    out.append((fn, symbol))
    return out


def _owner_by_line(m: ModuleFacts, pname: str, line: int) -> str | None:
    """The function of this module declaring parameter `pname` that most closely precedes `line`.

    Facts do not record which function a statement-level call belongs to; the nearest preceding
    definition with that parameter is the one whose body holds it (nested definitions inherit it).
    """
    return _nearest_above(m, line, lambda f: any(p.name == pname for p in f.params))


def _method_by_line(m: ModuleFacts, cls: str, line: int) -> str | None:
    """The method of class `cls` (defined in this module) whose body holds `line`, read the same way."""
    return _nearest_above(m, line, lambda f: f.owner_class == cls)


def _nearest_above(m: ModuleFacts, line: int, keep: Callable[[FunctionFact], bool]) -> str | None:
    """The function of this module `keep` selects defined nearest above `line` (at it included)."""
    best: FunctionFact | None = None
    for f in m.functions:
        if f.line <= line and keep(f) and (best is None or f.line > best.line):
            best = f
    return best.symbol if best else None


def bind(fn: FunctionFact, call: Call, *, instance: bool = False) -> dict[str, Expr]:
    """Parameter name -> argument expression for a call of a repository helper. `instance`: a
    method called through its class (a constructor call of `__init__`): its first parameter is the
    instance, no argument of the call."""
    out: dict[str, Expr] = {}
    positional = [p for p in fn.params[1 if instance else 0:] if p.kind in ("pos", "posonly")]
    for p, a in zip(positional, call.args):
        if not isinstance(a, Splat):
            out[p.name] = a
    for k, v in call.kwargs:
        out[k] = v
    for p in fn.params:
        if p.name not in out and p.default_expr is not None:
            out[p.name] = p.default_expr
    return out


def substitute(expr: Expr, bindings: dict[str, Expr]) -> Expr:
    """Replace a helper's parameters by the caller's arguments (`def ann(ro): return ToolAnnotations(readOnlyHint=ro)`)."""
    if not bindings:
        return expr
    if isinstance(expr, Dyn):
        return bindings.get(expr.src, expr) if expr.why == "parameter" else expr
    if isinstance(expr, Call):
        return replace(expr, func=substitute(expr.func, bindings), args=tuple(substitute(a, bindings) for a in expr.args),
                       kwargs=tuple((k, substitute(v, bindings)) for k, v in expr.kwargs))
    if isinstance(expr, Seq):
        return Seq(tuple(substitute(a, bindings) for a in expr.items))
    if isinstance(expr, Map):
        return Map(tuple((substitute(k, bindings), substitute(v, bindings)) for k, v in expr.items))
    if isinstance(expr, Splat):
        return Splat(substitute(expr.value, bindings))
    if isinstance(expr, Attr):
        return Attr(substitute(expr.value, bindings), expr.attr)
    if isinstance(expr, Concat):
        return Concat(substitute(expr.left, bindings), substitute(expr.right, bindings))
    return expr


def effective_hints(hints: dict[str, Any] | Dynamic) -> dict[str, Any]:
    """MCP spec semantics: the Entry attributes a set of declared hints means.

    destructiveHint and idempotentHint only mean something when readOnlyHint is false: a read-only
    tool changes nothing, so it is never destructive and trivially idempotent.
    """
    if isinstance(hints, Dynamic):
        return {"read_only": hints, "dangerous": hints, "idempotent": hints, "open_world": hints}
    ro = as_bool(hints.get("read_only"), False)
    destructive = as_bool(hints.get("destructive"), True)
    idempotent = as_bool(hints.get("idempotent"), False)
    open_world = as_bool(hints.get("open_world"), True)
    if ro is True:
        dangerous, idem = False, True
    elif ro is False:
        dangerous, idem = destructive, idempotent
    else:
        dangerous = False if destructive is False else _either(ro, destructive, "destructiveHint")
        idem = True if idempotent is True else _either(ro, idempotent, "idempotentHint")
    return {"read_only": ro, "dangerous": dangerous, "idempotent": idem, "open_world": open_world}


def _either(ro: Dynamic, other: Any, label: str) -> Dynamic:
    if isinstance(other, Dynamic):
        return Dynamic(dynamic=f"readOnlyHint={ro.dynamic}; {label}={other.dynamic}")
    return ro


def apply_hints(entry: Entry, hints: dict[str, Any] | Dynamic) -> None:
    for k, v in effective_hints(hints).items():
        setattr(entry, k, v)
    entry.defaults = default_reasons(hints)


def default_reasons(hints: dict[str, Any] | Dynamic) -> dict[str, str]:
    """Which effective attributes are MCP protocol defaults rather than declared hints, and why."""
    if isinstance(hints, Dynamic):
        return {}
    reason = "mcp:no-annotations" if not hints else "mcp:not-declared"
    ro_declared = "read_only" in hints
    # destructiveHint/idempotentHint are moot for a tool declared read-only: its value then follows from that declaration
    follows_ro = ro_declared and hints.get("read_only") is True
    declared = {
        "read_only": ro_declared,
        "dangerous": follows_ro or "destructive" in hints,
        "idempotent": follows_ro or "idempotent" in hints,
        "open_world": "open_world" in hints,
    }
    return {attr: reason for attr, given in sorted(declared.items()) if not given}


def _json_type(schema: Any) -> str | None:
    if not isinstance(schema, dict):
        return None
    t = schema.get("type")
    if isinstance(t, str):
        return t
    if isinstance(t, list) and all(isinstance(x, str) for x in t):
        return " | ".join(t)
    if "$ref" in schema and isinstance(schema["$ref"], str):
        return schema["$ref"].rsplit("/", 1)[-1]
    return None


def schema_signature(schema: Any) -> Signature | None:
    """A low-level tool's signature from its literal JSON input schema (None when not literal)."""
    if not isinstance(schema, dict):
        return None
    props = schema.get("properties") or {}
    required = schema.get("required") or []
    if not isinstance(props, dict) or not isinstance(required, list):
        return None
    params = []
    for name, sub in props.items():
        default = sub.get("default") if isinstance(sub, dict) else None
        params.append(Param(name=str(name), type=_json_type(sub), required=name in required,
                            default=None if default is None or isinstance(default, Dynamic) else repr(default)))
    return Signature(params=params)


def prompt_signature(program: Program, expr: Expr | None) -> Signature | None:
    """A low-level prompt's signature from `arguments=[PromptArgument(name=..., required=...)]`."""
    if expr is None:
        return Signature()
    items = program.items(expr)
    if isinstance(items, Dynamic):
        return None
    params = []
    for item in items:
        arg = program.value_of(item.expr) if isinstance(item.expr, Ref) else item.expr
        if isinstance(arg, Call):
            fields = dict(arg.kwargs)
        elif isinstance(arg, Map):
            fields = {k.value: v for k, v in arg.items if isinstance(k, Const) and isinstance(k.value, str)}
        else:
            return None
        name = program.evaluate(fields.get("name"))
        if not isinstance(name, str):
            return None
        params.append(Param(name=name, required=program.evaluate(fields.get("required")) is True))
    return Signature(params=params)


# --- views and candidates -------------------------------------------------------------------------


def _views(analysis: Analysis) -> dict[str, list[View]]:
    by_child: dict[str, list[Mount]] = {}
    for m in analysis.mounts:
        by_child.setdefault(m.child, []).append(m)
    memo: dict[str, list[View]] = {}

    def views(symbol: str, stack: frozenset[str]) -> list[View]:
        if symbol in memo:
            return memo[symbol]
        out: list[View] = []
        mounts = by_child.get(symbol, [])
        if not mounts or symbol in analysis.served:
            out.append(View(symbol, (), False, (symbol,), ()))
        for m in mounts:
            if m.parent in stack or m.parent == symbol:
                continue  # a mount cycle adds nothing a caller could reach
            prefix = m.prefix if m.prefix is None or isinstance(m.prefix, str) else "{" + m.prefix.dynamic + "}"
            for v in views(m.parent, stack | {symbol}):
                out.append(View(v.root, v.prefixes + ((prefix,) if prefix else ()), v.conditional or m.conditional, v.chain + (symbol,), v.links + (prefix,)))
        if not stack:
            memo[symbol] = out
        return out

    return {s: views(s, frozenset()) for s in sorted(analysis.servers)}


def _visible(analysis: Analysis, view: View, reg: Registration) -> tuple[bool, bool]:
    """(seen by callers, only maybe) of a component through a view, by its own `enabled=` and then
    the visibility rules of each server from the registering one up to the root, in order: the
    later rule matching it wins (FastMCP applies a mounted server's rules, then its parent's, to
    the name as each sees it, mount prefixes included). A rule under a condition, or whose
    criteria are not known, leaves the component only maybe seen."""
    visible, maybe = reg.enabled, False
    for k in reversed(range(len(view.chain))):
        rules = analysis.visibility.get(view.chain[k], ())
        if not rules:
            continue
        name = "_".join((*(p for p in view.links[k:] if p), reg.entry.name))
        for enables, criteria, conditional in rules:
            matches = None if criteria is None else _rule_matches(criteria, reg.entry.kind, name, reg.entry.tags)
            if matches is False:
                continue
            if matches is None or conditional:
                maybe = True
                visible = visible or enables
            else:
                visible = enables
    return visible, maybe


def _rule_matches(criteria: dict[str, frozenset[str]], kind: str, name: str, tags: list[str]) -> bool:
    """Whether a FastMCP visibility rule's criteria all hold for a component (`Visibility._matches`:
    none given matches nothing; a tag rule needs one of the tags; a key is "tool:name@")."""
    if "*" in criteria:
        return True
    if not criteria:
        return False
    if "components" in criteria and kind not in criteria["components"]:
        return False
    if "keys" in criteria and f"{kind}:{name}@" not in criteria["keys"]:
        return False
    if "names" in criteria and name not in criteria["names"]:
        return False
    return "tags" not in criteria or bool(criteria["tags"] & set(tags))


def _passes_filters(analysis: Analysis, view: View, tags: list[str]) -> bool:
    for symbol in view.chain:
        server = analysis.servers[symbol]
        if server.include_tags is not None and not server.include_tags & set(tags):
            return False
        if server.exclude_tags & set(tags):
            return False
    return True


def _server_homes(analysis: Analysis) -> dict[str, str]:
    """Each server's identity (its entries' `home`): its symbol, or for a server named by its
    variable (`Server.named_by_variable`), its place among such servers of the same module or
    function in source order (`shop.server.<server 1>`): renaming that variable, which clients never
    see, keeps it, and a tool moved to another such server changes it."""
    out: dict[str, str] = {}
    ranks: dict[str, int] = {}
    for symbol, server in sorted(analysis.servers.items(), key=lambda kv: (kv[1].path, kv[1].call.line or 0, kv[0])):
        if server.named_by_variable:
            parent = symbol.rsplit(".", 1)[0]
            ranks[parent] = ranks.get(parent, 0) + 1
            out[symbol] = f"{parent}.<server {ranks[parent]}>"
        else:
            out[symbol] = symbol
    return out


def extract_flavor(program: Program, flavor: str) -> DialectResult:
    """Candidates for the servers of one flavor ("mcp" = the SDK, "fastmcp" = the standalone package)."""
    analysis = analyse(program)
    result = DialectResult(issues=[i for f, i in analysis.issues if f == flavor])
    views = _views(analysis) if analysis.servers else {}
    homes = _server_homes(analysis)
    for reg in analysis.registrations:
        if analysis.servers[reg.server].flavor != flavor:
            continue
        for view in views.get(reg.server, []):
            root = analysis.servers[view.root]
            name = "_".join((*view.prefixes, reg.entry.name))
            visible, maybe = _visible(analysis, view, reg)
            entry = reg.entry.model_copy(deep=True, update={
                "name": name,
                "scope": root.name,
                "scope_by_variable": root.named_by_variable,
                "home": homes[view.root],  # identity: the server object clients reach it through
                "key": "",
                "conditional": reg.entry.conditional or view.conditional or maybe,
                "root": visible and _passes_filters(analysis, view, reg.entry.tags),
            })
            entry.model_post_init(None)  # recompute the key for the caller-visible name
            result.candidates.append(Candidate(entry, set(reg.symbols)))
    result.candidates.sort(key=lambda c: (c.entry.key, c.entry.path, c.entry.line))
    result.issues.sort(key=lambda i: (i.path, i.line or 0, i.message))
    return result


def extract(program: Program) -> DialectResult:
    return extract_flavor(program, "mcp")
